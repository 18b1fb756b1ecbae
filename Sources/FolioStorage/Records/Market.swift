import Foundation

// MARK: - Values

/// One coin's row of `GET /coins/markets`: every field the API returns. Only id, symbol and
/// name are required; every number may be missing or null. A coin without a price, or with a
/// price that is not above zero, is skipped when a page is read, so `currentPrice` is always
/// present and positive.
public struct MarketQuote: Equatable, Sendable {
  public var id: String
  public var symbol: String
  public var name: String
  public var imageURL: String?
  public var currentPrice: ExactDecimal
  public var marketCap: ExactDecimal?
  public var marketCapRank: Int?
  public var fullyDilutedValuation: ExactDecimal?
  public var totalVolume: ExactDecimal?
  public var high24h: ExactDecimal?
  public var low24h: ExactDecimal?
  public var priceChange24h: ExactDecimal?
  public var priceChangePercentage24h: ExactDecimal?
  public var marketCapChange24h: ExactDecimal?
  public var marketCapChangePercentage24h: ExactDecimal?
  public var circulatingSupply: ExactDecimal?
  public var totalSupply: ExactDecimal?
  public var maxSupply: ExactDecimal?
  public var ath: ExactDecimal?
  public var athChangePercentage: ExactDecimal?
  /// UTC ISO-8601, whole seconds.
  public var athDate: String?
  public var atl: ExactDecimal?
  public var atlChangePercentage: ExactDecimal?
  public var atlDate: String?
  public var roiTimes: ExactDecimal?
  public var roiCurrency: String?
  public var roiPercentage: ExactDecimal?
  public var lastUpdated: String?
  public var priceChangePercentage24hInCurrency: ExactDecimal?
  /// The hourly prices of the last 7 days (`sparkline_in_7d.price`), oldest first, as the
  /// text Folio stores; a null point stays `null`.
  public var sparkline7d: Sparkline?

  public init(id: String, symbol: String, name: String, currentPrice: ExactDecimal) {
    (self.id, self.symbol, self.name, self.currentPrice) = (id, symbol, name, currentPrice)
  }

  /// The 24h price change in percent: `price_change_percentage_24h`, else the
  /// `_in_currency` variant that `price_change_percentage=24h` adds.
  public var change24hPercent: ExactDecimal? {
    priceChangePercentage24h ?? priceChangePercentage24hInCurrency
  }
}

/// The totals of one currency in `GET /global`.
public struct GlobalTotal: Equatable, Sendable {
  public var currency: String
  public var marketCap: ExactDecimal?
  public var volume: ExactDecimal?

  public init(currency: String, marketCap: ExactDecimal?, volume: ExactDecimal?) {
    (self.currency, self.marketCap, self.volume) = (currency, marketCap, volume)
  }
}

/// One coin's share of the total market cap (`market_cap_percentage`).
public struct MarketCapShare: Equatable, Sendable {
  public var symbol: String
  public var percentage: ExactDecimal

  public init(symbol: String, percentage: ExactDecimal) {
    (self.symbol, self.percentage) = (symbol, percentage)
  }
}

/// `GET /global` → `data`.
public struct GlobalData: Equatable, Sendable {
  /// `total_market_cap` and `total_volume` per currency, in the order the API wrote them.
  public var totals: [GlobalTotal] = []
  public var marketCapPercentages: [MarketCapShare] = []
  public var marketCapChangePercentage24hUSD: ExactDecimal?
  /// `updated_at` (unix seconds) as UTC ISO-8601.
  public var updatedAt: String?
  public var activeCryptocurrencies: Int?
  public var markets: Int?

  public init() {}

  /// The total of `currency`, if the API gave one.
  public func total(_ currency: String) -> GlobalTotal? {
    totals.first { $0.currency == currency }
  }
}

/// `GET /coins/{id}`: the facts Folio keeps about a coin.
public struct CoinDetail: Equatable, Sendable {
  public var id: String
  public var symbol: String?
  public var name: String?
  public var imageURL: String?
  public var blockTimeInMinutes: ExactDecimal?
  public var hashingAlgorithm: String?
  /// `description.en` with its HTML tags stripped.
  public var description: String?
  /// `links.homepage[0]` (the first non-empty entry).
  public var homepage: String?
  public var subredditURL: String?
  public var lastUpdated: String?

