import FolioStorage
import Foundation

/// Writes a portfolio's trades as CSV in the import format, oldest first.
public struct TradeExporter {
  /// The header of exported files.
  public static let header = ["date", "side", "coin", "quantity", "price", "fee", "note", "id"]

  let store: Store

  public init(_ store: Store) { self.store = store }

  /// Calls `row` with the fields of each trade; the `id` column holds the trade's own id
  /// (from `--id` or an imported file) and is empty for trades without one.
  public func forEachRow(of portfolio: Portfolio, _ row: ([String]) throws -> Void) throws {
    try TradeService(store).eachTrade(in: portfolio, filter: Trade.Filter()) { trade in
      try row([
        trade.executedAt, trade.side.rawValue, trade.coinID, trade.quantity.description,
        trade.price.description, trade.fee.description, trade.note ?? "",
        trade.externalID ?? "",
      ])
    }
  }
}
