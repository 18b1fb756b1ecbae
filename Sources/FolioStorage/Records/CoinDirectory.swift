/// A coin of the directory (the `coins` table) as resolving a coin sees it.
public struct DirectoryCoin: Equatable, Sendable {
  public let id: String
  public let symbol: String
  public let name: String
  /// CoinGecko's market-cap rank; nil when unknown.
  public let rank: Int?

  public init(id: String, symbol: String, name: String, rank: Int?) {
    (self.id, self.symbol, self.name, self.rank) = (id, symbol, name, rank)
  }

  public init(row: Row) throws {
    (id, symbol, name, rank) = (
      try row["id"], try row["symbol"], try row["name"], try row["market_cap_rank"]
    )
  }

  public static let columns = "id, symbol, name, market_cap_rank"
}

/// A trade whose coin is not in the directory.
public struct TradeWithUnknownCoin: Equatable, Sendable {
  public let tradeID: Int64
  public let portfolio: String
  public let coinID: String
}

/// The SQL of the coin directory (migrations/0004_market_data.sql and 0008_coin_directory.sql).
public enum CoinDirectoryRecords {
  /// `source` of the row `coin_list_fetches` gets when the built-in list is stored.
  public static let builtInSource = "built-in"
  /// `updated_at` of the coins folio adds itself (the built-in list, `--new-coin`): older than
  /// any fetch, so the first CoinGecko data about them replaces their symbol and name.
  public static let unfetchedTime = "1970-01-01T00:00:00Z"
  /// Ranked coins first, best rank first, then by id.
  static let order = "ORDER BY market_cap_rank IS NULL, market_cap_rank, id"

  public static func coin(_ database: Database, id: String) throws -> DirectoryCoin? {
    try database.row("SELECT \(DirectoryCoin.columns) FROM coins WHERE id = ?", [id]) {
      try DirectoryCoin(row: $0)
    }
  }

  /// The coins whose symbol is `symbol` (ignoring ASCII case), best rank first.
  public static func coins(_ database: Database, symbol: String) throws -> [DirectoryCoin] {
    try database.rows(
      "SELECT \(DirectoryCoin.columns) FROM coins WHERE symbol = ? COLLATE NOCASE \(order)",
      [symbol]
    ) { try DirectoryCoin(row: $0) }
  }

  /// Calls `body` with every coin of the directory, best rank first.
  public static func each(_ database: Database, _ body: (DirectoryCoin) throws -> Void) throws {
    try database.cached("SELECT \(DirectoryCoin.columns) FROM coins \(order)").forEachRow {
      try body(DirectoryCoin(row: $0))
    }
  }

  /// Adds a coin unless one with its id exists; true when added. Its `updated_at` is
  /// `unfetchedTime`, so CoinGecko's data about it wins later.
  @discardableResult
  public static func addIfMissing(_ database: Database, _ coin: DirectoryCoin) throws -> Bool {
    try database.execute(
      """
      INSERT INTO coins (id, symbol, name, market_cap_rank, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET market_cap_rank = excluded.market_cap_rank
      WHERE coins.market_cap_rank IS NULL AND excluded.market_cap_rank IS NOT NULL
      """, [coin.id, coin.symbol, coin.name, coin.rank, unfetchedTime])
    return database.changes > 0
  }

  /// True when the built-in list was stored in this database.
  public static func hasBuiltInList(_ database: Database) throws -> Bool {
    try database.scalarInt(
      "SELECT count(*) FROM coin_list_fetches WHERE source = ?", [builtInSource]) ?? 0 > 0
  }

  /// Records that a whole coin list was stored.
  public static func recordListFetch(
    _ database: Database, fetchedAt: String, source: String, coinCount: Int
  ) throws {
    try database.execute(
      "INSERT INTO coin_list_fetches (fetched_at, source, coin_count) VALUES (?, ?, ?)",
      [fetchedAt, source, coinCount])
  }

  /// The time of the newest fetch of /coins/list (the built-in list does not count).
  public static func latestListFetch(_ database: Database) throws -> String? {
    try database.scalarText(
      "SELECT max(fetched_at) FROM coin_list_fetches WHERE source <> ?", [builtInSource])
  }

  /// How many coins the directory holds.
  public static func count(_ database: Database) throws -> Int {
    Int(try database.scalarInt("SELECT count(*) FROM coins") ?? 0)
  }

  /// The trades whose coin is not in the directory, by id: at most `limit`, and how many
  /// there are in all.
  public static func tradesWithUnknownCoins(_ database: Database, limit: Int) throws
    -> (trades: [TradeWithUnknownCoin], total: Int)
  {
    let unknown =
      "FROM trades t JOIN portfolios p ON p.id = t.portfolio_id"
      + " WHERE NOT EXISTS (SELECT 1 FROM coins c WHERE c.id = t.coin_id)"
    let total = Int(try database.scalarInt("SELECT count(*) \(unknown)") ?? 0)
    let trades = try database.rows(
      "SELECT t.id, p.name, t.coin_id \(unknown) ORDER BY t.id LIMIT ?", [limit]
    ) {
      TradeWithUnknownCoin(
        tradeID: try $0["id"], portfolio: try $0["name"], coinID: try $0["coin_id"])
    }
    return (trades, total)
  }
}
