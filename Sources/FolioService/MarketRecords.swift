import FolioStorage
import Foundation

// MARK: - Records

/// A coin of the `coins` table.
public struct CoinRecord: Equatable, Sendable {
  public let id: String
  public let symbol: String
  public let name: String
  public let imageURL: String?

  init(row: Row) {
    id = row.text(0) ?? ""
    symbol = row.text(1) ?? ""
    name = row.text(2) ?? ""
    imageURL = row.text(3)
  }

  static let columns = "id, symbol, name, image_url"
}

/// A stored market snapshot: one fetch or import of /coins/markets in one currency.
public struct MarketSnapshotRef: Equatable, Sendable {
  public let id: Int64
  /// When the data was fetched (or the time the import gave it), UTC ISO-8601.
  public let fetchedAt: String
  /// The API base URL, or `import:<file>`.
  public let source: String
  public let vsCurrency: String

  init(row: Row, at offset: Int32 = 0) {
    id = row.int(offset) ?? 0
    fetchedAt = row.text(offset + 1) ?? ""
    source = row.text(offset + 2) ?? ""
    vsCurrency = row.text(offset + 3) ?? ""
  }

  static let columns = "s.id, s.fetched_at, s.source, s.vs_currency"
}

/// A quote as stored, with the snapshot it belongs to.
public struct StoredQuote: Equatable, Sendable {
  public let quote: MarketQuote
  public let snapshot: MarketSnapshotRef

  public var coinID: String { quote.id }
  public var price: ExactDecimal { quote.currentPrice }
  /// The time of the snapshot the price comes from.
  public var snapshotAt: String { snapshot.fetchedAt }
  public var change24hPercent: ExactDecimal? { quote.change24hPercent }
  /// The 7-day hourly prices, oldest first; empty when the snapshot had no sparkline.
  public var sparkline: [ExactDecimal?] { quote.sparkline7d ?? [] }
}

/// A stored /global snapshot.
public struct GlobalSnapshot: Equatable, Sendable {
  public let id: Int64
  public let fetchedAt: String
  public let source: String
  public let data: GlobalData
}

/// A stored /coins/{id} detail.
public struct StoredCoinDetail: Equatable, Sendable {
  public let detail: CoinDetail
  public let fetchedAt: String
  public let source: String
}

// MARK: - SQL

/// The SQL of the market tables (migrations/0004_market_data.sql), next to the records above.
enum MarketRecords {
  // MARK: Coins

  /// Inserts or updates a coin; an update only happens when `at` is not older than the fetch
  /// that last wrote the row, so importing an old file does not undo a newer name.
  static func upsertCoin(
    _ database: Database, id: String, symbol: String, name: String, imageURL: String?, at: String
  ) throws {
    try database.execute(
      """
      INSERT INTO coins (id, symbol, name, image_url, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET symbol = excluded.symbol, name = excluded.name,
        image_url = coalesce(excluded.image_url, coins.image_url), updated_at = excluded.updated_at
      WHERE excluded.updated_at >= coins.updated_at
      """, [id, symbol, name, imageURL, at])
  }

  /// Adds a coin known only from a detail without symbol or name, unless it exists.
  static func insertCoinIfMissing(
    _ database: Database, id: String, symbol: String, name: String, imageURL: String?, at: String
  ) throws {
    try database.execute(
      """
      INSERT INTO coins (id, symbol, name, image_url, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO NOTHING
      """, [id, symbol, name, imageURL, at])
  }

  static func coin(_ database: Database, id: String) throws -> CoinRecord? {
    try database.row("SELECT \(CoinRecord.columns) FROM coins WHERE id = ?", [id]) {
      CoinRecord(row: $0)
    }
  }

  /// The ids of the coins whose symbol is `symbol`, ignoring case.
  static func coinIDs(_ database: Database, symbol: String) throws -> [String] {
    try database.rows(
      "SELECT id FROM coins WHERE symbol = ? COLLATE NOCASE ORDER BY id", [symbol]
    ) { $0.text(0) ?? "" }
  }

  // MARK: Market snapshots

