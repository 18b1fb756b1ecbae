import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// `folio daily` is safe to run at any time (issue 19), run as the built binary as cron runs
/// it: two runs at once never both write and never leave half a folder; a run killed with
/// SIGKILL at any moment leaves a sound database holding all or none of the day's rows, and
/// every report file under its final name complete (a killed write leaves at most a
/// `.folio-*.tmp` file).
///
/// Sizes are small by default; `FOLIO_RELIABILITY_FULL=1` (CI's second run) kills 24 times.
@Suite struct DailySafetyTests {
  let sandbox = Sandbox()

  static var kills: Int { ReliabilityScale.pick(6, full: 24, variable: "FOLIO_CRASH_KILLS") }

  /// True for the name of a day's folder. The binary runs on the real clock, so the day is
  /// read from what it wrote (a run may cross midnight UTC).
  static func isDay(_ name: String) -> Bool {
    name.count == 10 && name.hasPrefix("20") && CalendarDay(name)?.description == name
  }

  /// The files of a complete run with `--formats html,md,json` in the day's folder.
  static let files = [
    "main.html", "main.json", "main.md", "second.html", "second.json", "second.md",
  ]

  // MARK: - Helpers

  /// Today (UTC), having first waited out the last 30 seconds before midnight, so that the
  /// runs of one step of a test (a few seconds) fall on one day: the binary runs on the real
  /// clock, and the day names the folder and heads each report.
  static func settledDay() -> String {
    let left = 86_400 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
    if left < 30 { usleep(UInt32((left + 1) * 1_000_000)) }
    return String(Timestamp.format(Date()).prefix(10))
  }

  func folio(_ arguments: [String], db: String) throws -> RunResult {
    try Binary.run(arguments, environment: ["FOLIO_DB": db])
  }

