/// One coin's closing price of one UTC day in one currency (a row of `daily_prices`,
/// migrations/0009_daily_prices.sql).
public struct DailyPrice: Equatable, Sendable {
  public let coinID: String
  public let vsCurrency: String
  /// `YYYY-MM-DD` (UTC).
  public let day: String
  /// Above zero.
  public let price: ExactDecimal
  /// The time of the series' point the price is: after the day's start, at most its end.
  public let pricedAt: String
  /// The API root it was fetched from, or `import:` and the file.
  public let source: String
  public let fetchedAt: String

  public init(
    coinID: String, vsCurrency: String, day: String, price: ExactDecimal, pricedAt: String,
    source: String, fetchedAt: String
  ) {
    (
      self.coinID, self.vsCurrency, self.day, self.price, self.pricedAt, self.source,
      self.fetchedAt
    ) = (coinID, vsCurrency, day, price, pricedAt, source, fetchedAt)
  }

  static let columns = "coin_id, vs_currency, day, price, priced_at, source, fetched_at"

  init(row: Row) throws {
    (coinID, vsCurrency, day, price, pricedAt, source, fetchedAt) = (
      try row["coin_id"], try row["vs_currency"], try row["day"], try row["price"],
      try row["priced_at"], try row["source"], try row["fetched_at"]
    )
  }
}

/// The SQL of `daily_prices` and `daily_price_fetches`.
public enum DailyPriceRecords {
  /// Inserts the price unless the coin already has one for the day in the currency; true when
  /// inserted. A day is stored once: fetching or importing it again changes nothing.
  public static func insert(_ database: Database, _ price: DailyPrice) throws -> Bool {
    try database.execute(
      """
      INSERT INTO daily_prices (\(DailyPrice.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (coin_id, vs_currency, day) DO NOTHING
      """,
      [
        price.coinID, price.vsCurrency, price.day, price.price, price.pricedAt, price.source,
        price.fetchedAt,
      ])
    return database.changes > 0
  }

  /// Records that CoinGecko was asked for the days `first` through `last` and answered.
  public static func recordFetch(
    _ database: Database, coinID: String, vsCurrency: String, first: String, last: String,
    source: String, fetchedAt: String
  ) throws {
    try database.execute(
      """
      INSERT INTO daily_price_fetches (coin_id, vs_currency, first_day, last_day, source,
        fetched_at) VALUES (?, ?, ?, ?, ?, ?)
      """, [coinID, vsCurrency, first, last, source, fetchedAt])
  }

  /// The days from `from` through `through` that hold a price of the coin or lie in a range
  /// already fetched: the days not to ask for again.
  public static func knownDays(
    _ database: Database, coinID: String, vsCurrency: String, from: String, through: String
  ) throws -> (priced: Set<String>, fetched: [(first: String, last: String)]) {
    let priced = try database.rows(
      """
      SELECT day FROM daily_prices
      WHERE coin_id = ?1 AND vs_currency = ?2 AND day >= ?3 AND day <= ?4
      """, [coinID, vsCurrency, from, through]
    ) { try $0["day"] as String }
    let fetched = try database.rows(
      """
      SELECT first_day, last_day FROM daily_price_fetches
      WHERE coin_id = ?1 AND vs_currency = ?2 AND first_day <= ?4 AND last_day >= ?3
      ORDER BY first_day
      """, [coinID, vsCurrency, from, through]
    ) { row in (first: try row["first_day"] as String, last: try row["last_day"] as String) }
    return (Set(priced), fetched)
  }

  /// The closing price of each of `coinIDs` on `day` in `vsCurrency`; coins without one are
  /// absent.
  public static func prices(
    _ database: Database, coinIDs: [String], vsCurrency: String, day: String
  ) throws -> [String: DailyPrice] {
    var result: [String: DailyPrice] = [:]
    for id in Set(coinIDs) {
      let price = try database.row(
        """
        SELECT \(DailyPrice.columns) FROM daily_prices
        WHERE coin_id = ? AND vs_currency = ? AND day = ?
        """, [id, vsCurrency, day], DailyPrice.init(row:))
      if let price { result[id] = price }
    }
    return result
  }

  /// The newest closing price of each of `coinIDs` in `vsCurrency` on a day from `from` through
  /// `through` (inclusive); coins without one are absent.
  public static func latestPrices(
    _ database: Database, coinIDs: [String], vsCurrency: String, from: String, through: String
  ) throws -> [String: DailyPrice] {
    var result: [String: DailyPrice] = [:]
    for id in Set(coinIDs) {
      let price = try database.row(
        """
        SELECT \(DailyPrice.columns) FROM daily_prices
        WHERE coin_id = ?1 AND vs_currency = ?2 AND day >= ?3 AND day <= ?4
        ORDER BY day DESC LIMIT 1
        """, [id, vsCurrency, from, through], DailyPrice.init(row:))
      if let price { result[id] = price }
    }
    return result
  }

  /// The closing price of `coinID` in `vsCurrency` priced nearest `time` (its `priced_at`),
  /// at most `maxSeconds` away; of two as near, the earlier.
  public static func nearestPrice(
    _ database: Database, coinID: String, vsCurrency: String, time: String, maxSeconds: Int64
  ) throws -> (price: ExactDecimal, at: String, distance: Int64)? {
    try database.row(
      """
      SELECT price, priced_at, abs(unixepoch(priced_at) - unixepoch(?3)) AS distance
      FROM daily_prices
      WHERE coin_id = ?1 AND vs_currency = ?2
        AND abs(unixepoch(priced_at) - unixepoch(?3)) <= ?4
      ORDER BY distance, priced_at LIMIT 1
      """, [coinID, vsCurrency, time, maxSeconds]
    ) {
      (
        price: try $0["price"] as ExactDecimal, at: try $0["priced_at"] as String,
        distance: try $0["distance"] as Int64
      )
    }
  }

  /// The closing prices of `coinID` in `vsCurrency` from `from` (nil: all), oldest first.
  public static func history(
    _ database: Database, coinID: String, vsCurrency: String, from: String?
  ) throws -> [DailyPrice] {
    try database.rows(
      """
      SELECT \(DailyPrice.columns) FROM daily_prices
      WHERE coin_id = ?1 AND vs_currency = ?2 AND (?3 IS NULL OR day >= ?3) ORDER BY day
      """, [coinID, vsCurrency, from], DailyPrice.init(row:))
  }
}
