// MARK: - Matching imported rows with stored trades

extension Trade {
  /// The prefix of the ids `export trades` makes up for trades that have none (`folio-12`).
  public static let exportedIDPrefix = "folio-"

  /// What a portfolio held before an import began: its newest trade id and latest trade time.
  /// A trade stored after `lastID` was written by the import itself.
  public struct StoredExtent: Sendable, Equatable {
    public let lastID: Int64
    public let latestExecutedAt: String
  }

  /// The extent of the portfolio's stored trades, or nil when it has none.
  public static func storedExtent(portfolioID: Int64, _ db: Database) throws -> StoredExtent? {
    try db.row(
      "SELECT max(id) AS last_id, max(executed_at) AS latest FROM trades WHERE portfolio_id = ?",
      [portfolioID]
    ) { row -> StoredExtent? in
      guard let id: Int64 = try row["last_id"], let latest: String = try row["latest"] else {
        return nil
      }
      return StoredExtent(lastID: id, latestExecutedAt: latest)
    } ?? nil
  }

  /// What the portfolio holds under this trade's external id.
  public enum ExternalIDHolder: Sendable, Equatable {
    /// No trade has the id.
    case none
    /// A trade with the id has this trade's content (time, side, coin, quantity, price, fee,
    /// note).
    case sameContent
    /// A trade with the id differs from this one in some of those.
    case otherContent
  }

  /// Which trade, if any, of the portfolio holds this trade's external id (nil: `.none`).
  public func externalIDHolder(_ db: Database) throws -> ExternalIDHolder {
    guard let externalID else { return .none }
    let same = try db.scalarInt(
      """
      SELECT coin_id = ? AND executed_at = ? AND side = ? AND quantity = ? AND price = ?
        AND fee = ? AND coalesce(note, '') = coalesce(?, '')
      FROM trades WHERE portfolio_id = ? AND external_id = ?
      """,
      [coinID, executedAt, side.rawValue, quantity, price, fee, note, portfolioID, externalID])
    switch same {
    case nil: return .none
    case 0: return .otherContent
    default: return .sameContent
    }
  }

  static let sameContentSQL = """
    SELECT count(*) FROM trades
    WHERE portfolio_id = ? AND coin_id = ? AND executed_at = ? AND id <= ? AND side = ?
      AND quantity = ? AND price = ? AND fee = ? AND coalesce(note, '') = coalesce(?, '')
    """

  /// How many of the portfolio's trades with an id up to `lastID` have this trade's content:
  /// the same time, side, coin, quantity, price, fee and note (a missing note and an empty one
  /// are the same). Values are compared in their canonical stored form, so `1.50` and `1.5`,
  /// or the same instant written in two time zones, are equal.
  public func sameContentCount(upTo lastID: Int64, _ db: Database) throws -> Int {
    Int(
      try db.scalarInt(
        Self.sameContentSQL,
        [portfolioID, coinID, executedAt, lastID, side.rawValue, quantity, price, fee, note]) ?? 0)
  }

  /// The portfolio's external ids that start with `exportedIDPrefix`: the ids `export trades`
  /// must not make up again for another trade.
  public static func exportedStyleIDs(portfolioID: Int64, _ db: Database) throws -> Set<String> {
    Set(
      try db.rows(
        "SELECT external_id FROM trades WHERE portfolio_id = ? AND external_id GLOB ?",
        [portfolioID, exportedIDPrefix + "*"]
      ) { try $0["external_id"] as String })
  }
}