  /// The snapshot of `vsCurrency` at `fetchedAt`, created when there is none:
  /// the id and whether it was created.
  static func snapshot(
    _ database: Database, vsCurrency: String, fetchedAt: String, source: String
  ) throws -> (id: Int64, created: Bool) {
    if let id = try database.scalarInt(
      "SELECT id FROM market_snapshots WHERE vs_currency = ? AND fetched_at = ?",
      [vsCurrency, fetchedAt])
    {
      return (id, false)
    }
    try database.execute(
      "INSERT INTO market_snapshots (fetched_at, source, vs_currency) VALUES (?, ?, ?)",
      [fetchedAt, source, vsCurrency])
    return (database.lastInsertRowID, true)
  }

  /// The quote columns in the order `quoteValues` binds them and `quote(row:)` reads them.
  static let quoteColumns = [
    "current_price", "market_cap", "market_cap_rank", "fully_diluted_valuation", "total_volume",
    "high_24h", "low_24h", "price_change_24h", "price_change_percentage_24h",
    "market_cap_change_24h", "market_cap_change_percentage_24h", "circulating_supply",
    "total_supply", "max_supply", "ath", "ath_change_percentage", "ath_date", "atl",
    "atl_change_percentage", "atl_date", "roi_times", "roi_currency", "roi_percentage",
    "last_updated", "price_change_percentage_24h_in_currency", "sparkline_7d",
  ]

  static func quoteValues(_ quote: MarketQuote) -> [any SQLBindable] {
    [
      quote.currentPrice, quote.marketCap, quote.marketCapRank, quote.fullyDilutedValuation,
      quote.totalVolume, quote.high24h, quote.low24h, quote.priceChange24h,
      quote.priceChangePercentage24h, quote.marketCapChange24h,
      quote.marketCapChangePercentage24h, quote.circulatingSupply, quote.totalSupply,
      quote.maxSupply, quote.ath, quote.athChangePercentage, quote.athDate, quote.atl,
      quote.atlChangePercentage, quote.atlDate, quote.roiTimes, quote.roiCurrency,
      quote.roiPercentage, quote.lastUpdated, quote.priceChangePercentage24hInCurrency,
      quote.sparkline7d.map(sparklineText),
    ]
  }

  /// Inserts a quote unless the snapshot already holds one for the coin; true when inserted.
  static func insertQuote(_ database: Database, snapshotID: Int64, _ quote: MarketQuote) throws
    -> Bool
  {
    let placeholders = Array(repeating: "?", count: quoteColumns.count + 2).joined(separator: ", ")
    try database.execute(
      """
      INSERT INTO market_quotes (snapshot_id, coin_id, \(quoteColumns.joined(separator: ", ")))
      VALUES (\(placeholders)) ON CONFLICT (snapshot_id, coin_id) DO NOTHING
      """, [snapshotID, quote.id] + quoteValues(quote))
    return database.changes > 0
  }

  /// Columns for a full stored quote: coin (4), snapshot (4), then `quoteColumns`.
  private static var storedQuoteSelect: String {
    "SELECT c.id, c.symbol, c.name, c.image_url, \(MarketSnapshotRef.columns), "
      + quoteColumns.map { "q." + $0 }.joined(separator: ", ")
      + " FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id"
      + " JOIN coins c ON c.id = q.coin_id"
  }

  static func storedQuote(row: Row) throws -> StoredQuote {
    let coin = CoinRecord(row: row)
    let snapshot = MarketSnapshotRef(row: row, at: 4)
    var index: Int32 = 8
    func next() -> Int32 {
      defer { index += 1 }
      return index
    }
    let price = try row.decimal(next()) ?? .zero
    var quote = MarketQuote(id: coin.id, symbol: coin.symbol, name: coin.name, currentPrice: price)
    quote.imageURL = coin.imageURL
    quote.marketCap = try row.decimal(next())
    quote.marketCapRank = row.int(next()).map { Int($0) }
    quote.fullyDilutedValuation = try row.decimal(next())
    quote.totalVolume = try row.decimal(next())
    quote.high24h = try row.decimal(next())
    quote.low24h = try row.decimal(next())
    quote.priceChange24h = try row.decimal(next())
    quote.priceChangePercentage24h = try row.decimal(next())
    quote.marketCapChange24h = try row.decimal(next())
    quote.marketCapChangePercentage24h = try row.decimal(next())
    quote.circulatingSupply = try row.decimal(next())
    quote.totalSupply = try row.decimal(next())
    quote.maxSupply = try row.decimal(next())
    quote.ath = try row.decimal(next())
    quote.athChangePercentage = try row.decimal(next())
    quote.athDate = row.text(next())
    quote.atl = try row.decimal(next())
    quote.atlChangePercentage = try row.decimal(next())
    quote.atlDate = row.text(next())
    quote.roiTimes = try row.decimal(next())
    quote.roiCurrency = row.text(next())
    quote.roiPercentage = try row.decimal(next())
    quote.lastUpdated = row.text(next())
    quote.priceChangePercentage24hInCurrency = try row.decimal(next())
    quote.sparkline7d = row.text(next()).map(sparkline)
    return StoredQuote(quote: quote, snapshot: snapshot)
  }

