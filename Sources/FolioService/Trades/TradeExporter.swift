import FolioStorage
import Foundation

/// Writes a portfolio's trades as CSV in the import format, oldest first.
public struct TradeExporter {
  /// The header of exported files.
  public static let header = [
    "date", "side", "coin", "quantity", "price", "fee", "note", "id", "location",
  ]

  let store: Store

  public init(_ store: Store) { self.store = store }

  /// Calls `row` with the fields of each trade; the `id` column holds the trade's own id
  /// (from `--id` or an imported file) and is empty for trades without one; the `location`
  /// column holds the location's `"NAME, CITY"` (its id when that text would name two
  /// locations), empty for trades without one, so an import of the file restores it.
  public func forEachRow(of portfolio: Portfolio, _ row: ([String]) throws -> Void) throws {
    let book = LocationBook(store)
    try store.database.read {
      let references = try book.references()
      var portable: [Int64: String] = [:]
      try TradeService(store).eachTrade(in: portfolio, filter: Trade.Filter()) { trade in
        var location = ""
        if let id = trade.locationID {
          if let known = portable[id] {
            location = known
          } else {
            location = try book.portableReference(id, references: references)
            portable[id] = location
          }
        }
        try row([
          trade.executedAt, trade.side.rawValue, trade.coinID, trade.quantity.description,
          trade.price.description, trade.fee.description, trade.note ?? "",
          trade.externalID ?? "", location,
        ])
      }
    }
  }
}
