import FolioTestSupport
import Foundation
import Testing

/// `sqlite3` shells reading the file while folio writes, with the `.timeout` docs/schema.md
/// gives. Folio never holds the lock that keeps a reader out
/// (ConcurrencyTests.folioNeverHoldsTheLockThatKeepsReadersOut); what a shell without a busy
/// handler can still meet is SQLite's own race when two programs open an idle WAL database at
/// the same instant (one rebuilds the WAL index), which `.timeout` waits out.
@Suite(.requires(.sqlite3)) struct ShellPollingTests {
  let sandbox = Sandbox()

  @Test func shellsWithTheDocumentedTimeoutPollingDuringWritesAreNeverLocked() throws {
    let migrate = try Binary.run(["db", "migrate"], environment: ["FOLIO_DB": sandbox.database])
    try #require(migrate.code == 0, "\(migrate.err)")
    let buys = ReliabilityScale.pick(40, full: 200, variable: "FOLIO_STRESS_BUYS")
    let done = sandbox.file("writer-done")
    let environment = [
      "FOLIO_DB": sandbox.database, "SQLITE3": Binary.sqlite3, "DONE": done,
    ]
    let writer = try Binary.spawnShell(
      "for i in $(seq 1 \(buys)); do \"$FOLIO\" buy bitcoin 0.001 --price 100 > /dev/null "
        + "|| exit $?; done; touch \"$DONE\"",
      environment: environment, folder: sandbox.path, name: "writer")
    // Each poll is a new shell process, with the `.timeout 5000` docs/schema.md gives: it
    // opens the file, reads, closes.
    let poll =
      "n=0; while [ ! -e \"$DONE\" ] && [ $n -lt 2000 ]; do n=$((n + 1)); "
      + "\"$SQLITE3\" -cmd '.timeout 5000' \"$FOLIO_DB\" 'SELECT count(*) FROM trades;' 2>&1; done"
    let pollers = try (1...2).map {
      try Binary.spawnShell(
        poll, environment: environment, folder: sandbox.path, name: "poller-\($0)")
    }
    let written = writer.wait()
    #expect(written.code == 0, "\(written.err)")
    var polls = 0
    var locked: [String] = []
    var counts = Set<String>()
    for poller in pollers {
      for line in poller.wait().out.split(separator: "\n").map(String.init) {
        polls += 1
        if line.contains("locked") { locked.append(line) }
        if Int(line) != nil { counts.insert(line) }
      }
    }
    // The polls ran during the writes: they saw several counts of trades.
    #expect(polls >= 40, "only \(polls) polls")
    #expect(counts.count >= 3, "the polls saw \(counts.sorted())")
    #expect(locked.isEmpty, "\(locked.count) of \(polls) polls: \(locked.first ?? "")")
    #expect(
      try Binary.run(["db", "check"], environment: ["FOLIO_DB": sandbox.database]).out == "ok\n")
  }
}
