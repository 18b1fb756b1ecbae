import FolioStorage
import Foundation

/// Made-up market history for the demo: from the fixture's /coins/markets page (today) it
/// walks each coin's price back day by day with a seeded random walk, and derives everything
/// else a snapshot holds from that path (24h changes, market caps, 24h high and low, the 7-day
/// hourly sparkline, the /global totals and shares). The same coin id and day always give the
/// same numbers, so the demo is deterministic apart from the clock.
struct DemoMarket {
  /// The fixture's coins as of today.
  let base: [MarketQuote]
  /// The fixture's /global data as of today.
  let global: GlobalData
  /// How many days back the history goes.
  let days: Int
  /// Snapshots up to this many days back carry a 7-day sparkline: today's for every coin,
  /// older ones for `sparklineCoins` (the coins the demo's reports show).
  static let sparklineDays = 31
  let sparklineCoins: Set<String>
  /// Today's snapshot time; day k (k ≥ 1 days back) is anchored at 12:00 UTC.
  let now: Date
  /// Unrounded price path per coin id: index k is k days back.
  private var paths: [String: [ExactDecimal]] = [:]
  /// Each path divided by today's price.
  private var factors: [String: [ExactDecimal]] = [:]
  /// The snapshot time of each day (index k is k days back), in seconds since 1970.
  private let anchors: [Int64]

  init(
    base: [MarketQuote], global: GlobalData, days: Int, now: Date, sparklineCoins: Set<String>
  ) throws {
    self.base = base
    self.sparklineCoins = sparklineCoins
    self.global = global
    self.days = days
    let start = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    self.now = start
    let today = CalendarDay(containing: start)
    anchors =
      [Int64(start.timeIntervalSince1970)]
      + (1...(days + 9)).map { (today.ordinal - Int64($0)) * 86_400 + 43_200 }
    for quote in base {
      var random = SplitMix64(hashing: quote.id)
      let volatility = Self.volatility(quote.symbol)
      var path = [quote.currentPrice]
      // Today's move is the fixture's own 24h change; older days are random.
      var ratio = try ExactDecimal.one + (quote.change24hPercent ?? .zero) / .hundred
      for _ in 1...(days + 9) {
        let last = path[path.count - 1]
        path.append(ratio.isPositive ? try last / ratio : last)
        // A daily move in basis points, with a slight upward drift for volatile coins.
        let step = random.next(in: -volatility...volatility) + (volatility > 50 ? 12 : 0)
        ratio = try ExactDecimal.one + ExactDecimal(step) / ExactDecimal(10_000)
      }
      paths[quote.id] = path
      factors[quote.id] = try path.map {
        quote.currentPrice.isPositive ? try $0 / quote.currentPrice : .one
      }
    }
  }

  /// A coin's typical daily move in basis points.
  static func volatility(_ symbol: String) -> Int {
    switch symbol.lowercased() {
    case "usdt", "usdc", "dai", "busd", "tusd": return 6
    case "btc", "wbtc": return 260
    case "eth", "steth": return 330
    default: return 480
    }
  }

  // MARK: - Times

  /// The snapshot time of day `k` (days back): now for today, else 12:00 UTC that day.
  func time(_ k: Int) -> Date {
    guard k > 0 else { return now }
    return CalendarDay(containing: now).adding(days: -k).start.date.addingTimeInterval(43_200)
  }

  // MARK: - Prices

  /// The price of `coinID` on day `k`, rounded to six significant digits (nil for an unknown
  /// coin or a day out of range).
  func price(_ coinID: String, daysBack k: Int) -> ExactDecimal? {
    guard let path = paths[coinID], k >= 0, k < path.count else { return nil }
    return Self.significant(path[k], digits: 6)
  }

  /// The unrounded ratio of day k's price to today's.
  private func factor(_ coinID: String, _ k: Int) -> ExactDecimal {
    guard let factors = factors[coinID], k < factors.count else { return .one }
    return factors[k]
  }

  /// `value` rounded half-to-even to `digits` significant digits.
  static func significant(_ value: ExactDecimal, digits: Int) -> ExactDecimal {
    guard !value.isZero else { return value }
    // units = value × 10^18, so a value of 1 has 19 digits of units: its exponent is 0.
    let places = digits - 1 - (String(value.magnitude.units).count - 19)
    return value.rounded(places: max(0, min(18, places)))
  }

  // MARK: - Snapshots