  /// The newest snapshot of `vsCurrency` (by time, then by id).
  static func latestSnapshot(_ database: Database, vsCurrency: String) throws -> MarketSnapshotRef?
  {
    try database.row(
      """
      SELECT \(MarketSnapshotRef.columns) FROM market_snapshots s WHERE s.vs_currency = ?
      ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
      """, [vsCurrency]
    ) { MarketSnapshotRef(row: $0) }
  }

  /// The newest snapshot of `vsCurrency` fetched before `before` (a UTC ISO-8601 time).
  static func latestSnapshot(_ database: Database, vsCurrency: String, before: String) throws
    -> MarketSnapshotRef?
  {
    try database.row(
      """
      SELECT \(MarketSnapshotRef.columns) FROM market_snapshots s
      WHERE s.vs_currency = ? AND s.fetched_at < ?
      ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
      """, [vsCurrency, before]
    ) { MarketSnapshotRef(row: $0) }
  }

  /// The newest quote of each of `coinIDs` in `vsCurrency`, from whichever snapshot fetched
  /// before `before` (nil: at any time) holds it; coins without one are absent.
  static func latestQuotes(
    _ database: Database, coinIDs: [String], vsCurrency: String, before: String?
  ) throws -> [String: StoredQuote] {
    var result: [String: StoredQuote] = [:]
    for id in Set(coinIDs) {
      let quote = try database.row(
        storedQuoteSelect
          + """
           WHERE q.coin_id = ?1 AND s.vs_currency = ?2 AND (?3 IS NULL OR s.fetched_at < ?3)
          ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
          """, [id, vsCurrency, before], storedQuote)
      if let quote { result[id] = quote }
    }
    return result
  }

  /// The newest price of each of `coinIDs` in `vsCurrency` from snapshots fetched before
  /// `before` (and, given `notBefore`, at or after it): `latestQuotes` without the other
  /// columns, for reading many days quickly.
  static func latestPrices(
    _ database: Database, coinIDs: [String], vsCurrency: String, before: String,
    notBefore: String? = nil
  ) throws -> [String: ExactDecimal] {
    var result: [String: ExactDecimal] = [:]
    for id in Set(coinIDs) {
      let price = try database.row(
        """
        SELECT q.current_price FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id
        WHERE q.coin_id = ?1 AND s.vs_currency = ?2 AND s.fetched_at < ?3
          AND (?4 IS NULL OR s.fetched_at >= ?4)
        ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
        """, [id, vsCurrency, before, notBefore]
      ) { try $0.decimal(0) }
      if let price = price ?? nil { result[id] = price }
    }
    return result
  }

  /// Every quote of one snapshot, by rank (unranked last), then id.
  static func quotes(_ database: Database, snapshotID: Int64) throws -> [StoredQuote] {
    try database.rows(
      storedQuoteSelect
        + " WHERE q.snapshot_id = ? ORDER BY q.market_cap_rank IS NULL, q.market_cap_rank, c.id",
      [snapshotID], storedQuote)
  }

  /// The newest quote of `coinID` in `vsCurrency`, from whichever snapshot holds it.
  static func latestQuote(_ database: Database, coinID: String, vsCurrency: String) throws
    -> StoredQuote?
  {
    try database.row(
      storedQuoteSelect
        + " WHERE q.coin_id = ? AND s.vs_currency = ? ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1",
      [coinID, vsCurrency], storedQuote)
  }

  /// The newest quote of every coin in `vsCurrency`.
  static func latestQuotes(_ database: Database, vsCurrency: String) throws -> [StoredQuote] {
    try database.rows(
      storedQuoteSelect
        + """
         WHERE s.vs_currency = ?1 AND s.id = (
          SELECT s2.id FROM market_quotes q2 JOIN market_snapshots s2 ON s2.id = q2.snapshot_id
          WHERE q2.coin_id = q.coin_id AND s2.vs_currency = ?1
          ORDER BY s2.fetched_at DESC, s2.id DESC LIMIT 1)
        ORDER BY c.id
        """, [vsCurrency], storedQuote)
  }