  public init(id: String) { self.id = id }
}

// MARK: - Records

/// A coin of the `coins` table.
public struct CoinRecord: Equatable, Sendable {
  public let id: String
  public let symbol: String
  public let name: String
  public let imageURL: String?

  public init(row: Row) throws {
    (id, symbol, name, imageURL) = (
      try row["id"], try row["symbol"], try row["name"], try row["image_url"]
    )
  }

  public static let columns = "id, symbol, name, image_url"
}

/// A stored market snapshot: one fetch or import of /coins/markets in one currency.
public struct MarketSnapshotRef: Equatable, Sendable {
  public let id: Int64
  /// When the data was fetched (or the time the import gave it), UTC ISO-8601.
  public let fetchedAt: String
  /// The API base URL, or `import:<file>`.
  public let source: String
  public let vsCurrency: String

  public init(row: Row) throws {
    (id, fetchedAt, source, vsCurrency) = (
      try row["snapshot_id"], try row["fetched_at"], try row["source"], try row["vs_currency"]
    )
  }

  public static let columns = "s.id AS snapshot_id, s.fetched_at, s.source, s.vs_currency"
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
  public var sparkline: [ExactDecimal?] { quote.sparkline7d?.points ?? [] }
}

/// A stored /global snapshot.
public struct GlobalSnapshot: Equatable, Sendable {
  public let id: Int64
  public let fetchedAt: String
  public let source: String
  public let data: GlobalData

  public init(id: Int64, fetchedAt: String, source: String, data: GlobalData) {
    (self.id, self.fetchedAt, self.source, self.data) = (id, fetchedAt, source, data)
  }
}

/// A stored /coins/{id} detail.
public struct StoredCoinDetail: Equatable, Sendable {
  public let detail: CoinDetail
  public let fetchedAt: String
  public let source: String
}

// MARK: - SQL

/// The SQL of the market tables (migrations/0004_market_data.sql), next to the records above.
public enum MarketRecords {
  /// The longest symbol and name the `coins` table takes (its CHECKs), in characters.
  public static let symbolLimit = 100
  public static let nameLimit = 200

  // MARK: Coins

  /// Inserts or updates a coin; an update only happens when `at` is not older than the fetch
  /// that last wrote the row, so importing an old file does not undo a newer name.
  /// A `rank` of nil keeps the rank the coin has.
  public static func upsertCoin(
    _ database: Database, id: String, symbol: String, name: String, imageURL: String?,
    rank: Int? = nil, at: String
  ) throws {
    try database.execute(
      """
      INSERT INTO coins (id, symbol, name, image_url, market_cap_rank, updated_at)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET symbol = excluded.symbol, name = excluded.name,
        image_url = coalesce(excluded.image_url, coins.image_url),
        market_cap_rank = coalesce(excluded.market_cap_rank, coins.market_cap_rank),
        updated_at = excluded.updated_at
      WHERE excluded.updated_at >= coins.updated_at
      """, [id, symbol, name, imageURL, rank.flatMap { $0 >= 1 ? $0 : nil }, at])
  }

  /// Adds a coin known only from a detail without symbol or name, unless it exists.
  public static func insertCoinIfMissing(
    _ database: Database, id: String, symbol: String, name: String, imageURL: String?, at: String
  ) throws {
    try database.execute(
      """
      INSERT INTO coins (id, symbol, name, image_url, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO NOTHING
      """, [id, symbol, name, imageURL, at])
  }

  public static func coin(_ database: Database, id: String) throws -> CoinRecord? {
    try database.row("SELECT \(CoinRecord.columns) FROM coins WHERE id = ?", [id]) {
      try CoinRecord(row: $0)
    }
  }

  // MARK: Market snapshots

