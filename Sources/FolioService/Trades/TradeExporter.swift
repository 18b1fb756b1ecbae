import FolioStorage
import Foundation

/// Writes the trades of a portfolio, or of several, as CSV in the import format, oldest first.
public struct TradeExporter {
  /// The header of exported files.
  public static let header = [
    "date", "side", "coin", "quantity", "price", "fee", "note", "id", "location",
  ]

  /// The columns added after `header` when the portfolio has rows of other kinds than buys
  /// and sells for cash (docs/trades.md): a file without them imports as buys and sells.
  public static let kindHeader = ["kind", "income_type", "amount", "acquired", "link"]

  /// The column added last when the file holds several portfolios: each row's portfolio, by
  /// name, as `import trades` reads it.
  public static let portfolioHeader = "portfolio"

  let store: Store

  public init(_ store: Store) { self.store = store }

  /// Calls `row` with the fields of each trade, in one read snapshot. Every row has an `id`:
  /// the trade's own (from `--id` or an imported file), or for a trade without one `folio-N`
  /// made from its row id N (`folio-N-2`, `-3`, … when the portfolio already holds that id),
  /// so importing the file again adds nothing and a copy keeps the same ids. The `location`
  /// column holds the location's `"NAME, CITY"` (its id when that text would name two
  /// locations), empty for trades without one, so an import of the file restores it.
  public func forEachRow(of portfolio: Portfolio, _ row: ([String]) throws -> Void) throws {
    try forEachRow(of: [portfolio], header: { _ in }, row)
  }

  /// `forEachRow`, after calling `header` with the file's header (`header`, followed by
  /// `kindHeader` when a portfolio has rows of other kinds), in the same read snapshot. With
  /// several portfolios, their trades come in one time order (ties by id: the row giving
  /// units up before the rows it gives them to), each with its portfolio's name in a last
  /// column, `portfolioHeader`: importing the file into a database that holds portfolios of
  /// those names restores every trade, transfers between them in either direction included.
  public func forEachRow(
    of portfolios: [Portfolio], header: ([String]) throws -> Void,
    _ row: ([String]) throws -> Void
  ) throws {
    let book = LocationBook(store)
    let db = store.database
    let names = Dictionary(portfolios.map { ($0.id, $0.name) }) { first, _ in first }
    let naming = names.count > 1
    try db.read {
      let references = try book.references()
      var portable: [Int64: String] = [:]
      let kinds = try portfolios.contains { try Trade.hasOtherKinds(portfolioID: $0.id, db) }
      try header(
        (kinds ? Self.header + Self.kindHeader : Self.header)
          + (naming ? [Self.portfolioHeader] : []))
      // The exported id of each row a link names, and the ids each portfolio holds.
      var linkIDs: [Int64: String] = [:]
      var taken: [Int64: Set<String>] = [:]
      func takenIDs(_ portfolioID: Int64) throws -> Set<String> {
        if let known = taken[portfolioID] { return known }
        let ids = try Trade.exportedStyleIDs(portfolioID: portfolioID, db)
        taken[portfolioID] = ids
        return ids
      }
      func exportedID(_ id: Int64) throws -> String {
        if let known = linkIDs[id] { return known }
        guard let row = try Trade.find(id: id, db) else { return "" }
        let text =
          try row.externalID ?? Self.madeUpID(for: row.id, avoiding: takenIDs(row.portfolioID))
        linkIDs[id] = text
        return text
      }
      try Trade.each(portfolioIDs: names.keys.sorted(), filter: Trade.Filter(), db) { trade in
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
          try trade.externalID
            ?? Self.madeUpID(for: trade.id, avoiding: takenIDs(trade.portfolioID)),
          location,
        ]
        if kinds {
          fields += [
            trade.kind.rawValue, trade.incomeType?.rawValue ?? "",
            trade.amount?.description ?? "", trade.acquiredAt ?? "",
            try trade.linkID.map(exportedID) ?? "",
          ]
        }
        if naming { fields.append(names[trade.portfolioID] ?? "") }
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