  /// Every quote of `coinID` in `vsCurrency` at or after `since`, oldest first.
  static func history(
    _ database: Database, coinID: String, vsCurrency: String, since: String?
  ) throws -> [StoredQuote] {
    try database.rows(
      storedQuoteSelect
        + """
         WHERE q.coin_id = ? AND s.vs_currency = ? AND (?3 IS NULL OR s.fetched_at >= ?3)
        ORDER BY s.fetched_at, s.id
        """, [coinID, vsCurrency, since], storedQuote)
  }

  /// How many quotes a snapshot holds.
  static func quoteCount(_ database: Database, snapshotID: Int64) throws -> Int {
    Int(
      try database.scalarInt(
        "SELECT count(*) FROM market_quotes WHERE snapshot_id = ?", [snapshotID]) ?? 0)
  }

  // MARK: Sparkline text

  /// `[1.5,2,null]`: a JSON array of canonical decimals.
  static func sparklineText(_ points: [ExactDecimal?]) -> String {
    "[" + points.map { $0?.description ?? "null" }.joined(separator: ",") + "]"
  }

  /// Reads `sparklineText`'s format back; anything unreadable becomes a nil point.
  static func sparkline(_ text: String) -> [ExactDecimal?] {
    guard let items = (try? JSONValue.parse(text))?.arrayValue else { return [] }
    return items.map { item in item.numberText.flatMap { JSONDecimal.convert($0).value } }
  }

  // MARK: Global snapshots

  /// Inserts a /global snapshot unless one exists at `fetchedAt`; true when inserted.
  static func insertGlobal(
    _ database: Database, _ data: GlobalData, fetchedAt: String, source: String
  ) throws -> Bool {
    try database.execute(
      """
      INSERT INTO global_snapshots (fetched_at, source, updated_at,
        market_cap_change_percentage_24h_usd, active_cryptocurrencies, markets)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (fetched_at) DO NOTHING
      """,
      [
        fetchedAt, source, data.updatedAt, data.marketCapChangePercentage24hUSD,
        data.activeCryptocurrencies, data.markets,
      ])
    guard database.changes > 0 else { return false }
    let id = database.lastInsertRowID
    for total in data.totals {
      try database.execute(
        """
        INSERT INTO global_totals (snapshot_id, currency, total_market_cap, total_volume)
        VALUES (?, ?, ?, ?)
        """, [id, total.currency, total.marketCap, total.volume])
    }
    for share in data.marketCapPercentages {
      try database.execute(
        """
        INSERT INTO global_market_cap_percentages (snapshot_id, symbol, percentage)
        VALUES (?, ?, ?)
        """, [id, share.symbol, share.percentage])
    }
    return true
  }

  /// The newest /global snapshot, or with `before` the newest one fetched before that time.
  static func latestGlobal(_ database: Database, before: String? = nil) throws -> GlobalSnapshot? {
    guard
      let head = try database.row(
        """
        SELECT id, fetched_at, source, updated_at, market_cap_change_percentage_24h_usd,
          active_cryptocurrencies, markets
        FROM global_snapshots WHERE ?1 IS NULL OR fetched_at < ?1
        ORDER BY fetched_at DESC, id DESC LIMIT 1
        """,
        [before],
        { row throws in
          (
            id: row.int(0) ?? 0, fetchedAt: row.text(1) ?? "", source: row.text(2) ?? "",
            updatedAt: row.text(3), change: try row.decimal(4), active: row.int(5),
            markets: row.int(6)
          )
        })
    else { return nil }
    var data = GlobalData()
    data.updatedAt = head.updatedAt
    data.marketCapChangePercentage24hUSD = head.change
    data.activeCryptocurrencies = head.active.map { Int($0) }
    data.markets = head.markets.map { Int($0) }
    data.totals = try database.rows(
      """
      SELECT currency, total_market_cap, total_volume FROM global_totals
      WHERE snapshot_id = ? ORDER BY currency
      """, [head.id]
    ) { row in
      GlobalTotal(
        currency: row.text(0) ?? "", marketCap: try row.decimal(1), volume: try row.decimal(2))
    }
    data.marketCapPercentages = try database.rows(
      """
      SELECT symbol, percentage FROM global_market_cap_percentages
      WHERE snapshot_id = ? ORDER BY CAST(percentage AS REAL) DESC, symbol
      """, [head.id]
    ) { row in MarketCapShare(symbol: row.text(0) ?? "", percentage: try row.decimal(1) ?? .zero) }
    return GlobalSnapshot(id: head.id, fetchedAt: head.fetchedAt, source: head.source, data: data)
  }