  /// The snapshot of `vsCurrency` at `fetchedAt`, created when there is none:
  /// the id and whether it was created.
  public static func snapshot(
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

  /// The quote columns in the order `insertQuote` binds them and `storedQuote(row:)` reads them.
  public static let quoteColumns = [
    "current_price", "market_cap", "market_cap_rank", "fully_diluted_valuation", "total_volume",
    "high_24h", "low_24h", "price_change_24h", "price_change_percentage_24h",
    "market_cap_change_24h", "market_cap_change_percentage_24h", "circulating_supply",
    "total_supply", "max_supply", "ath", "ath_change_percentage", "ath_date", "atl",
    "atl_change_percentage", "atl_date", "roi_times", "roi_currency", "roi_percentage",
    "last_updated", "price_change_percentage_24h_in_currency", "sparkline_7d",
  ]

  /// Inserts a quote unless the snapshot already holds one for the coin; true when inserted.
  public static func insertQuote(_ database: Database, snapshotID: Int64, _ quote: MarketQuote)
    throws
    -> Bool
  {
    // The cached statement, its values not boxed: it runs for every coin of a page. After the
    // key, the values of `quoteColumns`, in that order.
    try database.cached(insertQuoteSQL).run(
      snapshotID, quote.id, quote.currentPrice, quote.marketCap, quote.marketCapRank,
      quote.fullyDilutedValuation, quote.totalVolume, quote.high24h, quote.low24h,
      quote.priceChange24h, quote.priceChangePercentage24h, quote.marketCapChange24h,
      quote.marketCapChangePercentage24h, quote.circulatingSupply, quote.totalSupply,
      quote.maxSupply, quote.ath, quote.athChangePercentage, quote.athDate, quote.atl,
      quote.atlChangePercentage, quote.atlDate, quote.roiTimes, quote.roiCurrency,
      quote.roiPercentage, quote.lastUpdated, quote.priceChangePercentage24hInCurrency,
      quote.sparkline7d?.text)
    return database.changes > 0
  }

  /// Built once: `insertQuote` runs for every coin of a page.
  private static let insertQuoteSQL = """
    INSERT INTO market_quotes (snapshot_id, coin_id, \(quoteColumns.joined(separator: ", ")))
    VALUES (\(Array(repeating: "?", count: quoteColumns.count + 2).joined(separator: ", ")))
    ON CONFLICT (snapshot_id, coin_id) DO NOTHING
    """

  /// Columns for a full stored quote: coin (4), snapshot (4), then `quoteColumns`.
  private static var storedQuoteSelect: String {
    "SELECT c.id, c.symbol, c.name, c.image_url, \(MarketSnapshotRef.columns), "
      + quoteColumns.map { "q." + $0 }.joined(separator: ", ")
      + " FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id"
      + " JOIN coins c ON c.id = q.coin_id"
  }

  public static func storedQuote(row: Row) throws -> StoredQuote {
    let coin = try CoinRecord(row: row)
    let snapshot = try MarketSnapshotRef(row: row)
    var quote = MarketQuote(
      id: coin.id, symbol: coin.symbol, name: coin.name, currentPrice: try row["current_price"])
    quote.imageURL = coin.imageURL
    quote.marketCap = try row["market_cap"]
    quote.marketCapRank = try row["market_cap_rank"]
    quote.fullyDilutedValuation = try row["fully_diluted_valuation"]
    quote.totalVolume = try row["total_volume"]
    quote.high24h = try row["high_24h"]
    quote.low24h = try row["low_24h"]
    quote.priceChange24h = try row["price_change_24h"]
    quote.priceChangePercentage24h = try row["price_change_percentage_24h"]
    quote.marketCapChange24h = try row["market_cap_change_24h"]
    quote.marketCapChangePercentage24h = try row["market_cap_change_percentage_24h"]
    quote.circulatingSupply = try row["circulating_supply"]
    quote.totalSupply = try row["total_supply"]
    quote.maxSupply = try row["max_supply"]
    quote.ath = try row["ath"]
    quote.athChangePercentage = try row["ath_change_percentage"]
    quote.athDate = try row["ath_date"]
    quote.atl = try row["atl"]
    quote.atlChangePercentage = try row["atl_change_percentage"]
    quote.atlDate = try row["atl_date"]
    quote.roiTimes = try row["roi_times"]
    quote.roiCurrency = try row["roi_currency"]
    quote.roiPercentage = try row["roi_percentage"]
    quote.lastUpdated = try row["last_updated"]
    quote.priceChangePercentage24hInCurrency = try row["price_change_percentage_24h_in_currency"]
    quote.sparkline7d = try row["sparkline_7d"]
    return StoredQuote(quote: quote, snapshot: snapshot)
  }

  /// The newest snapshot of `vsCurrency` (by time, then by id), or with `before` (a UTC
  /// ISO-8601 time) the newest one fetched before then.
  public static func latestSnapshot(
    _ database: Database, vsCurrency: String, before: String? = nil
  ) throws -> MarketSnapshotRef? {
    try database.row(
      """
      SELECT \(MarketSnapshotRef.columns) FROM market_snapshots s
      WHERE s.vs_currency = ?1 AND (?2 IS NULL OR s.fetched_at < ?2)
      ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
      """, [vsCurrency, before]
    ) { try MarketSnapshotRef(row: $0) }
  }

  /// The newest quote of each of `coinIDs` in `vsCurrency`, from whichever snapshot fetched
  /// before `before` (nil: at any time) holds it; coins without one are absent.
  public static func latestQuotes(
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
  /// `before` (and, given `notBefore`, at or after it), with its snapshot's time:
  /// `latestQuotes` without the other columns, for reading many days quickly.
  public static func latestPrices(
    _ database: Database, coinIDs: [String], vsCurrency: String, before: String,
    notBefore: String? = nil
  ) throws -> [String: (price: ExactDecimal, at: String)] {
    var result: [String: (price: ExactDecimal, at: String)] = [:]
    for id in Set(coinIDs) {
      let price = try database.row(
        """
        SELECT q.current_price, s.fetched_at
        FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id
        WHERE q.coin_id = ?1 AND s.vs_currency = ?2 AND s.fetched_at < ?3
          AND (?4 IS NULL OR s.fetched_at >= ?4)
        ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1
        """, [id, vsCurrency, before, notBefore]
      ) { (price: try $0["current_price"] as ExactDecimal, at: try $0["fetched_at"] as String) }
      if let price { result[id] = price }
    }
    return result
  }

  /// The cached quote of `coinID` in `vsCurrency` whose snapshot is nearest `time`, no more than
  /// `maxSeconds` away (the earlier one of two as near): its price, time and distance in seconds.
  public static func nearestPrice(
    _ database: Database, coinID: String, vsCurrency: String, time: String, maxSeconds: Int64
  ) throws -> (price: ExactDecimal, at: String, distance: Int64)? {
    try database.row(
      """
      SELECT q.current_price, s.fetched_at,
        abs(unixepoch(s.fetched_at) - unixepoch(?3)) AS distance
      FROM market_quotes q JOIN market_snapshots s ON s.id = q.snapshot_id
      WHERE q.coin_id = ?1 AND s.vs_currency = ?2 AND abs(unixepoch(s.fetched_at) - unixepoch(?3)) <= ?4
      ORDER BY distance, s.fetched_at, s.id LIMIT 1
      """, [coinID, vsCurrency, time, maxSeconds]
    ) {
      (
        price: try $0["current_price"] as ExactDecimal, at: try $0["fetched_at"] as String,
        distance: try $0["distance"] as Int64
      )
    }
  }

  /// Every quote of one snapshot, by rank (unranked last), then id.
  public static func quotes(_ database: Database, snapshotID: Int64) throws -> [StoredQuote] {
    try database.rows(
      storedQuoteSelect
        + " WHERE q.snapshot_id = ? ORDER BY q.market_cap_rank IS NULL, q.market_cap_rank, c.id",
      [snapshotID], storedQuote)
  }

  /// The newest quote of `coinID` in `vsCurrency`, from whichever snapshot holds it.
  public static func latestQuote(_ database: Database, coinID: String, vsCurrency: String) throws
    -> StoredQuote?
  {
    try database.row(
      storedQuoteSelect
        + " WHERE q.coin_id = ? AND s.vs_currency = ? ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1",
      [coinID, vsCurrency], storedQuote)
  }

  /// The newest quote of every coin in `vsCurrency`.
  public static func latestQuotes(_ database: Database, vsCurrency: String) throws -> [StoredQuote]
  {
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
  public static func history(
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
  public static func quoteCount(_ database: Database, snapshotID: Int64) throws -> Int {
    Int(
      try database.scalarInt(
        "SELECT count(*) FROM market_quotes WHERE snapshot_id = ?", [snapshotID]) ?? 0)
  }

  // MARK: Global snapshots

  /// Inserts a /global snapshot unless one exists at `fetchedAt`; true when inserted.
  public static func insertGlobal(
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
  public static func latestGlobal(_ database: Database, before: String? = nil) throws
    -> GlobalSnapshot?
  {
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
            id: try row["id"] as Int64, fetchedAt: try row["fetched_at"] as String,
            source: try row["source"] as String, updatedAt: try row["updated_at"] as String?,
            change: try row["market_cap_change_percentage_24h_usd"] as ExactDecimal?,
            active: try row["active_cryptocurrencies"] as Int?, markets: try row["markets"] as Int?
          )
        })
    else { return nil }
    var data = GlobalData()
    data.updatedAt = head.updatedAt
    data.marketCapChangePercentage24hUSD = head.change
    data.activeCryptocurrencies = head.active
    data.markets = head.markets
    data.totals = try database.rows(
      """
      SELECT currency, total_market_cap, total_volume FROM global_totals
      WHERE snapshot_id = ? ORDER BY currency
      """, [head.id]
    ) { row in
      GlobalTotal(
        currency: try row["currency"], marketCap: try row["total_market_cap"],
        volume: try row["total_volume"])
    }
    data.marketCapPercentages = try database.rows(
      """
      SELECT symbol, percentage FROM global_market_cap_percentages
      WHERE snapshot_id = ? ORDER BY CAST(percentage AS REAL) DESC, symbol
      """, [head.id]
    ) { MarketCapShare(symbol: try $0["symbol"], percentage: try $0["percentage"]) }
    return GlobalSnapshot(id: head.id, fetchedAt: head.fetchedAt, source: head.source, data: data)
  }

  // MARK: Coin details

  /// Inserts a coin detail unless one exists for the coin at `fetchedAt`; true when inserted.
  public static func insertDetail(
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
  public static func latestDetail(_ database: Database, coinID: String) throws -> StoredCoinDetail?
  {
    try database.row(
      """
      SELECT d.coin_id, c.symbol, c.name, c.image_url, d.block_time_in_minutes,
        d.hashing_algorithm, d.description, d.homepage, d.subreddit_url, d.fetched_at, d.source
      FROM coin_details d JOIN coins c ON c.id = d.coin_id
      WHERE d.coin_id = ? ORDER BY d.fetched_at DESC, d.id DESC LIMIT 1
      """, [coinID]
    ) { row in
      var detail = CoinDetail(id: try row["coin_id"])
      detail.symbol = try row["symbol"]
      detail.name = try row["name"]
      detail.imageURL = try row["image_url"]
      detail.blockTimeInMinutes = try row["block_time_in_minutes"]
      detail.hashingAlgorithm = try row["hashing_algorithm"]
      detail.description = try row["description"]
      detail.homepage = try row["homepage"]
      detail.subredditURL = try row["subreddit_url"]
      return StoredCoinDetail(
        detail: detail, fetchedAt: try row["fetched_at"], source: try row["source"])
    }
  }

  // MARK: Pruning

  /// What `prune` removed.
  public struct PruneCounts: Sendable {
    public var marketSnapshots = 0
    public var quotes = 0
    public var globalSnapshots = 0
    public var coinDetails = 0
  }

  /// Removes snapshots and details fetched before `cutoff`, keeping the newest market snapshot
  /// of each currency, the newest /global snapshot and the newest detail of each coin.
  public static func prune(_ database: Database, before cutoff: String) throws -> PruneCounts {
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
