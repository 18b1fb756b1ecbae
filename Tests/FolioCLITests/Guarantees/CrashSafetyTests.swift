import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// `kill -9` at random moments of a large `import trades`, a `db migrate` of a big old
/// database and a `market import`: afterwards the file passes `PRAGMA integrity_check`, holds
/// either none or all of the work, and the next command works without any repair.
///
/// The default sizes keep `swift test` quick; `FOLIO_RELIABILITY_FULL=1` (CI's second run)
/// kills each command 24 times. `FOLIO_CRASH_KILLS` and `FOLIO_CRASH_ROWS` override the sizes,
/// and `FOLIO_TEST_BINARY` runs them against another build (a release build imports 200 000
/// rows in a few seconds).
@Suite struct CrashSafetyTests {
  let sandbox = Sandbox()

  static var kills: Int { ReliabilityScale.pick(4, full: 24, variable: "FOLIO_CRASH_KILLS") }

  /// What one kill left behind, for the summary printed with each test.
  enum Ending: String {
    case none, all
  }

  // MARK: - Helpers

  func folio(_ arguments: [String], db: String) throws -> RunResult {
    try Binary.run(arguments, environment: ["FOLIO_DB": db])
  }

  func sqlite(_ db: String, _ sql: String) throws -> String {
    DatabaseProbe.run(db, sql).out
  }

  /// Copies the database `template` (a closed file without -wal) to a fresh name.
  func copy(_ template: String, to name: String) throws -> String {
    let target = sandbox.file(name)
    try FileManager.default.copyItem(atPath: template, toPath: target)
    return target
  }

  /// Runs `arguments` on `db` to the end and returns how long it took.
  func timedRun(_ arguments: [String], db: String) throws -> TimeInterval {
    let start = Date()
    let process = try Binary.spawn(
      arguments, environment: ["FOLIO_DB": db], folder: sandbox.path, name: "reference")
    let result = process.wait()
    try #require(result.code == 0, "reference run: \(result.err)")
    return Date().timeIntervalSince(start)
  }

  /// A random moment to kill a run that takes `duration` seconds when left alone: anywhere in
  /// it, and every third one near its end, where the commit happens.
  static func moment(_ index: Int, of duration: TimeInterval) -> TimeInterval {
    index % 3 == 2
      ? duration * Double.random(in: 0.8...1.05) : duration * Double.random(in: 0...1)
  }

  /// Starts `arguments` on `db`, kills it with SIGKILL after `delay` seconds and waits for it.
  func kill(_ arguments: [String], db: String, after delay: TimeInterval, name: String) throws
    -> RunResult
  {
    let process = try Binary.spawn(
      arguments, environment: ["FOLIO_DB": db], folder: sandbox.path, name: name)
    usleep(UInt32(delay * 1_000_000))
    process.kill()
    return process.wait()
  }

  /// `folio db check` says the file is sound (it runs `PRAGMA integrity_check`).
  func expectSound(_ db: String, _ label: String) throws {
    let check = try folio(["db", "check"], db: db)
    #expect(check.code == 0 && check.out == "ok\n", "\(label): \(check.out) \(check.err)")
    #expect(try sqlite(db, "PRAGMA integrity_check") == "ok\n", "\(label)")
  }

