import FolioTestSupport
import Foundation
import Testing

/// `sqlite3` shells reading the file while folio writes. A folio connection never takes the
/// database file's EXCLUSIVE lock when it closes (SQLite's checkpoint-on-close is off; it
/// empties the WAL under the WAL's own locks instead), so a shell that opens the file at any
/// moment, even one without a busy handler, reads at once (docs/schema.md).
@Suite(.requires(.sqlite3)) struct ShellPollingTests {
  let sandbox = Sandbox()

  /// Issue 50: 1,000 reads by a plain `sqlite3` (no `.timeout`) and 100 by `sqlite3
  /// -readonly` beside a loop of `folio buy`: none sees "database is locked" (when folio
  /// checkpointed on close, about 1 in 30 did).
  @Test func plainShellsPollingDuringWritesAreNeverLocked() throws {
    let migrate = try Binary.run(["db", "migrate"], environment: ["FOLIO_DB": sandbox.database])
    try #require(migrate.code == 0, "\(migrate.err)")
    let (done, started) = (sandbox.file("reads-done"), sandbox.file("writer-started"))
    let environment = [
      "FOLIO_DB": sandbox.database, "SQLITE3": Binary.sqlite3, "DONE": done, "STARTED": started,
    ]
    // Writes until the reads are over.
    let writer = try Binary.spawnShell(
      "while [ ! -e \"$DONE\" ]; do \"$FOLIO\" buy bitcoin 0.001 --price 100 > /dev/null "
        + "|| exit $?; touch \"$STARTED\"; done",
      environment: environment, folder: sandbox.path, name: "writer")
    // Each read is a new shell process with sqlite3's default settings: it opens the file,
    // reads, closes. Every 11th is a -readonly one.
    let poll =
      "n=0; while [ ! -e \"$STARTED\" ] && [ $n -lt 1000 ]; do n=$((n + 1)); sleep 0.01; done; "
      + "for i in $(seq 1 1100); do set --; [ $((i % 11)) -eq 0 ] && set -- -readonly; "
      + "\"$SQLITE3\" \"$@\" \"$FOLIO_DB\" 'SELECT count(*) FROM trades;' 2>&1 "
      + "|| echo \"exit $?\"; done; touch \"$DONE\""
    let reads = try Binary.spawnShell(
      poll, environment: environment, folder: sandbox.path, name: "reader"
    ).wait()
    let written = writer.wait()
    #expect(written.code == 0, "\(written.err)")
    let lines = reads.out.split(separator: "\n").map(String.init)
    // A failed read prints its error, then "exit N".
    let (counts, failed) = (lines.filter { Int($0) != nil }, lines.filter { $0.hasPrefix("exit ") })
    let errors = lines.filter { Int($0) == nil && !$0.hasPrefix("exit ") }
    #expect(counts.count + failed.count == 1_100, "\(reads.out.suffix(300))")
    #expect(failed.isEmpty, "\(failed.count) of 1,100 reads failed: \(errors.first ?? "")")
    // The reads ran during the writes: they saw several counts of trades.
    #expect(Set(counts).count >= 3, "the reads saw \(Set(counts).sorted())")
    #expect(
      try Binary.run(["db", "check"], environment: ["FOLIO_DB": sandbox.database]).out == "ok\n")
  }
}
