/// Which way a trade moves units: a buy brings units into the position, a sell takes them out.
public enum TradeSide: String, Sendable, CaseIterable, RowDecodable {
  case buy, sell
}

/// What a trade row is (docs/trades.md gives the rules of each kind).
public enum TradeKind: String, Sendable, CaseIterable, RowDecodable {
  /// A buy or a sell for cash.
  case trade
  /// Units moved between two portfolios: a `sell` row out of one, `buy` rows (one per lot
  /// piece, keeping its acquisition date and cost basis) into the other.
  case transfer
  /// Units received as income (`IncomeType`), acquired at their market value.
  case income
  /// One coin given for another at one value: a `sell` row and a `buy` row.
  case swap
  /// Units entering from outside the tracked world at a given cost.
  case deposit
  /// Units leaving the tracked world without a sale.
  case withdrawal

  /// Whether the row's price is a market price (the last one the position saw): not for a
  /// transfer, a deposit or a withdrawal, whose price is 0.
  public var hasPrice: Bool { self == .trade || self == .income || self == .swap }
}

/// What an income row was.
public enum IncomeType: String, Sendable, CaseIterable, RowDecodable {
  case staking, interest, airdrop, mining, gift, other
}

/// The position of a trade in time: trades are ordered by execution time, then by id.
public struct TradeKey: Comparable, Hashable, Sendable {
  public let executedAt: String
  public let id: Int64

  public init(executedAt: String, id: Int64) {
    self.executedAt = executedAt
    self.id = id
  }

  public static func < (lhs: TradeKey, rhs: TradeKey) -> Bool {
    (lhs.executedAt, lhs.id) < (rhs.executedAt, rhs.id)
  }
}

/// One recorded buy or sell.
public struct Trade: Equatable, Sendable {
  public var id: Int64
  public var portfolioID: Int64
  /// UTC ISO-8601, whole seconds.
  public var executedAt: String
  public var side: TradeSide
  /// The CoinGecko id, such as "bitcoin".
  public var coinID: String
  public var quantity: ExactDecimal
  /// Price per unit in the portfolio's currency.
  public var price: ExactDecimal
  /// Fee in the portfolio's currency.
  public var fee: ExactDecimal
  public var note: String?
  /// An identifier from the user or the imported file; unique per portfolio.
  public var externalID: String?
  /// The location where the trade happened, if recorded.
  public var locationID: Int64?
  public var createdAt: String
  /// What the row is; buys and sells for cash are `.trade`.
  public var kind: TradeKind = .trade
  /// For income: what kind of income.
  public var incomeType: IncomeType?
  /// The exact total of a deposit (its cost), a swap (its value) or a transferred piece (its
  /// cost basis), in the portfolio's currency; nil on the other kinds.
  public var amount: ExactDecimal?
  /// When the units of a deposit or a transferred piece were first acquired, if before the row.
  public var acquiredAt: String?
  /// The id of the row that gives the units up in a transfer or a swap (its own id on that row).
  public var linkID: Int64?

  public init(
    id: Int64 = 0, portfolioID: Int64, executedAt: String, side: TradeSide, coinID: String,
    quantity: ExactDecimal, price: ExactDecimal, fee: ExactDecimal = .zero, note: String? = nil,
    externalID: String? = nil, locationID: Int64? = nil, createdAt: String
  ) {
    (
      self.id, self.portfolioID, self.executedAt, self.side, self.coinID, self.quantity, self.price,
      self.fee, self.note, self.externalID, self.locationID, self.createdAt
    ) = (
      id, portfolioID, executedAt, side, coinID, quantity, price, fee, note, externalID, locationID,
      createdAt
    )
  }

  public var key: TradeKey { TradeKey(executedAt: executedAt, id: id) }

  /// When the units this row brings in were first acquired: `acquiredAt`, else the row's time.
  public var acquisitionTime: String { acquiredAt ?? executedAt }

  /// The columns a read fills in: every one, or what booking reads.
  public enum Selection: Sendable {
    /// Every column.
    case all
    /// What booking and replaying read: the time, side, coin, numbers, kind, amount,
    /// acquisition time and link. `note`, `externalID`, `locationID` and `incomeType` are nil and
    /// `createdAt` is empty: a replay of a million trades decodes a third less.
    case booking

    var columns: String { self == .all ? Trade.columns : Trade.bookingColumns }
  }

