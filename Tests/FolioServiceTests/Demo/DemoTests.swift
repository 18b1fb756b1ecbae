import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// The demo database, built once per test run (building it is the demo's whole cost).
enum DemoTemplate {
  /// 2024-11-30T15:20:00Z.
  static let now = Date(timeIntervalSince1970: 1_732_980_000)

  static let built: (path: String, outcome: DemoOutcome?, seconds: TimeInterval) = {
    let path = TemporaryFolder.forTheRun("folio-demo-template").file("demo.sqlite3")
    let started = Date()
    let outcome = try? DemoBuilder(Store(StoreLocation(path: path))).build(now: now)
    return (path, outcome, Date().timeIntervalSince(started))
  }()

  static var folder: String { (built.path as NSString).deletingLastPathComponent }

  /// The template opened read-only.
  static func open() throws -> Store {
    try Store(readOnly: StoreLocation(path: built.path))
  }
}

@Suite struct DemoTests {
  func dump(_ store: Store, _ sql: String) throws -> [String] {
    try store.database.rows(sql) { row in
      (0..<row.count).map { "\(row[$0])" }.joined(separator: "|")
    }
  }

  @Test func buildsTwoPortfoliosFiveLocationsDailySnapshotsAndHistory() throws {
    let outcome = try #require(DemoTemplate.built.outcome)
    #expect(outcome.portfolios.map(\.name) == ["main", "savings"])
    #expect(outcome.portfolios.allSatisfy { $0.trades >= 10 })
    #expect(outcome.locations == 5)
    #expect(outcome.marketSnapshots == DemoBuilder.days + 1)
    #expect(outcome.historyRows == 2 * (DemoBuilder.days + 1))
    #expect(outcome.historyDays == [DemoBuilder.days + 1, DemoBuilder.days + 1])
    #expect(outcome.firstDay == "2024-09-01")
    let store = try DemoTemplate.open()
    let db = store.database
    #expect(
      try db.scalarInt("SELECT count(*) FROM market_snapshots") == Int64(DemoBuilder.days + 1))
    #expect(
      try db.scalarInt("SELECT count(*) FROM global_snapshots") == Int64(DemoBuilder.days + 1))
    #expect(try db.scalarInt("SELECT count(DISTINCT coin_id) FROM market_quotes") == 20)
    #expect(try db.scalarInt("SELECT count(*) FROM coin_details") == 2)
    #expect(try db.scalarInt("SELECT count(*) FROM trades WHERE side = 'sell'") ?? 0 >= 4)
    #expect(try db.scalarInt("SELECT count(*) FROM trades WHERE location_id IS NOT NULL") ?? 0 >= 4)
    #expect(try db.scalarInt("SELECT count(*) FROM trades WHERE fee <> '0'") ?? 0 >= 10)
    // The back-dated trade was recorded last but executed long before the latest trades.
    #expect(
      try db.scalarText("SELECT executed_at FROM trades ORDER BY id DESC LIMIT 1")
        == "2024-09-16T13:45:00Z")
    // Today's snapshot is the fixture's page, taken now.
    #expect(
      try db.scalarText(
        "SELECT q.current_price FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id "
          + "WHERE q.coin_id = 'bitcoin' ORDER BY s.fetched_at DESC LIMIT 1") == "39935.3")
    #expect(
      try db.scalarText("SELECT max(fetched_at) FROM market_snapshots") == "2024-11-30T15:20:00Z")
    #expect(DemoTemplate.built.seconds < 5, "the demo took \(DemoTemplate.built.seconds) s")
  }

  @Test func itsLedgerEqualsAFullRebuild() throws {
    let scratch = try TestStore()  // a temporary folder, removed afterwards
    let path = scratch.folder + "/copy.sqlite3"
    try FileManager.default.copyItem(atPath: DemoTemplate.built.path, toPath: path)
    let store = try Store(StoreLocation(path: path))
    let db = store.database
    let before =
      try dump(store, "SELECT * FROM lots ORDER BY trade_id")
      + dump(store, "SELECT * FROM disposals ORDER BY trade_id")
      + dump(store, "SELECT * FROM positions ORDER BY portfolio_id, coin_id")
    try db.write {
      for portfolio in try Portfolio.all(db) { try Ledger(db).rebuild(portfolio: portfolio) }
    }
    let after =
      try dump(store, "SELECT * FROM lots ORDER BY trade_id")
      + dump(store, "SELECT * FROM disposals ORDER BY trade_id")
      + dump(store, "SELECT * FROM positions ORDER BY portfolio_id, coin_id")
    #expect(after == before)
  }

  @Test func theSameClockGivesTheSameMarketHistory() throws {
    // Two generators built separately (the database's other rows come from fixed tables).
    guard case .markets(let page) = try DemoBuilder.document("coingecko/markets_usd.json"),
      case .global(let global) = try DemoBuilder.document("coingecko/global_usd.json")
    else {
      Issue.record("the embedded fixtures are not a markets page and a /global response")
      return
    }
    func market() throws -> DemoMarket {
      try DemoMarket(
        base: page.quotes, global: global, days: DemoBuilder.days, now: DemoTemplate.now,
        sparklineCoins: ["bitcoin", "solana"])
    }
    let first = try market()
    let second = try market()
    for k in [0, 1, 30, DemoBuilder.days] {
      #expect(try first.quotes(daysBack: k) == second.quotes(daysBack: k))
      #expect(try first.global(daysBack: k) == second.global(daysBack: k))
    }
    // And the database built once matches what the generator gives.
    let store = try DemoTemplate.open()
    let stored = try MarketData(store).history(of: "solana").points.map(\.price)
    let generated = (0...DemoBuilder.days).reversed().compactMap {
      first.price("solana", daysBack: $0)
    }
    #expect(stored == generated)
  }

  @Test func theMadeUpHistoryIsConsistent() throws {
    let market = MarketData(try DemoTemplate.open())
    let history = try market.history(of: "bitcoin")
    #expect(history.points.count == DemoBuilder.days + 1)
    // Each day's 24h change matches the previous day's price (today's is the fixture's).
    for (before, after) in zip(history.points.dropLast(), history.points.dropFirst().dropLast()) {
      let change = try #require(after.change24hPercent)
      let expected = try ExactDecimal.scaled(
        after.price - before.price, by: .hundred, dividedBy: before.price
      ).rounded(places: 5)
      #expect(change == expected)
    }
    // Recent snapshots carry 168 hourly prices ending at the price.
    let latest = try #require(history.points.last)
    #expect(latest.sparkline.count == 168)
    #expect(latest.sparkline.last == latest.price)
    #expect(history.points[history.points.count - 2].sparkline.count == 168)
  }

  @Test func refusesADatabaseThatHoldsData() throws {
    let sandbox = try TestStore()
    try sandbox.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    let before = try sandbox.derivedSnapshot()
    #expect(throws: DemoError.notEmpty("trades")) {
      _ = try DemoBuilder(sandbox.store).build(now: DemoTemplate.now)
    }
    #expect(try sandbox.db.scalarInt("SELECT count(*) FROM locations") == 0)
    #expect(try sandbox.derivedSnapshot() == before)
  }
}