  func listing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  func read(_ path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  /// A database with two portfolios (main and second) of `trades` buys each, over five coins,
  /// and a market snapshot taken now that prices them.
  func template(trades: Int) throws -> String {
    let db = sandbox.file("template.sqlite3")
    let coins = ["bitcoin", "ethereum", "solana", "cardano", "ripple"]
    var lines = ["date,side,coin,quantity,price,fee"]
    for row in 0..<trades {
      let date = Timestamp.format(Date(timeIntervalSince1970: TimeInterval(1_577_836_800 + row)))
      lines.append("\(date),buy,\(coins[row % 5]),0.\(row % 9 + 1),\(100 + row % 997).25,0.1")
    }
    let csv = sandbox.write("trades.csv", lines.joined(separator: "\n") + "\n")
    let markets = sandbox.write(
      "markets.json",
      "["
        + coins.enumerated().map { index, coin in
          "{\"id\":\"\(coin)\",\"symbol\":\"c\(index)\",\"name\":\"\(coin)\","
            + "\"current_price\":\(index + 1)000.5,\"market_cap_rank\":\(index + 1)}"
        }.joined(separator: ",") + "]")
    for step in [
      ["import", "trades", csv],
      ["portfolio", "add", "second"],
      ["--portfolio", "second", "import", "trades", csv],
      ["market", "import", markets, "--at", Timestamp.format(Date())],
    ] {
      let result = try folio(step, db: db)
      try #require(result.code == 0, "\(step): \(result.err)")
    }
    try #require(DatabaseProbe.walIsEmpty(beside: db))
    return db
  }

  /// Copies the database `template` (a closed file without -wal) to a fresh name.
  func copy(_ template: String, to name: String) throws -> String {
    let target = sandbox.file(name)
    try FileManager.default.copyItem(atPath: template, toPath: target)
    return target
  }

  func daily(_ reports: String) -> [String] {
    ["daily", "--offline", "--formats", "html,md,json", "--out-dir", reports]
  }

  /// The files of the day's folder and the index in `reports`, by name, with their times
  /// of generation blanked (the only thing that differs between two runs on one database).
  func contents(_ reports: String) -> [String: String] {
    var files: [String: String] = [:]
    let folder = reports + "/" + day(reports)
    let names = listing(folder).filter { !$0.hasPrefix(".folio-") }.map { folder + "/" + $0 }
    for path in names + [reports + "/index.html"]
    where FileManager.default.fileExists(atPath: path) {
      let time = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/#
      files[PathName.name(of: path)] = read(path).replacing(time, with: "T")
    }
    return files
  }

  /// What a complete first run and a complete second run (same day, rows replaced) write,
  /// each run on a copy of `template`, and how long the quicker run took.
  func references(_ template: String) throws -> (files: [[String: String]], duration: Double) {
    let run = UUID().uuidString
    let db = try copy(template, to: "reference-\(run).sqlite3")
    defer { Database.removeFiles(of: db) }
    var duration = Double.infinity
    let files = try (0..<2).map { index in
      let reports = sandbox.file("reference-\(run)-\(index)")
      let start = Date()
      let result = try folio(daily(reports), db: db)
      duration = min(duration, Date().timeIntervalSince(start))
      try #require(result.code == 0, "\(result.err)")
      try #require(todaysRows(db) == "2|1\n")
      return contents(reports)
    }
    return (files, duration)
  }

  /// Every file under a final name in `reports` is complete: the day's reports and the index
  /// equal, byte for byte but for their times, what a complete run writes. Nothing else is
  /// there but folio's lock and the temporary files of killed writes.
  func expectComplete(_ reports: String, _ references: [[String: String]], _ label: String) {
    for name in listing(reports) {
      if Self.isDay(name) {
        for file in listing(reports + "/" + name)
        where !file.hasPrefix(".folio-") || !file.hasSuffix(".tmp") {
          #expect(Self.files.contains(file), "\(label): \(file) in the day's folder")
        }
      } else {
        #expect(
          name == "index.html" || name == ".folio-daily.lock"
            || (name.hasPrefix(".folio-") && name.hasSuffix(".tmp")), "\(label): \(name)")
      }
    }
    for (name, text) in contents(reports) {
      #expect(
        references.contains { $0[name] == text },
        "\(label): \(name) is not what a complete run writes")
    }
  }

  /// The rows of the last saved day: how many, and how many distinct save times among them.
  func todaysRows(_ db: String) -> String {
    DatabaseProbe.run(
      db,
      "SELECT count(*), count(DISTINCT saved_at) FROM portfolio_daily "
        + "WHERE day = (SELECT max(day) FROM portfolio_daily)"
    ).out
  }

  /// The newest day's folder in `reports`, or "" when there is none.
  func day(_ reports: String) -> String {
    listing(reports).filter(Self.isDay).last ?? ""
  }

  // MARK: - Tests

  @Test func twoRunsAtOnceNeverBothWriteNorLeaveHalfAFolder() throws {
    let db = try template(trades: 300)
    var today = Self.settledDay()
    var references = try references(db).files
    let rounds = ReliabilityScale.pick(3, full: 10, variable: "FOLIO_DAILY_ROUNDS")
    var busy = 0
    for round in 0..<rounds {
      let reports = sandbox.file("reports-\(round)")
      if Self.settledDay() != today {
        today = Self.settledDay()
        references = try self.references(db).files
      }
      let started = try (0..<3).map {
        try Binary.spawn(
          daily(reports), environment: ["FOLIO_DB": db], folder: sandbox.path,
          name: "daily-\(round)-\($0)")
      }
      let results = started.map { $0.wait() }
      let label = "round \(round)"
      // Each run either did the whole job or exited 75 having done nothing.
      for result in results {
        #expect(result.code == 0 || result.code == 75, "\(label): \(result.code) \(result.err)")
        if result.code == 75 {
          busy += 1
          #expect(result.out.isEmpty, "\(label)")
          #expect(
            result.err
              == "folio: error: another 'folio daily' is filing reports in \(reports); nothing "
              + "was done (run it again when that one has finished)\n", "\(label)")
        } else {
          #expect(
            result.out.hasPrefix("daily 20") && result.out.contains(": main "), "\(label)")
        }
      }
      #expect(results.contains { $0.code == 0 }, "\(label)")
      // The folder is whole: every file of the day, complete, and the index.
      #expect(listing(reports) == [".folio-daily.lock", day(reports), "index.html"], "\(label)")
      #expect(listing(reports + "/" + day(reports)) == Self.files, "\(label)")
      expectComplete(reports, references, label)
      #expect(todaysRows(db) == "2|1\n", "\(label)")
    }
    print("DailySafetyTests: \(rounds) rounds of 3 runs at once: \(busy) exited 75")
  }

  @Test func killedAtAnyMomentLeavesASoundDatabaseAndWholeFiles() throws {
    let template = try template(trades: 3_000)
    var today = Self.settledDay()
    var (references, duration) = try references(template)

    var endings: [String] = []
    for index in 0..<Self.kills {
      if Self.settledDay() != today {
        today = Self.settledDay()
        (references, duration) = try self.references(template)
      }
      let db = try copy(template, to: "kill-\(index).sqlite3")
      let reports = sandbox.file("reports-\(index)")
      // Every other run replaces a complete earlier run of the same day.
      let replacing = index % 2 == 1
      if replacing {
        let earlier = try folio(daily(reports), db: db)
        try #require(earlier.code == 0, "\(earlier.err)")
      }
      let before = todaysRows(db)
      // Anywhere in the run, and every third kill near its end, where the rows are saved.
      let delay =
        index % 3 == 2
        ? duration * Double.random(in: 0.7...1.05) : duration * Double.random(in: 0...1)
      let label = "kill \(index) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      let process = try Binary.spawn(
        daily(reports), environment: ["FOLIO_DB": db], folder: sandbox.path,
        name: "kill-\(index)")
      usleep(UInt32(delay * 1_000_000))
      process.kill()
      let killed = process.wait()
      #expect(killed.code == 0 || killed.code == 128 + SIGKILL, "\(label): \(killed.err)")

      let check = try folio(["db", "check"], db: db)
      #expect(check.code == 0 && check.out == "ok\n", "\(label): \(check.out) \(check.err)")
      // All of the day's rows or none: both saved by one run (the killed one or the earlier).
      let rows = todaysRows(db)
      #expect(rows == before || rows == "2|1\n", "\(label): \(rows)")
      if !replacing {
        #expect(rows == "0|0\n" || rows == "2|1\n", "\(label): \(rows)")
      }
      endings.append(replacing ? "replaced" : rows == "0|0\n" ? "none" : "all")
      expectComplete(reports, references, label)
      // The next run works without any repair and files the whole day.
      let next = try folio(daily(reports), db: db)
      #expect(next.code == 0, "\(label): \(next.err)")
      #expect(
        listing(reports + "/" + day(reports)).filter { !$0.hasPrefix(".folio-") } == Self.files,
        "\(label)")
      #expect(todaysRows(db) == "2|1\n", "\(label)")
      Database.removeFiles(of: db)
    }
    print(
      "DailySafetyTests: daily (\(Int(duration * 1000)) ms) killed \(endings.count) times: "
        + "\(endings.filter { $0 == "none" }.count) left no row of the day, "
        + "\(endings.filter { $0 == "all" }.count) left all, "
        + "\(endings.filter { $0 == "replaced" }.count) replacing an earlier run left one run's")
  }
}