  /// The columns of `Selection.booking`, first in `columns` so a row of either decodes by place.
  static let bookingColumns =
    "id, portfolio_id, executed_at, side, coin_id, quantity, price, fee, kind, amount, "
    + "acquired_at, link_id"
  static let columns = bookingColumns + ", note, external_id, created_at, location_id, income_type"

  /// Decodes a row of `SELECT \(columns)` or `SELECT \(bookingColumns)`, reading the columns
  /// by their place (this runs for every trade a replay reads; a lookup by name per column
  /// cost a third of it).
  init(row: Row) throws {
    // One field at a time: assigning them as tuples copied the whole struct (its six Strings
    // retained and released) once more per row.
    id = try row.value(at: 0, named: "id")
    portfolioID = try row.value(at: 1, named: "portfolio_id")
    executedAt = try row.value(at: 2, named: "executed_at")
    side = try row.value(at: 3, named: "side")
    coinID = try row.value(at: 4, named: "coin_id")
    quantity = try row.value(at: 5, named: "quantity")
    price = try row.value(at: 6, named: "price")
    fee = try row.value(at: 7, named: "fee")
    kind = try row.value(at: 8, named: "kind")
    amount = try row.value(at: 9, named: "amount")
    acquiredAt = try row.value(at: 10, named: "acquired_at")
    linkID = try row.value(at: 11, named: "link_id")
    // A row of the booking columns, maybe followed by columns of another table (17: all).
    guard row.count >= 17 else {
      createdAt = ""
      return
    }
    note = try row.value(at: 12, named: "note")
    externalID = try row.value(at: 13, named: "external_id")
    createdAt = try row.value(at: 14, named: "created_at")
    locationID = try row.value(at: 15, named: "location_id")
    incomeType = try row.value(at: 16, named: "income_type")
  }

  static let insertColumns = """
    portfolio_id, executed_at, side, coin_id, quantity, price, fee, note, external_id,
      created_at, location_id, kind, income_type, amount, acquired_at, link_id
    """

  static let insertSQL = """
    INSERT INTO trades (\(insertColumns))
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  /// The insert for trades with an external id: a duplicate id is skipped, not an error.
  static let insertOrSkipSQL =
    insertSQL + """

