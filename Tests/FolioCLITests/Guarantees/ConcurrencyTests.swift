import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// Several `folio` processes writing one database at the same moment, while a `sqlite3` shell
/// holds a read transaction open and other folio processes read: nothing is lost, no
/// "database is locked" escapes the busy timeout, and every reader sees whole commits only.
///
/// Sizes are small by default; `FOLIO_RELIABILITY_FULL=1` (CI's second run) uses the sizes of
/// issue 8: 8 processes × 100 buys.
@Suite struct ConcurrencyTests {
  let sandbox = Sandbox()

  /// One background writer: a shell loop running folio again and again.
  struct Writer {
    let name: String
    let script: String
  }

  // MARK: - Helpers

  /// The environment of every spawned process: the sandbox database.
  var environment: [String: String] { ["FOLIO_DB": sandbox.database] }

  func folio(_ arguments: String..., db: String? = nil) throws -> RunResult {
    try Binary.run(arguments, environment: ["FOLIO_DB": db ?? sandbox.database])
  }

  /// A shell loop running `folio ARGUMENTS` `times` times, stopping at the first failure with
  /// its exit code. `$i` counts 10, 11, … (always two digits for up to 90 rounds) and may be
  /// used in the arguments.
  static func loop(_ times: Int, _ arguments: [String]) -> String {
    let words = arguments.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    return "for i in $(seq 10 \(9 + times)); do \"$FOLIO\" \(words.joined(separator: " ")) "
      + "|| exit $?; done"
  }

  /// Starts every writer at once and waits for all of them.
  func runAll(_ writers: [Writer], extra: [String: String] = [:]) throws -> [(Writer, RunResult)] {
    let started = try writers.map {
      (
        $0,
        try Binary.spawnShell(
          $0.script, environment: environment.merging(extra) { $1 }, folder: sandbox.path,
          name: $0.name)
      )
    }
    return started.map { ($0.0, $0.1.wait()) }
  }

  /// A `sqlite3` shell that has begun a read transaction (its first `count(*)` is done).
  func openReader() throws -> Spawned {
    let reader = try Spawned(
      "/usr/bin/stdbuf", ["-o0", Binary.sqlite3, sandbox.database],
      environment: Binary.environment(), folder: sandbox.path, name: "sqlite3-reader")
    reader.send("BEGIN; SELECT count(*) FROM trades;\n")
    reader.waitForOutput(lines: 1)
    return reader
  }

  /// Counts the trades again in the reader's transaction, commits and returns both counts.
  func closeReader(_ reader: Spawned) -> [String] {
    reader.send("SELECT count(*) FROM trades; COMMIT;\n")
    return reader.wait().out.split(separator: "\n").map(String.init)
  }

  /// Quantity and cost basis per coin, from `folio holdings --format json`.
  func holdings(db: String? = nil) throws -> [String: (quantity: ExactDecimal, cost: ExactDecimal)]
  {
    let result = try Binary.run(
      ["holdings", "--format", "json"], environment: ["FOLIO_DB": db ?? sandbox.database])
    try #require(result.code == 0, "holdings: \(result.err)")
    return try Self.parseHoldings(result.out)
  }

