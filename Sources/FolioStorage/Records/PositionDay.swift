import Foundation

/// What one position's trades moved on one UTC day: a row of `position_days`
/// (migrations/0012_position_days.sql says what each column holds).
public struct PositionDay: Equatable, Sendable {
  public let coinID: String
  /// `YYYY-MM-DD`.
  public let day: String
  /// Units brought in less units taken out.
  public var quantityChange = ExactDecimal.zero
  /// Money the cash trades paid in (≥ 0), and Σ each amount × its seconds since midnight.
  public var cashIn = ExactDecimal.zero
  public var cashInWeight = ExactDecimal.zero
  /// Money the cash trades took out (≥ 0), and its weighted sum.
  public var cashOut = ExactDecimal.zero
  public var cashOutWeight = ExactDecimal.zero
  /// True when the cash sums would pass the largest exact decimal: the four above are 0 and
  /// mean nothing.
  public var cashTooLarge = false
  /// The cost of the lots opened less the cost basis the sells took out of lots.
  public var costChange = ExactDecimal.zero
  /// The profit the sells realized.
  public var realized = ExactDecimal.zero

  public init(coinID: String, day: String) {
    (self.coinID, self.day) = (coinID, day)
  }

  /// The decimal columns of `position_days` after the key, in the order `fields` gives them.
  public static let columns = [
    "quantity_change", "cash_in", "cash_in_weight", "cash_out", "cash_out_weight", "cost_change",
    "realized",
  ]
  /// Every column after the key, in the order `folio db check` compares them.
  public static let auditColumns = columns + ["cash_too_large"]

  /// The values of `columns`.
  public var fields: [ExactDecimal] {
    [quantityChange, cashIn, cashInWeight, cashOut, cashOutWeight, costChange, realized]
  }
}

extension DerivedTables {
  /// Decodes a row of `SELECT \(dayColumns)` by column place (a report reads thousands; a
  /// lookup by name per column cost most of it).
  static func positionDay(_ row: Row) throws -> PositionDay {
    var result = PositionDay(
      coinID: try row.value(at: 0, named: "coin_id"), day: try row.value(at: 1, named: "day"))
    (result.quantityChange, result.cashIn, result.cashInWeight) = (
      try row.value(at: 2, named: "quantity_change"), try row.value(at: 3, named: "cash_in"),
      try row.value(at: 4, named: "cash_in_weight")
    )
    (result.cashOut, result.cashOutWeight, result.costChange, result.realized) = (
      try row.value(at: 5, named: "cash_out"), try row.value(at: 6, named: "cash_out_weight"),
      try row.value(at: 7, named: "cost_change"), try row.value(at: 8, named: "realized")
    )
    result.cashTooLarge = try row.value(at: 9, named: "cash_too_large") as Int64 != 0
    return result
  }

  static let dayColumns = "coin_id, day, " + PositionDay.auditColumns.joined(separator: ", ")

  /// The stored row of one position and day, if any.
  public func day(portfolioID: Int64, coinID: String, day: String) throws -> PositionDay? {
    try db.row(
      "SELECT \(Self.dayColumns) FROM position_days WHERE portfolio_id = ? AND coin_id = ? AND day = ?",
      [portfolioID, coinID, day], Self.positionDay)
  }

  /// Writes `day` of the position, replacing the stored row. Without `replacing`, a promise
  /// that no row holds that day: it is written in a batch (`BatchedInsert`).
  public func save(_ day: PositionDay, portfolioID: Int64, replacing: Bool = true) throws {
    // The columns of `dayColumns`, in order.
    if replacing {
      try replaceDay.run(
        portfolioID, day.coinID, day.day, day.quantityChange, day.cashIn, day.cashInWeight,
        day.cashOut, day.cashOutWeight, day.costChange, day.realized, day.cashTooLarge)
    } else {
      // A row per position and day of an import: appended by the record form (`add(_:_:)`).
      try insertDay.add(day) { day, row in
        row.append(portfolioID)
        row.append(day.coinID)
        row.append(day.day)
        row.append(day.quantityChange)
        row.append(day.cashIn)
        row.append(day.cashInWeight)
        row.append(day.cashOut)
        row.append(day.cashOutWeight)
        row.append(day.costChange)
        row.append(day.realized)
        row.append(Int64(day.cashTooLarge ? 1 : 0))
      }
    }
  }