      ON CONFLICT (portfolio_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
      """

  /// The statements that `insert(using:)` runs, prepared once for loops over many trades.
  public final class InsertStatements {
    let plain: Statement
    let orSkip: Statement
    /// Trades without an external id, given their ids here (`batched`).
    let batch: BatchedInsert?
    /// The id the next trade gets: one more than the largest, 1 in an empty table (as SQLite
    /// gives them), read at the first insert; nil until then, and from then on when the
    /// largest id is the largest possible (SQLite then picks unused ids at random).
    private var nextID: Int64?
    private var readNextID = false

    init(plain: Statement, orSkip: Statement, batch: BatchedInsert?) {
      (self.plain, self.orSkip, self.batch) = (plain, orSkip, batch)
    }

    /// The id for a trade of the batch, or nil when it is inserted at once.
    fileprivate func idForBatch(_ db: Database) throws -> Int64? {
      guard batch != nil else { return nil }
      if !readNextID {
        readNextID = true
        let largest = try db.scalarInt("SELECT max(id) FROM trades") ?? 0
        nextID = largest < Int64.max ? largest + 1 : nil
      }
      return nextID
    }

    /// Records that a trade was given `id`, the next one (in a batch, or by SQLite).
    fileprivate func took(_ id: Int64) {
      guard let next = nextID else { return }
      nextID = next == id && id < Int64.max ? id + 1 : nil
    }
  }

  /// Prepares the statements `insert(using:)` runs. With `batched`, trades without an external
  /// id (or with one the portfolio does not hold) are written in batches (`BatchedInsert`), their ids given in order, one more than the
  /// largest, as SQLite would: for one transaction in which nothing else inserts trades (an
  /// import).
  public static func prepareInsert(_ db: Database, batched: Bool = false) throws
    -> InsertStatements
  {
    // The batch keeps a statement journal (its foreign keys may abort a run half-way); the
    // derived tables' batches, with none, keep none.
    InsertStatements(
      plain: try db.prepare(insertSQL), orSkip: try db.prepare(insertOrSkipSQL),
      batch: batched
        ? try db.prepareBatch("INSERT OR ROLLBACK INTO trades (id, \(insertColumns))", columns: 17)
        : nil)
  }

  /// Inserts the trade with statements from `prepareInsert` and returns its new id, or nil
  /// when a trade with the same external id already exists in the portfolio (nothing is
  /// written then). `newExternalID` is the caller's word that no trade of the portfolio holds
  /// the trade's external id: it is written in the batch too.
  public func insert(
    using statements: InsertStatements, _ db: Database, newExternalID: Bool = false
  )
    throws -> Int64?
  {
    if externalID == nil || newExternalID, let batch = statements.batch,
      let id = try statements.idForBatch(db)
    {
      try batch.add(self) { trade, row in
        row.append(id)
        row.append(trade.portfolioID)
        row.append(trade.executedAt)
        row.append(trade.side.rawValue)
        row.append(trade.coinID)
        row.append(trade.quantity)
        row.append(trade.price)
        row.append(trade.fee)
        row.append(trade.note)
        row.append(trade.externalID)
        row.append(trade.createdAt)
        row.append(trade.locationID)
        row.append(trade.kind.rawValue)
        row.append(trade.incomeType?.rawValue)
        row.append(trade.amount)
        row.append(trade.acquiredAt)
        row.append(trade.linkID)
      }
      statements.took(id)
      return id
    }
    let statement = externalID == nil ? statements.plain : statements.orSkip
    try statement.run(
      portfolioID, executedAt, side.rawValue, coinID, quantity, price, fee, note, externalID,
      createdAt, locationID, kind.rawValue, incomeType?.rawValue, amount, acquiredAt, linkID)
    guard db.changes == 1 else { return nil }
    let id = db.lastInsertRowID
    statements.took(id)
    return id
  }

  /// Inserts the trade and returns its new id, or nil when a trade with the same external id
  /// already exists in the portfolio (nothing is written then).
  public func insert(_ db: Database) throws -> Int64? {
    try insert(
      using: InsertStatements(
        plain: db.cached(Trade.insertSQL), orSkip: db.cached(Trade.insertOrSkipSQL), batch: nil),
      db)
  }

  /// Writes every field of the trade back to its row.
  public func update(_ db: Database) throws {
    try db.execute(
      """
      UPDATE trades SET executed_at = ?, side = ?, coin_id = ?, quantity = ?, price = ?, fee = ?,
        note = ?, external_id = ?, location_id = ?, kind = ?, income_type = ?, amount = ?,
        acquired_at = ?, link_id = ? WHERE id = ?
      """,
      [
        executedAt, side.rawValue, coinID, quantity, price, fee, note, externalID, locationID,
        kind.rawValue, incomeType?.rawValue, amount, acquiredAt, linkID, id,
      ])
  }

  /// Deletes the trade row (derived rows must be removed first).
  public static func delete(id: Int64, _ db: Database) throws {
    try db.execute("DELETE FROM trades WHERE id = ?", [id])
  }

  /// The rows of the transfer or swap whose giving-up row is `linkID`, in any portfolio, that
  /// row first and then by id.
  public static func linked(_ linkID: Int64, _ db: Database) throws -> [Trade] {
    try db.rows(
      "SELECT \(columns) FROM trades WHERE link_id = ? ORDER BY id <> link_id, id", [linkID],
      Trade.init(row:))
  }

  /// Sets the link of the row `id` to its own id (the giving-up row of a transfer or a swap).
  public static func linkToItself(id: Int64, _ db: Database) throws {
    try db.execute("UPDATE trades SET link_id = id WHERE id = ?", [id])
  }

  /// The newest market price the position's rows before `key` recorded (rows of a kind with a
  /// price: `TradeKind.hasPrice`), if any.
  public static func latestPrice(
    portfolioID: Int64, coinID: String, before key: TradeKey?, _ db: Database
  ) throws -> ExactDecimal? {
    try db.row(
      """
      SELECT price FROM trades WHERE portfolio_id = ? AND coin_id = ?
        AND kind IN ('trade', 'income', 'swap') AND (executed_at, id) < (?, ?)
      ORDER BY executed_at DESC, id DESC LIMIT 1
      """,
      [portfolioID, coinID, key?.executedAt ?? "9999", key?.id ?? 0]
    ) { try $0["price"] }
  }

  /// The trade with `id` in `portfolioID`, if any.
  public static func find(id: Int64, portfolioID: Int64, _ db: Database) throws -> Trade? {
    try db.row(
      "SELECT \(columns) FROM trades WHERE id = ? AND portfolio_id = ?", [id, portfolioID],
      Trade.init(row:))
  }

  /// What `list` returns.
  public struct Filter: Sendable {
    public var coinID: String?
    public var side: TradeSide?
    /// Inclusive lower bound on executed_at.
    public var since: Timestamp?
    /// Exclusive upper bound on executed_at.
    public var before: Timestamp?
    /// Inclusive upper bound on executed_at.
    public var through: Timestamp?
    public var limit: Int?
    /// Only the newest this many trades (still listed oldest first).
    public var last: Int?
    public var locationID: Int64?
    /// Only deposits, withdrawals and transfers: the rows whose cash flow is their units at
    /// market value (read through the partial index `trades_at_market_value`, which a filter
    /// with `coinID` or `locationID` cannot use).
    public var atMarketValue = false

    public init(
      coinID: String? = nil, side: TradeSide? = nil, since: Timestamp? = nil,
      before: Timestamp? = nil, limit: Int? = nil
    ) {
      (self.coinID, self.side, self.since, self.before, self.limit) = (
        coinID, side, since, before, limit
      )
    }
  }

  /// Streams the portfolio's trades matching `filter`, oldest first; `readingAhead` for a scan
  /// of all of them (see `Statement.forEachRow(_:readingAhead:_:)`).
  public static func each(
    portfolioID: Int64, filter: Filter, selection: Selection = .all, readingAhead: Bool = false,
    _ db: Database, _ body: (Trade) throws -> Void
  ) throws {
    try each(
      portfolioIDs: [portfolioID], filter: filter, selection: selection,
      readingAhead: readingAhead, db, body)
  }

  /// Calls `body` with every trade of the portfolios `portfolioIDs` that `filter` keeps, in
  /// order (as `each(portfolioID:…)` for one).
  public static func each(
    portfolioIDs: [Int64], filter: Filter, selection: Selection = .all,
    readingAhead: Bool = false, _ db: Database, _ body: (Trade) throws -> Void
  ) throws {
    let (sql, values) = query(portfolioIDs: portfolioIDs, filter: filter, selection: selection)
    try db.prepare(sql).forEachRow(values, readingAhead: readingAhead) {
      try body(try Trade(row: $0))
    }
  }

  /// The SQL and values `each` runs: a coin or a time bound is found through an index.
  static func query(portfolioIDs: [Int64], filter: Filter, selection: Selection = .all) -> (
    String, [any SQLBindable]
  ) {
    // SQLite's planner prefers trades_by_time to the partial index (it cannot tell how few
    // rows the index holds): named, the index is used, and a query it cannot serve fails.
    let table = filter.atMarketValue ? "trades INDEXED BY trades_at_market_value" : "trades"
    let marks = Array(repeating: "?", count: portfolioIDs.count).joined(separator: ", ")
    var sql =
      "SELECT \(selection.columns) FROM \(table) WHERE "
      + (portfolioIDs.count == 1 ? "portfolio_id = ?" : "portfolio_id IN (\(marks))")
    var values: [any SQLBindable] = portfolioIDs
    if let coin = filter.coinID {
      sql += " AND coin_id = ?"
      values.append(coin)
    }
    if let side = filter.side {
      sql += " AND side = ?"
      values.append(side.rawValue)
    }
    if let since = filter.since {
      sql += " AND executed_at >= ?"
      values.append(since)
    }
    if let before = filter.before {
      sql += " AND executed_at < ?"
      values.append(before)
    }
    if let through = filter.through {
      sql += " AND executed_at <= ?"
      values.append(through)
    }
    if let location = filter.locationID {
      sql += " AND location_id = ?"
      values.append(location)
    }
    if filter.atMarketValue {
      // The very term of the index's WHERE, so SQLite can use it.
      sql += " AND (kind = 'deposit' OR kind = 'withdrawal' OR kind = 'transfer')"
    }
    if let last = filter.last {
      sql =
        "SELECT * FROM (\(sql) ORDER BY executed_at DESC, id DESC LIMIT ?) ORDER BY executed_at, id"
      values.append(last)
      return (sql, values)
    }
    sql += " ORDER BY executed_at, id"
    if let limit = filter.limit {
      sql += " LIMIT ?"
      values.append(limit)
    }
    return (sql, values)
  }

  /// Streams the trades of one position from `key` on (inclusive), in order.
  public static func each(
    portfolioID: Int64, coinID: String, from key: TradeKey?, selection: Selection = .all,
    _ db: Database, _ body: (Trade) throws -> Void
  ) throws {
    let statement = try db.prepare(
      """
      SELECT \(selection.columns) FROM trades
      WHERE portfolio_id = ? AND coin_id = ? AND (executed_at, id) >= (?, ?)
      ORDER BY executed_at, id
      """)
    try statement.forEachRow([portfolioID, coinID, key?.executedAt ?? "", key?.id ?? 0]) {
      try body(try Trade(row: $0))
    }
  }

  /// Trades whose row breaks a rule folio checks before it writes one but SQLite cannot check on
  /// INSERT without slowing every import: a real UTC time, a CoinGecko-style coin id, a UTC
  /// `created_at`, numbers no larger than folio keeps exactly. Such rows were typed in by hand; each comes with the first rule it breaks.
  public static func breakingWriteRules(_ db: Database) throws -> [(id: Int64, problem: String)] {
    let time = "'[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'"
    let badCoin = "coin_id GLOB '*[^a-z0-9._-]*'"
    let badTime = "strftime('%Y-%m-%dT%H:%M:%SZ', executed_at, '+0 days') IS NOT executed_at"
    let badCreated = "created_at NOT GLOB \(time)"
    // A number beyond ExactDecimal's range (Int128.max units of 10⁻¹⁸), which the tables'
    // CHECKs (digits, at most 18 after the point) let through: more than 21 whole digits, or
    // 21 that exceed the largest value (same-length text compares as numbers do).
    let largest = "'\(ExactDecimal(units: .max))'"
    func tooLarge(_ column: String) -> String {
      let whole =
        "CASE WHEN instr(\(column), '.') > 0 THEN instr(\(column), '.') - 1 "
        + "ELSE length(\(column)) END"
      return "(\(whole) > 21 OR (\(whole) = 21 AND \(column) > \(largest)))"
    }
    let tooLargeCases = ["quantity", "price", "fee"].map {
      "WHEN \(tooLarge($0)) THEN '\($0) ' || \($0) || ' is larger than folio can keep exactly "
        + "(at most \(ExactDecimal(units: .max)))'"
    }
    let badNumber = ["quantity", "price", "fee"].map(tooLarge).joined(separator: " OR ")
    return try db.rows(
      """
      SELECT id, CASE
        WHEN \(badCoin) THEN 'coin_id ''' || coin_id
          || ''' is not a CoinGecko id (lowercase letters, digits, ''-'', ''_'' or ''.'')'
        WHEN \(badTime) THEN 'executed_at ''' || executed_at || ''' is not a real UTC time'
        \(tooLargeCases.joined(separator: "\n  "))
        ELSE 'created_at ''' || created_at || ''' is not a UTC time such as 2024-03-01T12:00:00Z'
      END AS problem
      FROM trades WHERE \(badCoin) OR \(badTime) OR \(badCreated) OR \(badNumber) ORDER BY id
      """
    ) { (id: try $0["id"], problem: try $0["problem"]) }
  }

  /// The number of trades whose portfolio does not exist (possible only with foreign keys off).
  public static func withoutPortfolioCount(_ db: Database) throws -> Int {
    Int(
      try db.scalarInt(
        """
        SELECT count(*) FROM trades AS t
        WHERE NOT EXISTS (SELECT 1 FROM portfolios AS p WHERE p.id = t.portfolio_id)
        """) ?? 0)
  }

  /// The newest trade of one position, if any.
  public static func latest(portfolioID: Int64, coinID: String, _ db: Database) throws -> Trade? {
    try db.row(
      """
      SELECT \(columns) FROM trades WHERE portfolio_id = ? AND coin_id = ?
      ORDER BY executed_at DESC, id DESC LIMIT 1
      """, [portfolioID, coinID], Trade.init(row:))
  }

  /// Suspends what SQLite would otherwise do per inserted trade, inside the caller's
  /// transaction (a failure rolls the suspension back too), and returns what restores it:
  /// - INSERT triggers on trades (the guard rails for hand edits): the caller checks every row
  ///   in Swift on a connection with foreign keys on, and any INSERT trigger makes SQLite keep
  ///   a statement journal per row.
  /// - Into an empty table, the trades' lookup indexes: building them once after the rows are
  ///   in is much cheaper than updating them row by row, and nothing reads them meanwhile.
  ///   Unique indexes stay: duplicate ids are detected with them. Partial indexes stay too:
  ///   they hold the few trades with a location, a link or a transfer's kind, so keeping them
  ///   costs a test per row, while building each would read the whole table again (from the
  ///   WAL, where a large import's pages have spilled by then).
  ///
  /// Among those triggers is `portfolio_daily_stale_on_insert` (migration 0013), which marks
  /// the saved days a new trade reaches as stale: restoring does once, for every trade
  /// inserted meanwhile, what it would have done per row, so the store recomputes those days
  /// before the import commits.
  public static func suspendInsertWork(_ db: Database) throws -> () throws -> Void {
    let empty = try db.isEmpty(table: "trades")
    // Trades inserted from here on get larger ids (SQLite picks them at random only once the
    // largest id is the largest possible: then every trade counts as new).
    let largest = try db.scalarInt("SELECT max(id) FROM trades") ?? 0
    let newFrom = largest < Int64.max ? largest + 1 : Int64.min
    let objects = try db.rows(
      """
      SELECT type, name, sql FROM sqlite_schema
      WHERE tbl_name = 'trades' AND sql IS NOT NULL AND (
        (type = 'trigger' AND instr(upper(sql), ' INSERT ON TRADES') > 0)
        OR (type = 'index' AND ? AND sql NOT LIKE 'CREATE UNIQUE%' AND sql NOT LIKE '%WHERE%'))
      """, [empty]
    ) {
      (type: try $0["type"] as String, name: try $0["name"] as String, sql: try $0["sql"] as String)
    }
    for object in objects {
      try db.execute("DROP \(object.type.uppercased()) \"\(object.name)\"")
    }
    return {
      for object in objects { try db.execute(object.sql) }
      try db.execute(
        """
        UPDATE portfolio_daily SET stale = 1
        WHERE stale = 0 AND day >= (
          SELECT min(substr(executed_at, 1, 10)) FROM trades
          WHERE id >= ?1 AND portfolio_id = portfolio_daily.portfolio_id)
        """, [newFrom])
    }
  }

  /// True when the position has a trade from `start` before `end` (through the trades index).
  public static func exists(
    portfolioID: Int64, coinID: String, from start: TradeKey, before end: TradeKey,
    _ db: Database
  ) throws -> Bool {
    try db.scalarInt(
      """
      SELECT EXISTS (SELECT 1 FROM trades WHERE portfolio_id = ? AND coin_id = ?
        AND (executed_at, id) >= (?, ?) AND (executed_at, id) < (?, ?))
      """, [portfolioID, coinID, start.executedAt, start.id, end.executedAt, end.id]) == 1
  }

  /// The oldest trade of one position, if any.
  public static func earliest(portfolioID: Int64, coinID: String, _ db: Database) throws
    -> Trade?
  {
    try db.row(
      """
      SELECT \(columns) FROM trades WHERE portfolio_id = ? AND coin_id = ?
      ORDER BY executed_at, id LIMIT 1
      """, [portfolioID, coinID], Trade.init(row:))
  }

  /// Gives every trade of `coinID` in the portfolio the coin `newCoinID`; returns how many.
  /// The caller recomputes both positions.
  public static func moveCoin(
    portfolioID: Int64, from coinID: String, to newCoinID: String, _ db: Database
  ) throws -> Int {
    try db.execute(
      "UPDATE trades SET coin_id = ? WHERE portfolio_id = ? AND coin_id = ?",
      [newCoinID, portfolioID, coinID])
    return db.changes
  }

  /// Moves the row `id` to `newCoinID`.
  public static func moveCoin(id: Int64, to newCoinID: String, _ db: Database) throws {
    try db.execute("UPDATE trades SET coin_id = ? WHERE id = ?", [newCoinID, id])
  }

  /// The links of the transfers whose rows in `portfolioID` name `coinID`.
  public static func transferLinks(portfolioID: Int64, coinID: String, _ db: Database) throws
    -> [Int64]
  {
    try db.rows(
      """
      SELECT DISTINCT link_id FROM trades
      WHERE portfolio_id = ? AND coin_id = ? AND kind = 'transfer' AND link_id IS NOT NULL
      ORDER BY link_id
      """, [portfolioID, coinID]
    ) { try $0["link_id"] }
  }

  /// The ids of the portfolios that have trades of `coinID`.
  public static func portfolioIDs(coinID: String, _ db: Database) throws -> [Int64] {
    try db.rows(
      "SELECT DISTINCT portfolio_id FROM trades WHERE coin_id = ? ORDER BY portfolio_id",
      [coinID]
    ) { try $0["portfolio_id"] }
  }

  /// The coins that have trades in the portfolio.
  public static func coins(portfolioID: Int64, _ db: Database) throws -> [String] {
    try db.rows(
      "SELECT DISTINCT coin_id FROM trades WHERE portfolio_id = ? ORDER BY coin_id", [portfolioID]
    ) { try $0["coin_id"] }
  }
}

extension Trade {
  /// The transfers out of one position at or after `key`, in time order.
  public static func transfersOut(
    portfolioID: Int64, coinID: String, from key: TradeKey, _ db: Database
  ) throws -> [Trade] {
    try db.rows(
      """
      SELECT \(columns) FROM trades
      WHERE portfolio_id = ? AND coin_id = ? AND (executed_at, id) >= (?, ?)
        AND kind = 'transfer' AND side = 'sell'
      ORDER BY executed_at, id
      """, [portfolioID, coinID, key.executedAt, key.id], Trade.init(row:))
  }
}

extension Trade {
  /// The id of the row giving the units up to a row of a transfer or a swap of `kind` that
  /// arrives in portfolio `portfolioID` at `executedAt`: a sell of that kind linked to itself
  /// whose external id is `externalID`. Ids are unique per portfolio only, so where several
  /// rows qualify, one at the same time comes first (a transfer's or a swap's rows share their
  /// time), then one in another portfolio for a transfer and in the same one for a swap, then
  /// the first written. Each portfolio's ids are read through `trades_external_id`.
  public static func givingUpRow(
    externalID: String, kind: TradeKind, arrivingIn portfolioID: Int64, at executedAt: String,
    _ db: Database
  ) throws -> (id: Int64, portfolioID: Int64)? {
    try db.row(
      """
      SELECT id, portfolio_id FROM trades
      WHERE portfolio_id IN (SELECT id FROM portfolios) AND external_id = ? AND side = 'sell'
        AND kind = ? AND link_id = id
      ORDER BY executed_at <> ?, (portfolio_id = ?) = (kind = 'transfer'), id LIMIT 1
      """, [externalID, kind.rawValue, executedAt, portfolioID]
    ) { (try $0["id"], try $0["portfolio_id"]) }
  }

  /// True when a trade of any portfolio carries the external id `externalID`.
  public static func holdsExternalID(_ externalID: String, _ db: Database) throws -> Bool {
    try db.scalarInt(
      "SELECT EXISTS (SELECT 1 FROM trades WHERE external_id = ?)", [externalID]) == 1
  }

  /// How many trades of the portfolio carry the external id `id` or one made from it (`id`, a
  /// colon and a suffix), as `import exchange` names the rows of one event. Both are ranges of
  /// the `trades_external_id` index (`;` follows `:`).
  public static func countExternalIDs(
    derivedFrom id: String, portfolioID: Int64, _ db: Database
  ) throws -> Int {
    Int(
      try db.scalarInt(
        """
        SELECT count(*) FROM trades WHERE portfolio_id = ?1
          AND (external_id = ?2 OR (external_id >= ?2 || ':' AND external_id < ?2 || ';'))
        """, [portfolioID, id]) ?? 0)
  }

  /// The trade `id`, in whichever portfolio.
  public static func find(id: Int64, _ db: Database) throws -> Trade? {
    try db.row("SELECT \(columns) FROM trades WHERE id = ?", [id], Trade.init(row:))
  }

  /// True when the portfolio has a row of another kind than a buy or sell for cash.
  public static func hasOtherKinds(portfolioID: Int64, _ db: Database) throws -> Bool {
    try db.scalarInt(
      "SELECT EXISTS (SELECT 1 FROM trades WHERE portfolio_id = ? AND kind <> 'trade')",
      [portfolioID]) == 1
  }
}
