import FolioStorage
import Foundation

@testable import FolioService

/// A store on a fresh temporary file, removed afterwards.
final class TestStore {
  let folder: String
  let store: Store

  init() throws {
    folder = NSTemporaryDirectory() + "folio-service-" + UUID().uuidString
    store = try Store(StoreLocation(path: folder + "/folio.sqlite3"))
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

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
      in: portfolio ?? main(), coinID: coin, now: Date(timeIntervalSince1970: 1_700_000_000))
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
