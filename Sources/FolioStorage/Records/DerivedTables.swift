/// Reads and writes the tables derived from the trade journal: lots, lot_consumptions,
/// disposals, positions and position_days (PositionDay.swift). Statements are prepared once per store and reused.
///
/// Not `Sendable`: it holds statements of one connection.
public final class DerivedTables {
  let db: Database
  private let insertLot: Statement
  private let updateLot: Statement
  private let insertConsumption: Statement
  private let insertDisposal: Statement
  let saveDay: Statement

  public init(_ db: Database) throws {
    self.db = db
    insertLot = try db.prepare(
      """
      INSERT INTO lots (trade_id, portfolio_id, coin_id, acquired_at, quantity, cost, remaining,
        remaining_cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """)
    updateLot = try db.prepare(
      "UPDATE lots SET remaining = ?, remaining_cost = ? WHERE trade_id = ?")
    insertConsumption = try db.prepare(
      "INSERT INTO lot_consumptions (sell_trade_id, lot_trade_id, quantity, cost) VALUES (?, ?, ?, ?)"
    )
    insertDisposal = try db.prepare(
      """
      INSERT INTO disposals (trade_id, portfolio_id, coin_id, disposed_at, quantity, proceeds,
        cost_basis, realized_pnl, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    saveDay = try db.prepare(
      "INSERT OR REPLACE INTO position_days (portfolio_id, \(Self.dayColumns)) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
  }

  // MARK: - Positions

  static let positionColumns =
    "portfolio_id, coin_id, quantity, cost_basis, realized_pnl, last_trade_at, last_trade_id, last_price, method"

  static func position(_ row: Row) throws -> Position {
    Position(
      portfolioID: try row["portfolio_id"], coinID: try row["coin_id"],
      quantity: try row["quantity"], costBasis: try row["cost_basis"],
      realized: try row["realized_pnl"],
      lastTrade: TradeKey(executedAt: try row["last_trade_at"], id: try row["last_trade_id"]),
      lastPrice: try row["last_price"], method: try row["method"])
  }

  /// The stored position of `coinID` in `portfolioID`, if it has trades.
  public func position(portfolioID: Int64, coinID: String) throws -> Position? {
    try db.row(
      "SELECT \(Self.positionColumns) FROM positions WHERE portfolio_id = ? AND coin_id = ?",
      [portfolioID, coinID], Self.position)
  }

  /// Every stored position of the portfolio, by coin.
  public func positions(portfolioID: Int64) throws -> [Position] {
    try db.rows(
      "SELECT \(Self.positionColumns) FROM positions WHERE portfolio_id = ? ORDER BY coin_id",
      [portfolioID], Self.position)
  }

  /// Writes `position`, replacing the stored one.
  public func save(_ position: Position) throws {
    try db.execute(
      "INSERT OR REPLACE INTO positions (\(Self.positionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        position.portfolioID, position.coinID, position.quantity, position.costBasis,
        position.realized, position.lastTrade.executedAt, position.lastTrade.id, position.lastPrice,
        position.method.rawValue,
      ])
  }

  /// Removes the position row (the coin has no trades left).
  public func deletePosition(portfolioID: Int64, coinID: String) throws {
    try db.execute(
      "DELETE FROM positions WHERE portfolio_id = ? AND coin_id = ?", [portfolioID, coinID])
  }

  // MARK: - Lots

  static func lot(_ row: Row) throws -> Lot {
    Lot(
      tradeID: try row["trade_id"], acquiredAt: try row["acquired_at"],
      quantity: try row["quantity"], cost: try row["cost"], remaining: try row["remaining"],
      remainingCost: try row["remaining_cost"])
  }

  /// The position's lots with units left, oldest first.
  public func openLots(portfolioID: Int64, coinID: String) throws -> [Lot] {
    try db.rows(
      """
      SELECT trade_id, acquired_at, quantity, cost, remaining, remaining_cost FROM lots
      WHERE portfolio_id = ? AND coin_id = ? AND remaining <> '0'
      ORDER BY acquired_at, trade_id
      """, [portfolioID, coinID], Self.lot)
  }

  /// The lot opened by the buy `tradeID`.
  public func lot(tradeID: Int64) throws -> Lot? {
    try db.row(
      "SELECT trade_id, acquired_at, quantity, cost, remaining, remaining_cost FROM lots WHERE trade_id = ?",
      [tradeID], Self.lot)
  }

  /// Lots of the position's buys at or after `key` (found through the trades index).
  public func lots(portfolioID: Int64, coinID: String, from key: TradeKey) throws -> [Lot] {
    try db.rows(
      """
      SELECT l.trade_id, l.acquired_at, l.quantity, l.cost, l.remaining, l.remaining_cost
      FROM trades t JOIN lots l ON l.trade_id = t.id
      WHERE t.portfolio_id = ? AND t.coin_id = ? AND (t.executed_at, t.id) >= (?, ?)
      """, [portfolioID, coinID, key.executedAt, key.id], Self.lot)
  }

  public func insert(_ lot: Lot, portfolioID: Int64, coinID: String) throws {
    try insertLot.run(
      lot.tradeID, portfolioID, coinID, lot.acquiredAt, lot.quantity, lot.cost, lot.remaining,
      lot.remainingCost)
  }

  public func update(_ lot: Lot) throws {
    try updateLot.run(lot.remaining, lot.remainingCost, lot.tradeID)
  }

  /// Deletes the lots of the position's buys at or after `key` (found through the trades
  /// index, so the trades must not have been changed yet).
  public func deleteLots(portfolioID: Int64, coinID: String, from key: TradeKey) throws {
    try db.execute(
      """
      DELETE FROM lots WHERE trade_id IN (
        SELECT id FROM trades
        WHERE portfolio_id = ? AND coin_id = ? AND (executed_at, id) >= (?, ?))
      """, [portfolioID, coinID, key.executedAt, key.id])
  }

  // MARK: - Sells

  public func insert(_ consumption: LotConsumption) throws {
    try insertConsumption.run(
      consumption.sellTradeID, consumption.lotTradeID, consumption.quantity, consumption.cost)
  }

  public func insert(_ disposal: Disposal, portfolioID: Int64, coinID: String) throws {
    try insertDisposal.run(
      disposal.tradeID, portfolioID, coinID, disposal.disposedAt, disposal.quantity,
      disposal.proceeds, disposal.costBasis, disposal.realized, disposal.method.rawValue)
  }

  /// The disposals of the position's sells at or after `key` (found through the trades index).
  public func disposals(portfolioID: Int64, coinID: String, from key: TradeKey) throws
    -> [Disposal]
  {
    try db.rows(
      """
      SELECT d.trade_id, d.disposed_at, d.quantity, d.proceeds, d.cost_basis, d.realized_pnl,
        d.method
      FROM trades t JOIN disposals d ON d.trade_id = t.id
      WHERE t.portfolio_id = ? AND t.coin_id = ? AND (t.executed_at, t.id) >= (?, ?)
      """, [portfolioID, coinID, key.executedAt, key.id], Self.disposal)
  }

  /// The portfolio's disposals executed in [since, before), oldest first.
  public func disposals(portfolioID: Int64, since: String, before: String) throws -> [Disposal] {
    try db.rows(
      """
      SELECT trade_id, disposed_at, quantity, proceeds, cost_basis, realized_pnl, method
      FROM disposals WHERE portfolio_id = ? AND disposed_at >= ? AND disposed_at < ?
      ORDER BY disposed_at, trade_id
      """, [portfolioID, since, before], Self.disposal)
  }

  /// The disposal of the sell `tradeID`.
  public func disposal(tradeID: Int64) throws -> Disposal? {
    try db.row(
      """
      SELECT trade_id, disposed_at, quantity, proceeds, cost_basis, realized_pnl, method
      FROM disposals WHERE trade_id = ?
      """, [tradeID], Self.disposal)
  }

  static func disposal(_ row: Row) throws -> Disposal {
    Disposal(
      tradeID: try row["trade_id"], disposedAt: try row["disposed_at"],
      quantity: try row["quantity"], proceeds: try row["proceeds"],
      costBasis: try row["cost_basis"], realized: try row["realized_pnl"],
      method: try row["method"])
  }

  /// The consumptions of the sell `tradeID`.
  public func consumptions(sellTradeID: Int64) throws -> [LotConsumption] {
    try db.rows(
      "SELECT sell_trade_id, lot_trade_id, quantity, cost FROM lot_consumptions WHERE sell_trade_id = ?",
      [sellTradeID]
    ) {
      LotConsumption(
        sellTradeID: try $0["sell_trade_id"], lotTradeID: try $0["lot_trade_id"],
        quantity: try $0["quantity"], cost: try $0["cost"])
    }
  }

  /// Deletes the disposal and lot consumptions of the sell `tradeID`.
  public func deleteSell(tradeID: Int64) throws {
    try db.execute("DELETE FROM lot_consumptions WHERE sell_trade_id = ?", [tradeID])
    try db.execute("DELETE FROM disposals WHERE trade_id = ?", [tradeID])
  }

  // MARK: - As stored, for `folio db check`

  /// The columns `storedLots` returns, in order.
  public static let lotAuditColumns = [
    "acquired_at", "quantity", "cost", "remaining", "remaining_cost",
  ]
  /// The columns `storedDisposals` returns, in order.
  public static let disposalAuditColumns = [
    "disposed_at", "quantity", "proceeds", "cost_basis", "realized_pnl", "method",
  ]
  /// The columns `storedConsumptions` returns, in order.
  public static let consumptionAuditColumns = ["quantity", "cost"]
  /// The columns `storedPosition` returns, in order.
  public static let positionAuditColumns = [
    "quantity", "cost_basis", "realized_pnl", "last_trade_at", "last_trade_id", "last_price",
    "method",
  ]

  /// Every (portfolio, coin) that has a row in any derived table, whether or not the portfolio
  /// or the trades still exist.
  public func derivedPositionKeys() throws -> [(portfolioID: Int64, coinID: String)] {
    try db.rows(
      """
      SELECT portfolio_id, coin_id FROM lots UNION SELECT portfolio_id, coin_id FROM disposals
      UNION SELECT portfolio_id, coin_id FROM positions
      UNION SELECT portfolio_id, coin_id FROM position_days
      """
    ) { (portfolioID: try $0["portfolio_id"], coinID: try $0["coin_id"]) }
  }

  /// The position's lots exactly as stored, by buy trade id (columns: `lotAuditColumns`).
  public func storedLots(portfolioID: Int64, coinID: String) throws -> [Int64: [String]] {
    try keyed("lots", Self.lotAuditColumns, portfolioID, coinID)
  }

  /// The position's disposals exactly as stored, by sell trade id
  /// (columns: `disposalAuditColumns`).
  public func storedDisposals(portfolioID: Int64, coinID: String) throws -> [Int64: [String]] {
    try keyed("disposals", Self.disposalAuditColumns, portfolioID, coinID)
  }

  /// The lot consumptions of the position's stored disposals exactly as stored, by
  /// (sell trade id, lot trade id) (columns: `consumptionAuditColumns`).
  public func storedConsumptions(portfolioID: Int64, coinID: String) throws
    -> [ConsumptionKey: [String]]
  {
    var result: [ConsumptionKey: [String]] = [:]
    try db.prepare(
      """
      SELECT c.sell_trade_id, c.lot_trade_id, c.quantity, c.cost FROM lot_consumptions AS c
      JOIN disposals AS d ON d.trade_id = c.sell_trade_id
      WHERE d.portfolio_id = ? AND d.coin_id = ?
      """
    ).forEachRow([portfolioID, coinID]) { row in
      let key = ConsumptionKey(
        sellTradeID: try row["sell_trade_id"], lotTradeID: try row["lot_trade_id"])
      result[key] = try Self.consumptionAuditColumns.map(row.storedText)
    }
    return result
  }

  /// The position row exactly as stored (columns: `positionAuditColumns`), if any.
  public func storedPosition(portfolioID: Int64, coinID: String) throws -> [String]? {
    try db.row(
      "SELECT \(Self.positionAuditColumns.joined(separator: ", ")) FROM positions "
        + "WHERE portfolio_id = ? AND coin_id = ?", [portfolioID, coinID]
    ) { try Self.positionAuditColumns.map($0.storedText) }
  }

  /// Lot consumptions whose sell has no disposal row: nothing else accounts for them.
  public func orphanConsumptionCount() throws -> Int {
    Int(
      try db.scalarInt(
        """
        SELECT count(*) FROM lot_consumptions AS c
        WHERE NOT EXISTS (SELECT 1 FROM disposals AS d WHERE d.trade_id = c.sell_trade_id)
        """) ?? 0)
  }

  /// The position's rows of `table` by trade id, with `columns` exactly as stored.
  private func keyed(_ table: String, _ columns: [String], _ portfolioID: Int64, _ coinID: String)
    throws -> [Int64: [String]]
  {
    var result: [Int64: [String]] = [:]
    try db.prepare(
      "SELECT trade_id, \(columns.joined(separator: ", ")) FROM \(table) "
        + "WHERE portfolio_id = ? AND coin_id = ?"
    ).forEachRow([portfolioID, coinID]) { row in
      result[try row["trade_id"]] = try columns.map(row.storedText)
    }
    return result
  }

  /// How many rows each derived table holds: lots, lot_consumptions, disposals, positions.
  public func rowCounts(portfolioID: Int64? = nil) throws -> DerivedRowCounts {
    let filter = portfolioID == nil ? "" : " WHERE portfolio_id = ?"
    let values: [any SQLBindable] = portfolioID.map { [$0] } ?? []
    func count(_ sql: String) throws -> Int { Int(try db.scalarInt(sql, values) ?? 0) }
    return DerivedRowCounts(
      lots: try count("SELECT count(*) FROM lots" + filter),
      consumptions: try count(
        "SELECT count(*) FROM lot_consumptions AS c"
          + (portfolioID == nil
            ? ""
            : " JOIN disposals AS d ON d.trade_id = c.sell_trade_id WHERE d.portfolio_id = ?")),
      disposals: try count("SELECT count(*) FROM disposals" + filter),
      positions: try count("SELECT count(*) FROM positions" + filter))
  }

  /// Removes every row of every derived table, of every portfolio (before a full rebuild).
  public func deleteEverything() throws {
    for table in ["lot_consumptions", "disposals", "lots", "positions", "position_days"] {
      try db.execute("DELETE FROM \(table)")
    }
  }

  /// Removes every derived row of the portfolio (before a full rebuild).
  public func deleteAll(portfolioID: Int64) throws {
    try db.execute(
      "DELETE FROM lot_consumptions WHERE sell_trade_id IN (SELECT trade_id FROM disposals WHERE portfolio_id = ?)",
      [portfolioID])
    for table in ["disposals", "lots", "positions", "position_days"] {
      try db.execute("DELETE FROM \(table) WHERE portfolio_id = ?", [portfolioID])
    }
  }
}

/// Identifies one lot consumption: a sell and the lot it took units from.
public struct ConsumptionKey: Hashable, Comparable, Sendable {
  public let sellTradeID: Int64
  public let lotTradeID: Int64

  public static func < (lhs: ConsumptionKey, rhs: ConsumptionKey) -> Bool {
    (lhs.sellTradeID, lhs.lotTradeID) < (rhs.sellTradeID, rhs.lotTradeID)
  }
}

/// Row counts of the derived tables.
public struct DerivedRowCounts: Equatable, Sendable {
  public let lots: Int
  public let consumptions: Int
  public let disposals: Int
  public let positions: Int

  public init(lots: Int, consumptions: Int, disposals: Int, positions: Int) {
    (self.lots, self.consumptions, self.disposals, self.positions) = (
      lots, consumptions, disposals, positions
    )
  }

  /// All rows together.
  public var total: Int { lots + consumptions + disposals + positions }
}