  static func parseHoldings(_ json: String) throws -> [String: (
    quantity: ExactDecimal, cost: ExactDecimal
  )] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let rows = try #require(object["holdings"] as? [[String: Any]])
    var result: [String: (quantity: ExactDecimal, cost: ExactDecimal)] = [:]
    for row in rows {
      let coin = try #require(row["coin"] as? String)
      result[coin] = (
        try ExactDecimal(parsing: try #require(row["quantity"] as? String)),
        try ExactDecimal(parsing: try #require(row["cost_basis"] as? String))
      )
    }
    return result
  }

  /// Rows of a CSV listing (`tx list --format csv` or `export trades`) counted by the value
  /// of column `column`; notes in these tests hold no commas or quotes.
  static func countByColumn(_ csv: String, _ column: Int) -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in csv.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard column < fields.count else { continue }
      counts[String(fields[column]), default: 0] += 1
    }
    return counts
  }

  /// Writes `count` CSV files of `batch` ethereum buys each, noted `batch-<writer>-<i>` (i
  /// from 10, as in `loop`), with ids so that the rows are unique.
  func writeBatches(writer: Int, count: Int, batch: Int) {
    for index in 10..<(10 + count) {
      var text = "date,side,coin,quantity,price,fee,note,id\n"
      for row in 0..<batch {
        text +=
          "2024-02-01T00:00:00Z,buy,ethereum,0.01,2000,0,batch-\(writer)-\(index),"
          + "w\(writer)-\(index)-\(row)\n"
      }
      sandbox.write("import-\(writer)-\(index).csv", text)
    }
  }

  // MARK: - Tests

  func eightWritersAndAnOpenReaderLoseNothing() throws {
    #expect(try folio("db", "migrate").code == 0)
    let reader = try openReader()
    let buys = ReliabilityScale.pick(12, full: 100, variable: "FOLIO_STRESS_BUYS")
    let writers = (1...8).map { writer in
      Writer(
        name: "writer-\(writer)",
        script: Self.loop(
          buys, ["buy", "bitcoin", "0.001", "--price", "100.5", "--note", "w\(writer)-$i"]))
    }
    let results = try runAll(writers)
    let counts = closeReader(reader)

    for (writer, result) in results {
      #expect(result.code == 0, "\(writer.name): \(result.err)")
      #expect(result.err.isEmpty, "\(writer.name)")
      #expect(result.out.split(separator: "\n").count == buys, "\(writer.name) printed ids")
    }
    // The shell's transaction saw the database as it was when it began, throughout.
    #expect(counts == ["0", "0"])
    let total = 8 * buys
    #expect(
      try sandbox.sqlite("SELECT count(*), count(DISTINCT note), count(DISTINCT id) FROM trades")
        == "\(total)|\(total)|\(total)\n")
    let quantity = try ExactDecimal(parsing: "0.001") * ExactDecimal(total)
    let bitcoin = try #require(try holdings()["bitcoin"])
    #expect(bitcoin.quantity == quantity)
    #expect(bitcoin.cost == (try quantity * ExactDecimal(parsing: "100.5")))
    #expect(try folio("db", "check").out == "ok\n")
  }

  func mixedWritersAndLongReadersSeeWholeCommits() throws {
    // Seed trades make every read long enough for commits to land while it runs.
    let seedRows = ReliabilityScale.pick(1_500, full: 5_000, variable: "FOLIO_STRESS_SEED")
    var seed = "date,side,coin,quantity,price,fee,note\n"
    for _ in 0..<seedRows { seed += "2023-01-01T00:00:00Z,buy,cardano,1,0.5,0,seed\n" }
    #expect(sandbox.run("import", "trades", sandbox.write("seed.csv", seed)).code == 0)

    let buys = ReliabilityScale.pick(6, full: 40, variable: "FOLIO_STRESS_BUYS")
    let files = ReliabilityScale.pick(3, full: 10, variable: "FOLIO_STRESS_FILES")
    let snapshots = ReliabilityScale.pick(3, full: 10, variable: "FOLIO_STRESS_FILES")
    let places = ReliabilityScale.pick(4, full: 30, variable: "FOLIO_STRESS_BUYS")
    let reads = ReliabilityScale.pick(3, full: 8, variable: "FOLIO_STRESS_READS")
    let batch = 50
    writeBatches(writer: 1, count: files, batch: batch)
    writeBatches(writer: 2, count: files, batch: batch)
    let dir = sandbox.path
    let markets = Fixtures.path("coingecko/markets_usd.json")
    let buy = ["buy", "bitcoin", "0.001", "--price", "100"]
    let writers = [
      Writer(name: "buys-1", script: Self.loop(buys, buy)),
      Writer(name: "buys-2", script: Self.loop(buys, buy)),
      Writer(
        name: "import-1", script: Self.loop(files, ["import", "trades", "\(dir)/import-1-$i.csv"])),
      Writer(
        name: "import-2", script: Self.loop(files, ["import", "trades", "\(dir)/import-2-$i.csv"])),
      Writer(
        name: "market",
        script: Self.loop(snapshots, ["market", "import", markets, "--at", "2024-01-01T00:$i:00Z"])),
      Writer(
        name: "locations",
        script: Self.loop(
          places,
          ["locations", "add", "Place $i", "--city", "Testville", "--lat", "1.5", "--lon", "2.5"])),
      Writer(name: "report", script: Self.loop(snapshots, ["report", "--save"])),
    ]
    // Long readers run in the same moments, each run's output kept in its own file.
    let readers = [
      Writer(
        name: "read-tx-list",
        script:
          "for i in $(seq 10 \(9 + reads)); do \"$FOLIO\" tx list --format csv > \"\(dir)/tx-list-$i.csv\" || exit $?; done"
      ),
      Writer(
        name: "read-export",
        script:
          "for i in $(seq 10 \(9 + reads)); do \"$FOLIO\" export trades > \"\(dir)/export-$i.csv\" || exit $?; done"
      ),
      Writer(
        name: "read-holdings",
        script:
          "for i in $(seq 10 \(9 + reads)); do \"$FOLIO\" holdings --format json > \"\(dir)/holdings-$i.json\" || exit $?; done"
      ),
    ]
    let reader = try openReader()
    let results = try runAll(writers + readers)
    let counts = closeReader(reader)

    for (writer, result) in results {
      #expect(result.code == 0, "\(writer.name): \(result.err)")
      #expect(!result.err.contains("error"), "\(writer.name): \(result.err)")
    }
    #expect(counts == ["\(seedRows)", "\(seedRows)"])

    // Every read saw whole commits: an import's 50 rows all or none, positions that match them.
    for index in 10..<(10 + reads) {
      for (file, noteColumn) in [("tx-list-\(index).csv", 7), ("export-\(index).csv", 6)] {
        let text = try String(contentsOfFile: sandbox.file(file), encoding: .utf8)
        let notes = Self.countByColumn(text, noteColumn)
        #expect(notes["seed"] == seedRows, "\(file)")
        for (note, count) in notes where note.hasPrefix("batch-") {
          #expect(count == batch, "\(file): \(note) has \(count) of \(batch) rows")
        }
      }
      let json = try String(contentsOfFile: sandbox.file("holdings-\(index).json"), encoding: .utf8)
      let seen = try Self.parseHoldings(json)
      #expect(seen["cardano"]?.quantity == ExactDecimal(seedRows))
      if let ethereum = seen["ethereum"] {
        let batches = try ethereum.quantity / ExactDecimal(parsing: "0.5")
        #expect(batches == batches.rounded(places: 0), "a partial import was visible: \(ethereum)")
        #expect(ethereum.cost == (try ethereum.quantity * ExactDecimal(2000)))
      }
      if let bitcoin = seen["bitcoin"] {
        #expect(bitcoin.cost == (try bitcoin.quantity * ExactDecimal(100)))
      }
    }

    // Nothing lost.
    #expect(
      try sandbox.sqlite("SELECT coin_id, count(*) FROM trades GROUP BY coin_id ORDER BY coin_id")
        == "bitcoin|\(2 * buys)\ncardano|\(seedRows)\nethereum|\(2 * files * batch)\n")
    let final = try holdings()
    #expect(
      final["bitcoin"]?.quantity == (try ExactDecimal(parsing: "0.001") * ExactDecimal(2 * buys)))
    #expect(
      final["ethereum"]?.quantity
        == (try ExactDecimal(parsing: "0.01") * ExactDecimal(2 * files * batch)))
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_snapshots") == "\(snapshots)\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM locations") == "\(places)\n")
    // `report --save` ran several times for today: one row, replaced each time.
    #expect(try sandbox.sqlite("SELECT count(*) FROM portfolio_daily") == "1\n")
    #expect(try folio("db", "check").out == "ok\n")
  }

  /// `portfolio set --method` racing buys, sells, imports and tx edits (issue 13, point 4):
  /// every write reads the method it books with inside its BEGIN IMMEDIATE transaction, so no
  /// lot is booked with the old method. `db check` runs during the race (each run reads one
  /// committed state) and after every round, and is clean every time.
  @Test func methodChangesRacingWritesLeaveTheLedgerConsistent() throws {
    let rounds = ReliabilityScale.pick(2, full: 8, variable: "FOLIO_STRESS_ROUNDS")
    let times = ReliabilityScale.pick(10, full: 30, variable: "FOLIO_STRESS_BUYS")
    let files = ReliabilityScale.pick(3, full: 10, variable: "FOLIO_STRESS_FILES")
    for (price, day) in [("50", "2024-01-01"), ("70", "2024-01-02")] {
      #expect(try folio("buy", "bitcoin", "1000", "--price", price, "--date", day).code == 0)
    }
    // Many lots make each method change's rebuild long, so writes queue up behind it: the
    // moment a write that read the portfolio before the change would book the old method.
    let seedRows = ReliabilityScale.pick(800, full: 3_000, variable: "FOLIO_STRESS_SEED")
    var seed = "date,side,coin,quantity,price,fee,note\n"
    for row in 0..<seedRows { seed += "2023-06-01T00:00:00Z,buy,bitcoin,1,\(row % 97 + 1),0,\n" }
    #expect(sandbox.run("import", "trades", sandbox.write("seed.csv", seed)).code == 0)
    let dir = sandbox.path
    let flips =
      "for i in $(seq 10 \(9 + times)); do set -- lifo hifo average fifo; shift $((i % 4)); "
      + "\"$FOLIO\" portfolio set main --method $1 > /dev/null || exit $?; done"
    for round in 1...rounds {
      writeBatches(writer: round, count: files, batch: 5)
      let results = try runAll(
        [
          Writer(name: "method", script: flips),
          Writer(
            name: "buys", script: Self.loop(times, ["buy", "bitcoin", "1", "--price", "6$i"])),
          Writer(
            name: "sells",
            script: Self.loop(
              times,
              [
                "sell", "bitcoin", "1", "--price", "8$i", "--date",
                "2024-01-\(String(format: "%02d", 2 + round))T00:$i:00Z",
              ])),
          Writer(
            name: "import",
            script: Self.loop(files, ["import", "trades", "\(dir)/import-\(round)-$i.csv"])),
          Writer(name: "edits", script: Self.loop(times, ["tx", "edit", "2", "--price", "7$i"])),
          Writer(name: "checks", script: Self.loop(times, ["db", "check"])),
        ], extra: ["FOLIO_BUSY_TIMEOUT_MS": "60000"])
      for (writer, result) in results {
        #expect(result.code == 0, "round \(round), \(writer.name): \(result.out)\(result.err)")
      }
      let check = try folio("db", "check")
      #expect(check.out == "ok\n", "round \(round): \(check.out)\(check.err)")
    }
  }

  /// Issue 50: a reader without a busy handler (`sqlite3 FILE "SELECT …"` with the shell's
  /// defaults) fails at once when it opens the file while another process holds a write lock
  /// on it (SQLite's PENDING or EXCLUSIVE lock, https://sqlite.org/lockingv3.html), as SQLite's
  /// checkpoint-on-close took when a folio command closed its connection: 10 of 300 such reads
  /// failed beside a loop of `folio buy`. No folio command, writing or reading, ever holds one
  /// now: the lock bytes of the file, polled the whole time a loop of commands runs, never show
  /// it (with the checkpoint-on-close, several times per command).
  @Test func folioNeverHoldsTheLockThatKeepsReadersOut() throws {
    #expect(try folio("db", "migrate").code == 0)
    let done = sandbox.file("writer-done")
    let commands = ReliabilityScale.pick(10, full: 100, variable: "FOLIO_STRESS_BUYS")
    let writer = try Binary.spawnShell(
      "for i in $(seq 1 \(commands)); do \"$FOLIO\" buy bitcoin 0.001 --price 100 > /dev/null "
        + "&& \"$FOLIO\" holdings > /dev/null && \"$FOLIO\" db status > /dev/null || exit $?; "
        + "done; touch \"$DONE\"",
      environment: environment.merging(["DONE": done]) { $1 }, folder: sandbox.path,
      name: "writer")
    let file = open(sandbox.database, O_RDONLY | O_CLOEXEC)
    try #require(file >= 0)
    defer { close(file) }
    // SQLite's lock bytes (os_unix.c): the PENDING byte at 1 GiB, then RESERVED, then the 510
    // bytes a SHARED lock reads and an EXCLUSIVE one writes.
    let pendingByte: off_t = 0x4000_0000
    let ranges: [(start: off_t, length: off_t)] = [(pendingByte, 1), (pendingByte + 2, 510)]
    var (polls, held) = (0, 0)
    while !FileManager.default.fileExists(atPath: done) && polls < 50_000_000 {
      for range in ranges {
        var lock = Glibc.flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        (lock.l_start, lock.l_len) = (range.start, range.length)
        // Reports a lock another process holds there: a read lock of a SHARED one, or a
        // write lock.
        if fcntl(file, F_GETLK, &lock) == 0, lock.l_type == Int16(F_WRLCK) { held += 1 }
      }
      polls += 1
    }
    let written = writer.wait()
    #expect(written.code == 0, "\(written.err)")
    #expect(polls > 1_000, "only \(polls) polls")
    #expect(held == 0, "a write lock on the file in \(held) of \(polls) polls")
    #expect(try folio("db", "check").out == "ok\n")
  }

  @Test func backupTakenWhileWritersRunIsConsistent() throws {
    #expect(try folio("db", "migrate").code == 0)
    let buys = ReliabilityScale.pick(10, full: 40, variable: "FOLIO_STRESS_BUYS")
    let files = ReliabilityScale.pick(4, full: 10, variable: "FOLIO_STRESS_FILES")
    let backups = ReliabilityScale.pick(3, full: 6, variable: "FOLIO_STRESS_READS")
    let batch = 50
    writeBatches(writer: 1, count: files, batch: batch)
    let dir = sandbox.path
    let buy = ["buy", "bitcoin", "0.001", "--price", "100"]
    let results = try runAll([
      Writer(name: "buys-1", script: Self.loop(buys, buy)),
      Writer(name: "buys-2", script: Self.loop(buys, buy)),
      Writer(
        name: "import", script: Self.loop(files, ["import", "trades", "\(dir)/import-1-$i.csv"])),
      Writer(
        name: "backups", script: Self.loop(backups, ["db", "backup", "\(dir)/backup-$i.sqlite3"])),
    ])
    for (writer, result) in results {
      #expect(result.code == 0, "\(writer.name): \(result.err)")
    }
    for index in 10..<(10 + backups) {
      let copy = sandbox.file("backup-\(index).sqlite3")
      #expect(!FileManager.default.fileExists(atPath: copy + "-wal"), "a copy is one file")
      let attributes = try FileManager.default.attributesOfItem(atPath: copy)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      #expect(
        DatabaseProbe.run(copy, "PRAGMA integrity_check").out == "ok\n")
      #expect(try folio("db", "check", db: copy).out == "ok\n")
      // The derived positions match the journal inside the copy, and imports are whole.
      let rows = DatabaseProbe.run(
        copy, "SELECT coin_id, note, count(*) FROM trades GROUP BY coin_id, note"
      ).out
      var bitcoinTrades = 0
      for line in rows.split(separator: "\n") {
        let fields = line.split(separator: "|", omittingEmptySubsequences: false)
        if fields.first == "bitcoin" {
          bitcoinTrades = Int(fields[2]) ?? -1
        } else {
          #expect(fields.last == "\(batch)", "backup \(index): \(line)")
        }
      }
      let seen = try holdings(db: copy)
      #expect(
        (seen["bitcoin"]?.quantity ?? .zero)
          == (try ExactDecimal(parsing: "0.001") * ExactDecimal(bitcoinTrades)))
    }
  }
}

extension ConcurrencyTests {
  /// The tests that run the sqlite3 shell: skipped, saying why, where it is not installed.
  @Suite(.requires(.sqlite3)) struct NeedsSQLite3 {
    @Test func eightWritersAndAnOpenReaderLoseNothing() throws {
      try ConcurrencyTests().eightWritersAndAnOpenReaderLoseNothing()
    }
    @Test func mixedWritersAndLongReadersSeeWholeCommits() throws {
      try ConcurrencyTests().mixedWritersAndLongReadersSeeWholeCommits()
    }
  }
}
