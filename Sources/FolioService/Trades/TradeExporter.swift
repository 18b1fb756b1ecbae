import FolioStorage
import Foundation

/// Writes a portfolio's trades as CSV in the import format, oldest first.
public struct TradeExporter {
  /// The header of exported files.
  public static let header = [
    "date", "side", "coin", "quantity", "price", "fee", "note", "id", "location",
  ]

  /// The columns added after `header` when the portfolio has rows of other kinds than buys
  /// and sells for cash (docs/trades.md): a file without them imports as buys and sells.
  public static let kindHeader = ["kind", "income_type", "amount", "acquired", "link"]

  let store: Store

  public init(_ store: Store) { self.store = store }

  /// Calls `row` with the fields of each trade, in one read snapshot. Every row has an `id`:
  /// the trade's own (from `--id` or an imported file), or for a trade without one `folio-N`
  /// made from its row id N (`folio-N-2`, `-3`, … when the portfolio already holds that id),
  /// so importing the file again adds nothing and a copy keeps the same ids. The `location`
  /// column holds the location's `"NAME, CITY"` (its id when that text would name two
  /// locations), empty for trades without one, so an import of the file restores it.
  public func forEachRow(of portfolio: Portfolio, _ row: ([String]) throws -> Void) throws {
    try forEachRow(of: portfolio, header: { _ in }, row)
  }

  /// `forEachRow`, after calling `header` with the file's header (`header`, followed by
  /// `kindHeader` when the portfolio has rows of other kinds), in the same read snapshot.
  public func forEachRow(
    of portfolio: Portfolio, header: ([String]) throws -> Void, _ row: ([String]) throws -> Void
  ) throws {
    let book = LocationBook(store)
    let db = store.database
    try db.read {
      let references = try book.references()
      let taken = try Trade.exportedStyleIDs(portfolioID: portfolio.id, db)
      var portable: [Int64: String] = [:]
      let kinds = try Trade.hasOtherKinds(portfolioID: portfolio.id, db)
      try header(kinds ? Self.header + Self.kindHeader : Self.header)
      // The exported id of each row a link names, and the ids taken in other portfolios.
      var linkIDs: [Int64: String] = [:]
      var takenElsewhere: [Int64: Set<String>] = [portfolio.id: taken]
      func exportedID(_ id: Int64) throws -> String {
        if let known = linkIDs[id] { return known }
        guard let row = try Trade.find(id: id, db) else { return "" }
        if takenElsewhere[row.portfolioID] == nil {
          takenElsewhere[row.portfolioID] = try Trade.exportedStyleIDs(
            portfolioID: row.portfolioID, db)
        }
        let text =
          row.externalID
          ?? Self.madeUpID(for: row.id, avoiding: takenElsewhere[row.portfolioID] ?? [])
        linkIDs[id] = text
        return text
      }
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
        var fields = [
          trade.executedAt, trade.side.rawValue, trade.coinID, trade.quantity.description,
          trade.price.description, trade.fee.description, trade.note ?? "",
          trade.externalID ?? Self.madeUpID(for: trade.id, avoiding: taken), location,
        ]
        if kinds {
          fields += [
            trade.kind.rawValue, trade.incomeType?.rawValue ?? "",
            trade.amount?.description ?? "", trade.acquiredAt ?? "",
            try trade.linkID.map(exportedID) ?? "",
          ]
        }
        try row(fields)
      }
    }
  }

  /// `folio-N`, or `folio-N-K` with the smallest K ≥ 2 that is not in `taken`.
  static func madeUpID(for id: Int64, avoiding taken: Set<String>) -> String {
    let base = Trade.exportedIDPrefix + String(id)
    guard taken.contains(base) else { return base }
    var suffix = 2
    while taken.contains(base + "-" + String(suffix)) { suffix += 1 }
    return base + "-" + String(suffix)
  }
}