  /// A trade history of `rows` buys over five coins, one second apart.
  static func tradesCSV(rows: Int) -> String {
    let coins = ["bitcoin", "ethereum", "solana", "cardano", "ripple"]
    let start = 1_577_836_800  // 2020-01-01T00:00:00Z
    var lines = ["date,side,coin,quantity,price,fee,note"]
    lines.reserveCapacity(rows + 1)
    for row in 0..<rows {
      let date = Timestamp.format(Date(timeIntervalSince1970: TimeInterval(start + row)))
      lines.append(
        "\(date),buy,\(coins[row % 5]),0.\(row % 9 + 1),\(100 + row % 997).25,0.1,row \(row)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A `/coins/markets` page of `coins` coins, each with a 7-day sparkline of 168 prices.
  static func marketsJSON(coins: Int) -> String {
    let sparkline = (0..<168).map { "\(1000 + $0).125" }.joined(separator: ",")
    let items = (1...coins).map { index in
      """
      {"id":"coin-\(index)","symbol":"c\(index)","name":"Coin \(index)","current_price":\(index).5,\
      "market_cap":\(index * 1_000_000),"market_cap_rank":\(index),"total_volume":12345.678,\
      "price_change_percentage_24h":-1.25,"last_updated":"2024-01-24T00:28:42.081Z",\
      "sparkline_in_7d":{"price":[\(sparkline)]}}
      """
    }
    return "[" + items.joined(separator: ",\n") + "]"
  }

  // MARK: - Tests

  @Test func importKilledAtRandomMomentsLeavesNoneOrAllOfTheFile() throws {
    let rows = ReliabilityScale.pick(4_000, full: 12_000, variable: "FOLIO_CRASH_ROWS")
    let csv = sandbox.write("trades.csv", Self.tradesCSV(rows: rows))
    let template = sandbox.file("template.sqlite3")
    for (coin, price) in [("bitcoin", "40000"), ("litecoin", "80")] {
      let seeded = try folio(["buy", coin, "1", "--price", price], db: template)
      try #require(seeded.code == 0, "\(seeded.err)")
    }
    try #require(DatabaseProbe.walIsEmpty(beside: template))
    let before = try sqlite(template, "SELECT count(*) FROM trades")
    let holdingsBefore = try folio(["holdings", "--format", "json"], db: template).out

    let reference = try copy(template, to: "reference.sqlite3")
    let duration = try timedRun(["import", "trades", csv], db: reference)
    let after = try sqlite(reference, "SELECT count(*) FROM trades")
    #expect(after == "\(rows + 2)\n")
    let holdingsAfter = try folio(["holdings", "--format", "json"], db: reference).out

    var endings: [Ending] = []
    for index in 0..<Self.kills {
      let db = try copy(template, to: "kill-\(index).sqlite3")
      let delay = Self.moment(index, of: duration)
      let label = "kill \(index) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      let killed = try kill(
        ["import", "trades", csv], db: db, after: delay, name: "import-\(index)")
      #expect(killed.code == 0 || killed.code == 128 + SIGKILL, "\(label): \(killed.err)")

      try expectSound(db, label)
      let count = try sqlite(db, "SELECT count(*) FROM trades")
      #expect(count == before || count == after, "\(label): \(count) trades")
      // The derived tables went with the journal: holdings are exactly those of none or all.
      let holdings = try folio(["holdings", "--format", "json"], db: db)
      #expect(holdings.code == 0, "\(label): \(holdings.err)")
      #expect(
        holdings.out == (count == after ? holdingsAfter : holdingsBefore), "\(label)")
      endings.append(count == after ? .all : .none)
      // The next command works without any repair.
      let next = try folio(["buy", "bitcoin", "0.5", "--price", "1"], db: db)
      #expect(next.code == 0, "\(label): \(next.err)")
      Database.removeFiles(of: db)
    }
    print(
      "CrashSafetyTests: \(rows)-row import (\(Int(duration * 1000)) ms) killed \(endings.count) "
        + "times: \(endings.filter { $0 == .none }.count) left none, "
        + "\(endings.filter { $0 == .all }.count) left all")
  }

  /// Into a database that does not exist yet, the import builds a file with no name and gives
  /// it the name only once complete: killed at any moment, the path holds nothing (and its
  /// folder nothing else), or the whole import; the next import works.
  @Test func importIntoANewDatabaseKilledAtRandomMomentsLeavesNothingOrAll() throws {
    let rows = ReliabilityScale.pick(4_000, full: 12_000, variable: "FOLIO_CRASH_ROWS")
    let csv = sandbox.write("trades.csv", Self.tradesCSV(rows: rows))
    let reference = sandbox.file("reference/folio.sqlite3")
    let duration = try timedRun(["import", "trades", csv], db: reference)
    let holdingsAfter = try folio(["holdings", "--format", "json"], db: reference).out

    var endings: [Ending] = []
    for index in 0..<Self.kills {
      let folder = sandbox.file("kill-\(index)")
      let db = folder + "/folio.sqlite3"
      let delay = Self.moment(index, of: duration)
      let label = "kill \(index) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      let killed = try kill(
        ["import", "trades", csv], db: db, after: delay, name: "import-\(index)")
      #expect(killed.code == 0 || killed.code == 128 + SIGKILL, "\(label): \(killed.err)")
      // Besides the database, at most the lock file, which the next command removes.
      let left = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0 != "folio.sqlite3.creating" }
      #expect(left == [] || left == ["folio.sqlite3"], "\(label): \(left)")
      if left.isEmpty {
        endings.append(.none)
        #expect(try folio(["holdings"], db: db).code == 66, "\(label)")
      } else {
        endings.append(.all)
        try expectSound(db, label)
        #expect(try sqlite(db, "SELECT count(*) FROM trades") == "\(rows)\n", "\(label)")
        #expect(
          try folio(["holdings", "--format", "json"], db: db).out == holdingsAfter, "\(label)")
      }
      // The next import works without any repair.
      let next = try folio(["import", "trades", csv], db: db)
      #expect(next.code == 0, "\(label): \(next.err)")
      #expect(try sqlite(db, "SELECT count(*) FROM trades") == "\(rows)\n", "\(label)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder).filter {
          !$0.hasPrefix("folio.sqlite3-")
        } == ["folio.sqlite3"], "\(label)")
    }
    print(
      "CrashSafetyTests: \(rows)-row import into a new database (\(Int(duration * 1000)) ms) "
        + "killed \(endings.count) times: \(endings.filter { $0 == .none }.count) left "
        + "nothing, \(endings.filter { $0 == .all }.count) left all")
  }

  @Test func migrationKilledAtRandomMomentsResumesOnTheNextRun() throws {
    let migrator = try Migrator()
    let latest = migrator.latestVersion
    // The oldest schema with trades: every later migration is pending.
    let from = try #require(Migration.embedded.first { $0.name == "trades" }?.version)
    guard from < latest else { return }
    let rows = ReliabilityScale.pick(30_000, full: 200_000, variable: "FOLIO_CRASH_ROWS")
    let template = sandbox.file("old.sqlite3")
    do {
      let db = try Database(path: template)
      try Migrator(migrations: Array(Migration.embedded.prefix(from))).migrate(db)
      try db.execute(
        """
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
        INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee, note,
          created_at)
        SELECT 1, '2020-01-01T00:00:00Z', 'buy', 'bitcoin', '1', '100', '0', 'row ' || k,
          '2020-01-01T00:00:00Z' FROM n
        """)
    }
    let duration = try timedRun(["db", "migrate"], db: try copy(template, to: "reference.sqlite3"))

    var reached: [Int] = []
    for index in 0..<Self.kills {
      let name = "kill-\(index).sqlite3"
      let db = try copy(template, to: name)
      let delay = Self.moment(index, of: duration)
      let label = "kill \(index) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      _ = try kill(["db", "migrate"], db: db, after: delay, name: "migrate-\(index)")

      #expect(try sqlite(db, "PRAGMA integrity_check") == "ok\n", "\(label)")
      // The file stands at the last migration that committed, its history consistent.
      let version =
        Int(try sqlite(db, "PRAGMA user_version").trimmingCharacters(in: .newlines)) ?? -1
      #expect((from...latest).contains(version), "\(label): version \(version)")
      #expect(
        try sqlite(db, "SELECT count(*) FROM schema_migrations") == "\(version)\n", "\(label)")
      #expect(try sqlite(db, "SELECT count(*) FROM trades") == "\(rows)\n", "\(label)")
      reached.append(version)
      // A backup copy is whole or absent: an interrupted one is only ever a `.partial-` file.
      let copies = try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
        .filter {
          $0.hasPrefix(name + ".bak-v") && !$0.contains(".partial-") && !$0.hasSuffix("-journal")
        }
      for backup in copies {
        let path = sandbox.file(backup)
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok\n", "\(label): \(backup)")
        #expect(try sqlite(path, "PRAGMA user_version") == "\(from)\n", "\(label): \(backup)")
        #expect(
          try sqlite(path, "SELECT count(*) FROM trades") == "\(rows)\n", "\(label): \(backup)")
      }
      // The next run applies the rest and tidies an interrupted copy away.
      let next = try folio(["db", "migrate"], db: db)
      #expect(next.code == 0, "\(label): \(next.err)")
      #expect(try sqlite(db, "PRAGMA user_version") == "\(latest)\n", "\(label)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
        .filter { $0.hasPrefix(name) && $0.contains(".partial-") }
      #expect(leftovers.isEmpty, "\(label): \(leftovers)")
      #expect(try folio(["tx", "list", "--limit", "1"], db: db).code == 0, "\(label)")
      for file in try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
      where file.hasPrefix(name) {
        Database.removeFiles(of: sandbox.file(file))
      }
    }
    print(
      "CrashSafetyTests: migration of \(rows) trades (\(Int(duration * 1000)) ms) killed "
        + "\(reached.count) times; versions left: \(reached.map(String.init).joined(separator: ","))"
    )
  }

  @Test func marketImportKilledAtRandomMomentsLeavesNoneOrAllOfTheSnapshot() throws {
    let coins = ReliabilityScale.pick(150, full: 150, variable: "FOLIO_CRASH_COINS")
    let file = sandbox.write("markets.json", Self.marketsJSON(coins: coins))
    let template = sandbox.file("template.sqlite3")
    try #require(try folio(["db", "migrate"], db: template).code == 0)
    let arguments = ["market", "import", file, "--at", "2024-01-24T00:30:00Z"]
    let duration = try timedRun(arguments, db: try copy(template, to: "reference.sqlite3"))
    let counts =
      "SELECT (SELECT count(*) FROM market_snapshots), (SELECT count(*) FROM market_quotes), (SELECT count(*) FROM coins WHERE id GLOB 'coin-*')"

    var endings: [Ending] = []
    for index in 0..<Self.kills {
      let db = try copy(template, to: "kill-\(index).sqlite3")
      let delay = Self.moment(index, of: duration)
      let label = "kill \(index) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      _ = try kill(arguments, db: db, after: delay, name: "market-\(index)")

      try expectSound(db, label)
      let state = try sqlite(db, counts)
      #expect(state == "0|0|0\n" || state == "1|\(coins)|\(coins)\n", "\(label): \(state)")
      endings.append(state == "0|0|0\n" ? .none : .all)
      // The next command works without any repair.
      let next = try folio(
        ["market", "import", Fixtures.path("coingecko/global_usd.json")], db: db)
      #expect(next.code == 0, "\(label): \(next.err)")
      Database.removeFiles(of: db)
    }
    print(
      "CrashSafetyTests: \(coins)-coin market import (\(Int(duration * 1000)) ms) killed "
        + "\(endings.count) times: \(endings.filter { $0 == .none }.count) left none, "
        + "\(endings.filter { $0 == .all }.count) left all")
  }
}
