import FolioStorage
import FolioTestSupport
import Foundation

@testable import FolioService

/// A fresh database in a temporary folder for one service test.
final class ServiceSandbox {
  let temporary = TemporaryFolder("folio-service")
  var folder: String { temporary.path }
  let store: Store
  /// 2024-01-25T12:00:00Z: a day and a half after the fixtures' data.
  let now = Date(timeIntervalSince1970: 1_706_184_000)

  init() throws {
    store = try Store(StoreLocation(path: temporary.file("folio.sqlite3")))
  }

  var market: MarketData { MarketData(store) }

  /// Writes `text` to a file in the sandbox and returns its path.
  func write(_ name: String, _ text: String) -> String {
    let path = folder + "/" + name
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  /// Imports fixture files at their own times.
  @discardableResult
  func importFixtures(_ names: String..., vs: String = "usd", at: Date? = nil) throws
    -> [ImportOutcome]
  {
    try market.importFiles(names.map(Fixtures.path), vsCurrency: vs, at: at, now: now)
  }

  /// Records a buy of `quantity` of `coin` at 1 in `portfolio`, so the coin is held; "0"
  /// records a buy and a sell of one unit, a position that is no longer held.
  func hold(_ coin: String, _ quantity: String, portfolio: String = "main") throws {
    let target = try PortfolioService(store).resolve(portfolio)
    let closed = quantity == "0"
    try TradeService(store).record(
      TradeDraft(
        side: .buy, coin: coin, quantity: closed ? "1" : quantity, price: "1", date: "2024-01-01"),
      in: target, coinID: coin, now: now)
    if closed {
      try TradeService(store).record(
        TradeDraft(side: .sell, coin: coin, quantity: "1", price: "1", date: "2024-01-02"),
        in: target, coinID: coin, now: now)
    }
  }

  func count(_ table: String) throws -> Int {
    Int(try store.database.scalarInt("SELECT count(*) FROM \(table)") ?? -1)
  }

  /// Every row of every market table, to prove a refused operation changed nothing.
  func marketDump() throws -> String {
    var text = ""
    for table in [
      "coins", "market_snapshots", "market_quotes", "global_snapshots", "global_totals",
      "global_market_cap_percentages", "coin_details",
    ] {
      let rows = try store.database.rows("SELECT * FROM \(table) ORDER BY 1, 2") { row in
        (0..<row.count).map { "\(row[$0])" }.joined(separator: "|")
      }
      text += table + "\n" + rows.joined(separator: "\n") + "\n"
    }
    return text
  }
}

/// A store on a fresh temporary file, removed afterwards.
final class TestStore {
  let temporary = TemporaryFolder("folio-service")
  var folder: String { temporary.path }
  let store: Store

  init() throws {
    store = try Store(StoreLocation(path: temporary.file("folio.sqlite3")))
  }

  var db: Database { store.database }

  func main() throws -> Portfolio { try PortfolioService(store).resolve(nil) }

  /// Records a trade in `portfolio` (default: main) and returns it.
  @discardableResult
  func trade(
    _ side: TradeSide, _ coin: String, _ quantity: String, at price: String, fee: String? = nil,
    on date: String, in portfolio: Portfolio? = nil
  ) throws -> Trade {
    try TradeService(store).record(
      TradeDraft(side: side, coin: coin, quantity: quantity, price: price, fee: fee, date: date),
      in: portfolio ?? main(), coinID: coin, now: Date(timeIntervalSince1970: 1_732_968_000))
  }

  /// The stored position of `coin` in main.
  func position(_ coin: String) throws -> Position? {
    try DerivedTables(db).position(portfolioID: main().id, coinID: coin)
  }

  /// Every row of every derived table, to compare incremental results with a full rebuild.
  func derivedSnapshot() throws -> [String] {
    var rows: [String] = []
    for (table, order) in [
      ("lots", "trade_id"), ("lot_consumptions", "sell_trade_id, lot_trade_id"),
      ("disposals", "trade_id"), ("positions", "portfolio_id, coin_id"),
      ("position_days", "portfolio_id, coin_id, day"),
    ] {
      let statement = try db.prepare("SELECT * FROM \(table) ORDER BY \(order)")
      try statement.forEachRow { row in
        rows.append(
          table + ":" + (0..<row.count).map { "\(row[$0])" }.joined(separator: "|"))
      }
    }
    return rows
  }
}

func dec(_ text: String) -> ExactDecimal {
  (try? ExactDecimal(parsing: text)) ?? .zero
}