  // MARK: Coin details

  /// Inserts a coin detail unless one exists for the coin at `fetchedAt`; true when inserted.
  static func insertDetail(
    _ database: Database, _ detail: CoinDetail, fetchedAt: String, source: String
  ) throws -> Bool {
    try database.execute(
      """
      INSERT INTO coin_details (coin_id, fetched_at, source, block_time_in_minutes,
        hashing_algorithm, description, homepage, subreddit_url)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (coin_id, fetched_at) DO NOTHING
      """,
      [
        detail.id, fetchedAt, source, detail.blockTimeInMinutes, detail.hashingAlgorithm,
        detail.description, detail.homepage, detail.subredditURL,
      ])
    return database.changes > 0
  }

  /// The newest detail of `coinID`.
  static func latestDetail(_ database: Database, coinID: String) throws -> StoredCoinDetail? {
    try database.row(
      """
      SELECT d.coin_id, c.symbol, c.name, c.image_url, d.block_time_in_minutes,
        d.hashing_algorithm, d.description, d.homepage, d.subreddit_url, d.fetched_at, d.source
      FROM coin_details d JOIN coins c ON c.id = d.coin_id
      WHERE d.coin_id = ? ORDER BY d.fetched_at DESC, d.id DESC LIMIT 1
      """, [coinID]
    ) { row in
      var detail = CoinDetail(id: row.text(0) ?? "")
      detail.symbol = row.text(1)
      detail.name = row.text(2)
      detail.imageURL = row.text(3)
      detail.blockTimeInMinutes = try row.decimal(4)
      detail.hashingAlgorithm = row.text(5)
      detail.description = row.text(6)
      detail.homepage = row.text(7)
      detail.subredditURL = row.text(8)
      return StoredCoinDetail(
        detail: detail, fetchedAt: row.text(9) ?? "", source: row.text(10) ?? "")
    }
  }

  // MARK: Pruning

  /// What `prune` removed.
  struct PruneCounts {
    var marketSnapshots = 0
    var quotes = 0
    var globalSnapshots = 0
    var coinDetails = 0
  }

  /// Removes snapshots and details fetched before `cutoff`, keeping the newest market snapshot
  /// of each currency, the newest /global snapshot and the newest detail of each coin.
  static func prune(_ database: Database, before cutoff: String) throws -> PruneCounts {
    var counts = PruneCounts()
    let doomedMarkets = """
      SELECT s.id FROM market_snapshots s WHERE s.fetched_at < ?1 AND s.id <> (
        SELECT l.id FROM market_snapshots l WHERE l.vs_currency = s.vs_currency
        ORDER BY l.fetched_at DESC, l.id DESC LIMIT 1)
      """
    try database.execute(
      "DELETE FROM market_quotes WHERE snapshot_id IN (\(doomedMarkets))", [cutoff])
    counts.quotes = database.changes
    try database.execute("DELETE FROM market_snapshots WHERE id IN (\(doomedMarkets))", [cutoff])
    counts.marketSnapshots = database.changes
    let doomedGlobals = """
      SELECT g.id FROM global_snapshots g WHERE g.fetched_at < ?1 AND g.id <> (
        SELECT l.id FROM global_snapshots l ORDER BY l.fetched_at DESC, l.id DESC LIMIT 1)
      """
    try database.execute(
      "DELETE FROM global_totals WHERE snapshot_id IN (\(doomedGlobals))", [cutoff])
    try database.execute(
      "DELETE FROM global_market_cap_percentages WHERE snapshot_id IN (\(doomedGlobals))",
      [cutoff])
    try database.execute("DELETE FROM global_snapshots WHERE id IN (\(doomedGlobals))", [cutoff])
    counts.globalSnapshots = database.changes
    try database.execute(
      """
      DELETE FROM coin_details WHERE id IN (
        SELECT d.id FROM coin_details d WHERE d.fetched_at < ?1 AND d.id <> (
          SELECT l.id FROM coin_details l WHERE l.coin_id = d.coin_id
          ORDER BY l.fetched_at DESC, l.id DESC LIMIT 1))
      """, [cutoff])
    counts.coinDetails = database.changes
    return counts
  }
}
