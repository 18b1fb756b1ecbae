/// Reads and writes the tables derived from the trade journal: lots, lot_consumptions,
/// disposals, positions and position_days (PositionDay.swift). Statements are prepared once per store and reused.
///
/// Not `Sendable`: it holds statements of one connection.
public final class DerivedTables {
  let db: Database
  // Rows added while booking: batched (`BatchedInsert`). A conflict, which folio's own rows
  // never meet, ends the transaction (OR ROLLBACK), so a batch keeps no statement journal.
  private let insertLot: BatchedInsert
  private let updateLot: Statement
  private let insertConsumption: BatchedInsert
  private let insertDisposal: BatchedInsert
  /// A day no row holds yet (`save(_:portfolioID:replacing:)`).
  let insertDay: BatchedInsert
  /// A day that may have a row. Not batched: a batch of INSERT OR REPLACE keeps a statement
  /// journal (its NOT NULL columns may abort it half-way), a temporary file as large as its
  /// rows.
  let replaceDay: Statement

  public init(_ db: Database) throws {
    self.db = db
    insertLot = try db.prepareBatch(
      """
      INSERT OR ROLLBACK INTO lots (trade_id, portfolio_id, coin_id, acquired_at, quantity, cost,
        remaining, remaining_cost)
      """, columns: 8)
    updateLot = try db.prepare(
      "UPDATE lots SET remaining = ?, remaining_cost = ? WHERE trade_id = ?")
    insertConsumption = try db.prepareBatch(
      "INSERT OR ROLLBACK INTO lot_consumptions (sell_trade_id, lot_trade_id, quantity, cost)",
      columns: 4)
    insertDisposal = try db.prepareBatch(
      """
      INSERT OR ROLLBACK INTO disposals (trade_id, portfolio_id, coin_id, disposed_at, quantity,
        proceeds, cost_basis, realized_pnl, method)
      """, columns: 9)
    insertDay = try db.prepareBatch(
      "INSERT OR ROLLBACK INTO position_days (portfolio_id, \(Self.dayColumns))", columns: 11)
    replaceDay = try db.prepare(
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
    try insertLot.add(lot) { lot, row in
      row.append(lot.tradeID)
      row.append(portfolioID)
      row.append(coinID)
      row.append(lot.acquiredAt)
      row.append(lot.quantity)
      row.append(lot.cost)
      row.append(lot.remaining)
      row.append(lot.remainingCost)
    }
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
    try insertConsumption.add(consumption) { consumption, row in
      row.append(consumption.sellTradeID)
      row.append(consumption.lotTradeID)
      row.append(consumption.quantity)
      row.append(consumption.cost)
    }
  }

  public func insert(_ disposal: Disposal, portfolioID: Int64, coinID: String) throws {
    try insertDisposal.add(disposal) { disposal, row in
      row.append(disposal.tradeID)
      row.append(portfolioID)
      row.append(coinID)
      row.append(disposal.disposedAt)
      row.append(disposal.quantity)
      row.append(disposal.proceeds)
      row.append(disposal.costBasis)
      row.append(disposal.realized)
      row.append(disposal.method.rawValue)
    }
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

  /// Every (portfolio, coin) with a row in positions or position_days, whether or not the
  /// portfolio or the trades still exist. (A lot or disposal belongs to its trade's position;
  /// one whose trade is gone is in `rowsWithoutTrade`.)
  public func derivedPositionKeys() throws -> [(portfolioID: Int64, coinID: String)] {
    try db.rows(
      """
      SELECT portfolio_id, coin_id FROM positions
      UNION SELECT DISTINCT portfolio_id, coin_id FROM position_days
      """
    ) { (portfolioID: try $0["portfolio_id"], coinID: try $0["coin_id"]) }
  }

  /// Calls `body` with each stored lot of one of the position's trades, in the trades' order,
  /// and its columns from 2 on: portfolio_id, coin_id, acquired_at, quantity, cost, remaining,
  /// remaining_cost. Each lot is found by its trade (trades_by_position, then its key), so a
  /// check of every position reads each row once, however many positions there are.
  public func eachStoredLot(
    portfolioID: Int64, coinID: String, _ body: (AuditKey, Row) throws -> Void
  ) throws {
    try eachStored(
      "lots AS s ON s.trade_id = t.id",
      "s.portfolio_id, s.coin_id, s.acquired_at, s.quantity, s.cost, s.remaining, s.remaining_cost",
      portfolioID, coinID, body)
  }

  /// Calls `body` with each stored disposal of one of the position's trades, in the trades'
  /// order, and its columns from 2 on: portfolio_id, coin_id, disposed_at, quantity, proceeds,
  /// cost_basis, realized_pnl, method.
  public func eachStoredDisposal(
    portfolioID: Int64, coinID: String, _ body: (AuditKey, Row) throws -> Void
  ) throws {
    try eachStored(
      "disposals AS s ON s.trade_id = t.id",
      "s.portfolio_id, s.coin_id, s.disposed_at, s.quantity, s.proceeds, s.cost_basis, "
        + "s.realized_pnl, s.method", portfolioID, coinID, body)
  }

  /// Calls `body` with each stored lot consumption of one of the position's sells that has a
  /// disposal (the others are `orphanConsumptionCount`), in the trades' order, then by lot, and
  /// its columns from 3 on: quantity, cost.
  public func eachStoredConsumption(
    portfolioID: Int64, coinID: String, _ body: (AuditKey, Row) throws -> Void
  ) throws {
    try eachStored(
      "disposals AS d ON d.trade_id = t.id JOIN lot_consumptions AS s ON s.sell_trade_id = t.id",
      "s.lot_trade_id, s.quantity, s.cost", lot: true, portfolioID, coinID, body)
  }

  /// `SELECT t.executed_at, t.id, columns FROM trades AS t JOIN join` for the position's trades,
  /// in their order (then by lot, when column 2 is a lot's trade id).
  private func eachStored(
    _ join: String, _ columns: String, lot: Bool = false, _ portfolioID: Int64,
    _ coinID: String, _ body: (AuditKey, Row) throws -> Void
  ) throws {
    let order = "t.executed_at, t.id" + (lot ? ", s.lot_trade_id" : "")
    try db.prepare(
      """
      SELECT t.executed_at, t.id, \(columns) FROM trades AS t JOIN \(join)
      WHERE t.portfolio_id = ? AND t.coin_id = ? ORDER BY \(order)
      """
    ).forEachRow([portfolioID, coinID]) { row in
      let trade = TradeKey(
        executedAt: try row.value(at: 0, named: "executed_at"),
        id: try row.value(at: 1, named: "id"))
      let lotID: Int64 = lot ? try row.value(at: 2, named: "lot_trade_id") : 0
      try body(AuditKey(trade: trade, lot: lotID), row)
    }
  }

  /// Calls `body` with the position's stored row, if there is one, and its columns from 0 on:
  /// quantity, cost_basis, realized_pnl, last_trade_at, last_trade_id, last_price, method.
  public func storedPosition(portfolioID: Int64, coinID: String, _ body: (Row) throws -> Void)
    throws
  {
    try db.prepare(
      """
      SELECT quantity, cost_basis, realized_pnl, last_trade_at, last_trade_id, last_price, method
      FROM positions WHERE portfolio_id = ? AND coin_id = ?
      """
    ).forEachRow([portfolioID, coinID], body)
  }

  /// Lots and disposals whose trade is gone, or belongs to no portfolio (rows left behind by
  /// hand, which no position's trades lead to): the position their row names, by trade id.
  public func rowsWithoutTrade() throws -> (lots: [StoredRowKey], disposals: [StoredRowKey]) {
    func rows(_ table: String) throws -> [StoredRowKey] {
      try db.rows(
        """
        SELECT portfolio_id, coin_id, trade_id FROM \(table) AS s WHERE NOT EXISTS (
          SELECT 1 FROM trades AS t JOIN portfolios AS p ON p.id = t.portfolio_id
          WHERE t.id = s.trade_id)
        ORDER BY trade_id
        """
      ) {
        StoredRowKey(
          portfolioID: try $0["portfolio_id"], coinID: try $0["coin_id"],
          tradeID: try $0["trade_id"])
      }
    }
    return (try rows("lots"), try rows("disposals"))
  }

  /// Lot consumptions whose sell has no disposal row, or is no trade: nothing else accounts for
  /// them. (Those of a trade in a portfolio that is gone go with its disposal, which
  /// `rowsWithoutTrade` names.)
  public func orphanConsumptionCount() throws -> Int {
    Int(
      try db.scalarInt(
        """
        SELECT count(*) FROM lot_consumptions AS c
        WHERE NOT EXISTS (SELECT 1 FROM disposals AS d WHERE d.trade_id = c.sell_trade_id)
          OR NOT EXISTS (SELECT 1 FROM trades AS t WHERE t.id = c.sell_trade_id)
        """) ?? 0)
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

/// Where a derived row read by `folio db check` sits among its position's rows: after the rows
/// of earlier trades (in the trades' order), and for a lot consumption, after those of lots with
/// a smaller trade id.
public struct AuditKey: Comparable, Sendable {
  public let trade: TradeKey
  /// The consumed lot's trade id, for a lot consumption; 0 otherwise.
  public let lot: Int64

  public init(trade: TradeKey, lot: Int64 = 0) { (self.trade, self.lot) = (trade, lot) }

  public static func < (lhs: AuditKey, rhs: AuditKey) -> Bool {
    (lhs.trade, lhs.lot) < (rhs.trade, rhs.lot)
  }
}

/// A derived row named by the position it holds and its trade id.
public struct StoredRowKey: Equatable, Sendable {
  public let portfolioID: Int64
  public let coinID: String
  public let tradeID: Int64
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
