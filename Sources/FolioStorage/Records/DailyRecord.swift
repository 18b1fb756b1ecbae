/// One saved day of a portfolio (a row of `portfolio_daily`): its figures as of the end of
/// that day, written by `folio report --save` or `folio report backfill`.
public struct DailyRecord: Equatable, Sendable {
  public let portfolioID: Int64
  /// The day reported on, `YYYY-MM-DD` (UTC).
  public let day: String
  /// The value of the priced holdings; nil when no held coin had a price.
  public let value: ExactDecimal?
  public let costBasis: ExactDecimal?
  /// Value minus the cost basis of the priced holdings; nil when nothing was priced.
  public let unrealized: ExactDecimal?
  /// Realized profit of every sell up to the end of the day.
  public let realized: ExactDecimal?
  /// The time of the market snapshot the prices came from; nil when none was used.
  public let snapshotAt: String?
  public let savedAt: String

  public init(
    portfolioID: Int64, day: String, value: ExactDecimal?, costBasis: ExactDecimal?,
    unrealized: ExactDecimal?, realized: ExactDecimal?, snapshotAt: String?, savedAt: String
  ) {
    (
      self.portfolioID, self.day, self.value, self.costBasis, self.unrealized, self.realized,
      self.snapshotAt, self.savedAt
    ) = (portfolioID, day, value, costBasis, unrealized, realized, snapshotAt, savedAt)
  }

  static let columns =
    "portfolio_id, day, value, cost_basis, unrealized_pnl, realized_pnl, snapshot_at, saved_at"

  init(row: Row) throws {
    (portfolioID, day, value, costBasis, unrealized, realized, snapshotAt, savedAt) = (
      try row["portfolio_id"], try row["day"], try row["value"], try row["cost_basis"],
      try row["unrealized_pnl"], try row["realized_pnl"], try row["snapshot_at"],
      try row["saved_at"]
    )
  }

  /// Writes the row, replacing the one saved earlier for the same portfolio and day
  /// (an upsert, so saving a day twice leaves one row), as not stale.
  public func save(_ db: Database) throws {
    try db.execute(
      """
      INSERT INTO portfolio_daily (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (portfolio_id, day) DO UPDATE SET value = excluded.value,
        cost_basis = excluded.cost_basis, unrealized_pnl = excluded.unrealized_pnl,
        realized_pnl = excluded.realized_pnl, snapshot_at = excluded.snapshot_at,
        saved_at = excluded.saved_at, stale = 0
      """,
      [portfolioID, day, value, costBasis, unrealized, realized, snapshotAt, savedAt])
  }

  /// The stale days of every portfolio, oldest first, by portfolio id: days a trade dated on or
  /// before them, or the portfolio's method, changed since they were saved (column `stale`,
  /// set by triggers; folio recomputes such days before its own change commits).
  public static func staleDays(_ db: Database) throws -> [(portfolioID: Int64, days: [String])] {
    var result: [(portfolioID: Int64, days: [String])] = []
    try db.prepare(
      "SELECT portfolio_id, day FROM portfolio_daily WHERE stale = 1 ORDER BY portfolio_id, day"
    ).forEachRow { row in
      let (portfolioID, day): (Int64, String) = (try row["portfolio_id"], try row["day"])
      if result.last?.portfolioID == portfolioID {
        result[result.count - 1].days.append(day)
      } else {
        result.append((portfolioID, [day]))
      }
    }
    return result
  }

  /// Marks every saved day stale, for the store to recompute before the commit: after the
  /// derived tables were rebuilt, the saved days may rest on what they held before.
  public static func markAllStale(_ db: Database) throws {
    try db.execute("UPDATE portfolio_daily SET stale = 1 WHERE stale = 0")
  }

  /// The `snapshot_at` of each stale day of the portfolio that has one, by day.
  public static func staleSnapshots(portfolioID: Int64, _ db: Database) throws -> [String: String] {
    var result: [String: String] = [:]
    try db.prepare(
      """
      SELECT day, snapshot_at FROM portfolio_daily
      WHERE portfolio_id = ? AND stale = 1 AND snapshot_at IS NOT NULL
      """
    ).forEachRow([portfolioID]) { row in
      result[try row["day"]] = try row["snapshot_at"] as String
    }
    return result
  }

  /// The saved days of the portfolio from `from` through `through` (inclusive `YYYY-MM-DD`
  /// bounds; nil is open), oldest first; stale days are not among them (`staleDays`).
  public static func list(portfolioID: Int64, from: String?, through: String?, _ db: Database)
    throws -> [DailyRecord]
  {
    try db.rows(
      """
      SELECT \(columns) FROM portfolio_daily
      WHERE portfolio_id = ?1 AND (?2 IS NULL OR day >= ?2) AND (?3 IS NULL OR day <= ?3)
        AND stale = 0
      ORDER BY day
      """, [portfolioID, from, through], DailyRecord.init(row:))
  }
}
