/// How the cost of sold units is chosen among a coin's lots.
public enum CostMethod: String, CaseIterable, Sendable, RowDecodable {
  /// First in, first out: the oldest lot is sold first.
  case fifo
  /// Last in, first out: the newest lot is sold first.
  case lifo
  /// Highest in, first out: the lot with the highest unit cost is sold first.
  case hifo
  /// Average cost: every unit carries the pool's average cost.
  case average
}

/// A named portfolio: its own trades, currency and cost-basis method.
public struct Portfolio: Equatable, Sendable {
  public let id: Int64
  public let name: String
  /// The currency prices and fees are recorded in, such as "usd".
  public let currency: String
  public let method: CostMethod
  public let createdAt: String

  init(row: Row) throws {
    (id, name, currency, method, createdAt) = (
      try row["id"], try row["name"], try row["currency"], try row["method"], try row["created_at"]
    )
  }

  static let columns = "id, name, currency, method, created_at"

  /// Every portfolio, by name.
  public static func all(_ db: Database) throws -> [Portfolio] {
    try db.rows("SELECT \(columns) FROM portfolios ORDER BY name", [], Portfolio.init(row:))
  }

  /// The portfolio called `name`, if any.
  public static func named(_ name: String, _ db: Database) throws -> Portfolio? {
    try db.row("SELECT \(columns) FROM portfolios WHERE name = ?", [name], Portfolio.init(row:))
  }

  /// The portfolio with `id`, if any.
  public static func find(id: Int64, _ db: Database) throws -> Portfolio? {
    try db.row("SELECT \(columns) FROM portfolios WHERE id = ?", [id], Portfolio.init(row:))
  }

  /// Inserts a new portfolio and returns it.
  public static func insert(
    name: String, currency: String, method: CostMethod, createdAt: String, _ db: Database
  ) throws -> Portfolio {
    try db.execute(
      "INSERT INTO portfolios (name, currency, method, created_at) VALUES (?, ?, ?, ?)",
      [name, currency, method.rawValue, createdAt])
    return Portfolio(
      id: db.lastInsertRowID, name: name, currency: currency, method: method, createdAt: createdAt)
  }

  public init(id: Int64, name: String, currency: String, method: CostMethod, createdAt: String) {
    (self.id, self.name, self.currency, self.method, self.createdAt) = (
      id, name, currency, method, createdAt
    )
  }

  /// Renames the portfolio.
  public static func rename(id: Int64, to name: String, _ db: Database) throws {
    try db.execute("UPDATE portfolios SET name = ? WHERE id = ?", [name, id])
  }

  /// Changes the cost-basis method.
  public static func setMethod(id: Int64, _ method: CostMethod, _ db: Database) throws {
    try db.execute("UPDATE portfolios SET method = ? WHERE id = ?", [method.rawValue, id])
  }

  /// Deletes the portfolio with its trades, every row derived from them and its daily history.
  public static func delete(id: Int64, _ db: Database) throws {
    try DerivedTables(db).deleteAll(portfolioID: id)
    try db.execute("DELETE FROM portfolio_daily WHERE portfolio_id = ?", [id])
    try db.execute("DELETE FROM trades WHERE portfolio_id = ?", [id])
    try db.execute("DELETE FROM portfolios WHERE id = ?", [id])
  }

  /// The number of trades recorded in the portfolio.
  public static func tradeCount(id: Int64, _ db: Database) throws -> Int {
    Int(try db.scalarInt("SELECT count(*) FROM trades WHERE portfolio_id = ?", [id]) ?? 0)
  }
}

/// Key/value settings stored in the database file.
public enum Setting {
  /// The value of `key`, if set.
  public static func get(_ key: String, _ db: Database) throws -> String? {
    try db.scalarText("SELECT value FROM settings WHERE key = ?", [key])
  }

  /// Sets `key` to `value`.
  public static func set(_ key: String, _ value: String, _ db: Database) throws {
    try db.execute(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [key, value])
  }
}