  /// The /coins/markets quotes of day `k`.
  func quotes(daysBack k: Int) throws -> [MarketQuote] {
    let at = time(k)
    let stamp = Timestamp.format(at)
    return try base.map { original in
      var quote = original
      guard let today = price(quote.id, daysBack: k), let before = price(quote.id, daysBack: k + 1)
      else { return quote }
      let scale = factor(quote.id, k)
      let scaleBefore = factor(quote.id, k + 1)
      quote.currentPrice = today
      let change =
        k == 0 && original.change24hPercent != nil
        ? original.change24hPercent
        : try ExactDecimal.scaled(today - before, by: .hundred, dividedBy: before).rounded(
          places: 5)
      quote.priceChangePercentage24h = change
      quote.priceChangePercentage24hInCurrency = change
      quote.priceChange24h = Self.significant(try today - before, digits: 6)
      if let cap = original.marketCap {
        let now = try (cap * scale).rounded(places: 0)
        let then = try (cap * scaleBefore).rounded(places: 0)
        quote.marketCap = now
        quote.marketCapChange24h = try now - then
        quote.marketCapChangePercentage24h =
          then.isPositive
          ? try ExactDecimal.scaled(now - then, by: .hundred, dividedBy: then).rounded(places: 5)
          : nil
      }
      quote.fullyDilutedValuation = try original.fullyDilutedValuation.map {
        try ($0 * scale).rounded(places: 0)
      }
      var random = SplitMix64(hashing: quote.id + "/volume/\(CalendarDay(containing: at))")
      quote.totalVolume = try original.totalVolume.map {
        guard k > 0 else { return $0 }
        return
          try ($0 * (ExactDecimal.one + ExactDecimal(random.next(in: -25...25)) / .hundred))
          .rounded(places: 0)
      }
      if let ath = original.ath, ath.isPositive {
        quote.athChangePercentage = try ExactDecimal.scaled(
          today - ath, by: .hundred, dividedBy: ath
        ).rounded(places: 5)
      }
      // Hourly prices for the last month's snapshots only: enough for every report of the
      // 30-day window, and writing them is most of the demo's work.
      if k == 0 || (k <= Self.sparklineDays && sparklineCoins.contains(quote.id)) {
        let hourly = sparkline(quote.id, symbol: quote.symbol, daysBack: k, price: today)
        quote.sparkline7d = Sparkline(hourly)
        let lastDay = hourly.suffix(24).compactMap { $0 }
        quote.high24h = lastDay.max()
        quote.low24h = lastDay.min()
      } else {
        quote.sparkline7d = nil
        quote.high24h = max(today, before)
        quote.low24h = min(today, before)
      }
      quote.lastUpdated = stamp
      return quote
    }
  }

  /// 168 hourly prices ending at day `k`'s snapshot with `price`: the daily path
  /// interpolated hour by hour, with a little seeded noise. Works on the values' 10⁻¹⁸ units
  /// with plain integer arithmetic, which stays far inside Int128 for these prices.
  private func sparkline(_ coinID: String, symbol: String, daysBack k: Int, price: ExactDecimal)
    -> [ExactDecimal?]
  {
    guard let path = paths[coinID], k < anchors.count else { return [] }
    let noise = max(1, Self.volatility(symbol) / 6)
    let end = anchors[k]
    let hourSeed = SplitMix64.hash(coinID + "/hour")
    var points: [ExactDecimal?] = [price]
    points.reserveCapacity(168)
    var newer = k
    // Newest first, so the bracketing anchors only move back in time.
    for offset in 1...167 {
      let time = end - Int64(offset) * 3600
      while newer + 2 < anchors.count && anchors[newer + 1] > time { newer += 1 }
      guard newer + 1 < anchors.count, newer + 1 < path.count else { break }
      let older = anchors[newer + 1]
      let span = Int128(max(1, anchors[newer] - older))
      let done = Int128(time - older)
      let low = path[newer + 1].units
      let units = low + (path[newer].units - low) * done / span
      var random = SplitMix64(seed: hourSeed ^ (UInt64(bitPattern: time / 3600) &* 0x9e37_79b9))
      let wiggle = Int128(10_000 + random.next(in: -noise...noise))
      points.append(Self.significant(ExactDecimal(units: units * wiggle / 10_000), digits: 6))
    }
    return points.reversed()
  }

  /// The /global data of day `k`: the fixture's totals moved with the coins of the page.
  func global(daysBack k: Int) throws -> GlobalData {
    var data = global
    let usd = global.total("usd")
    guard let total0 = usd?.marketCap else { return data }
    func total(_ k: Int) throws -> ExactDecimal {
      var sum = total0
      for quote in base {
        guard let cap = quote.marketCap else { continue }
        sum = try sum + (try cap * (factor(quote.id, k) - .one))
      }
      return sum
    }
    let today = try total(k)
    let before = try total(k + 1)
    var random = SplitMix64(hashing: "global/volume/\(CalendarDay(containing: time(k)))")
    let volume = try usd?.volume.map {
      try ($0 * (ExactDecimal.one + ExactDecimal(random.next(in: -20...20)) / .hundred))
        .rounded(places: 0)
    }
    data.totals = [
      GlobalTotal(currency: "usd", marketCap: today.rounded(places: 0), volume: volume)
    ]
    data.marketCapChangePercentage24hUSD = try ExactDecimal.scaled(
      today - before, by: .hundred, dividedBy: before
    ).rounded(places: 6)
    var shares: [MarketCapShare] = []
    for share in global.marketCapPercentages {
      guard let quote = base.first(where: { $0.symbol.lowercased() == share.symbol }),
        let cap = quote.marketCap
      else { continue }
      shares.append(
        MarketCapShare(
          symbol: share.symbol,
          percentage: try ExactDecimal.scaled(
            try cap * (factor(quote.id, k)), by: .hundred, dividedBy: today
          ).rounded(places: 6)))
    }
    data.marketCapPercentages = shares
    data.updatedAt = Timestamp.format(time(k))
    return data
  }
}