  /// Deletes the position's rows of `day` and later (nil: all of them).
  public func deleteDays(portfolioID: Int64, coinID: String, from day: String?) throws {
    try db.execute(
      "DELETE FROM position_days WHERE portfolio_id = ? AND coin_id = ? AND day >= ?",
      [portfolioID, coinID, day ?? ""])
  }

  /// The portfolio's rows of every coin from `from` through `through` (nil: no bound), by day
  /// then coin.
  public func days(portfolioID: Int64, from: String? = nil, through: String? = nil) throws
    -> [PositionDay]
  {
    try db.rows(
      """
      SELECT \(Self.dayColumns) FROM position_days
      WHERE portfolio_id = ? AND day >= ? AND day <= ? ORDER BY day, coin_id
      """, [portfolioID, from ?? "", through ?? "9999-12-31"], Self.positionDay)
  }

  /// Streams the position's trades in booking order (from `start`, before `end`: nil, no bound)
  /// with the booking columns, each with what its stored derived rows hold: the cost of its lot (a buy), or the cost basis and the
  /// realized profit of its disposal (a sell); nil where there is no such row.
  public func eachTradeWithDerived(
    portfolioID: Int64, coinID: String, from start: TradeKey? = nil, before end: TradeKey? = nil,
    _ body: (Trade, _ lotCost: ExactDecimal?, _ sold: (cost: ExactDecimal, realized: ExactDecimal)?)
      throws -> Void
  ) throws {
    let columns = Trade.bookingColumns.split(separator: ",").map {
      "t." + $0.trimmingCharacters(in: .whitespaces)
    }
    try db.prepare(
      """
      SELECT \(columns.joined(separator: ", ")), l.cost AS lot_cost, d.cost_basis AS sold_cost,
        d.realized_pnl AS sold_realized
      FROM trades AS t LEFT JOIN lots AS l ON l.trade_id = t.id
      LEFT JOIN disposals AS d ON d.trade_id = t.id
      WHERE t.portfolio_id = ? AND t.coin_id = ? AND (t.executed_at, t.id) >= (?, ?)
        AND (t.executed_at, t.id) < (?, ?)
      ORDER BY t.executed_at, t.id
      """
    ).forEachRow([
      portfolioID, coinID, start?.executedAt ?? "", start?.id ?? 0,
      end?.executedAt ?? "\u{10FFFF}", end?.id ?? Int64.max,
    ]) { row in
      let (cost, soldCost, soldRealized): (ExactDecimal?, ExactDecimal?, ExactDecimal?) = (
        try row["lot_cost"], try row["sold_cost"], try row["sold_realized"]
      )
      try body(
        try Trade(row: row), cost,
        soldCost.map { ($0, soldRealized ?? .zero) })
    }
  }

  /// True when `position_days` holds a row.
  public func hasDays() throws -> Bool {
    try db.scalarInt("SELECT EXISTS (SELECT 1 FROM position_days)") == 1
  }

  /// Calls `body` with each of the position's stored rows, by day, with the day and the row,
  /// whose columns from 1 on are `PositionDay.auditColumns`.
  public func eachStoredDay(
    portfolioID: Int64, coinID: String, _ body: (String, Row) throws -> Void
  ) throws {
    try db.prepare(
      "SELECT day, \(PositionDay.auditColumns.joined(separator: ", ")) FROM position_days "
        + "WHERE portfolio_id = ? AND coin_id = ? ORDER BY day"
    ).forEachRow([portfolioID, coinID]) { row in
      try body(try row.value(at: 0, named: "day"), row)
    }
  }
}
