import FolioTestSupport
import Foundation
import Testing

/// `sqlite3` shells reading the file while folio writes. A folio connection never takes the
/// database file's EXCLUSIVE lock when it closes (SQLite's checkpoint-on-close is off; it
/// empties the WAL under the WAL's own locks instead), so a shell that opens the file at any
/// moment, even one without a busy handler, reads at once (docs/schema.md).
@Suite(.requires(.sqlite3)) struct ShellPollingTests {
  let sandbox = Sandbox()

  /// Issue 50: 1,000 reads by a plain `sqlite3` (no `.timeout`) beside a loop of `folio buy`
  /// and `folio holdings`, plus 200 by `sqlite3 -readonly`: none sees "database is locked"
  /// (when folio checkpointed on close, about 1 in 30 did).
  @Test func plainShellsPollingDuringWritesAreNeverLocked() throws {
    let migrate = try Binary.run(["db", "migrate"], environment: ["FOLIO_DB": sandbox.database])
    try #require(migrate.code == 0, "\(migrate.err)")
    let (done, started) = (sandbox.file("reads-done"), sandbox.file("writer-started"))
    let environment = [
      "FOLIO_DB": sandbox.database, "SQLITE3": Binary.sqlite3, "DONE": done, "STARTED": started,
    ]
    // Writes until the reads are over; a folio command that only reads closes its connection
    // too, so `holdings` runs between the buys.
    let writer = try Binary.spawnShell(
      "while [ ! -e \"$DONE\" ]; do \"$FOLIO\" buy bitcoin 0.001 --price 100 > /dev/null "
        + "|| exit $?; touch \"$STARTED\"; \"$FOLIO\" holdings > /dev/null || exit $?; done",
      environment: environment, folder: sandbox.path, name: "writer")
    // Each read is a new shell process with sqlite3's default settings: it opens the file,
    // reads, closes. The plain ones and the -readonly ones take turns.
    let poll =
      "n=0; while [ ! -e \"$STARTED\" ] && [ $n -lt 1000 ]; do n=$((n + 1)); sleep 0.01; done; "
      + "for i in $(seq 1 1200); do set --; [ $((i % 6)) -eq 0 ] && set -- -readonly; "
      + "\"$SQLITE3\" \"$@\" \"$FOLIO_DB\" 'SELECT count(*) FROM trades;' 2>&1 "
      + "|| echo \"exit $?\"; done; touch \"$DONE\""
    let reads = try Binary.spawnShell(
      poll, environment: environment, folder: sandbox.path, name: "reader"
    ).wait()
    let written = writer.wait()
    #expect(written.code == 0, "\(written.err)")
    let lines = reads.out.split(separator: "\n").map(String.init)
    let failed = lines.filter { Int($0) == nil }
    #expect(lines.count == 1_200, "\(lines.count) lines of output for 1,200 reads")
    #expect(failed.isEmpty, "\(failed.count) of 1,200 reads failed: \(failed.prefix(3))")
    // The reads ran during the writes: they saw several counts of trades.
    #expect(Set(lines).count >= 3, "the reads saw \(Set(lines).sorted())")
    #expect(
      try Binary.run(["db", "check"], environment: ["FOLIO_DB": sandbox.database]).out == "ok\n")
  }
}
