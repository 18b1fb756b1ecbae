import FolioStorage
import Foundation

/// Checks that a saved /coins/markets page is in the currency it is imported as.
///
/// A markets page does not say its currency, so `market import` checks it against what it holds:
/// - USD-pegged stablecoins (`usdStablecoins`) trade within a few percent of 1 USD. Their
///   median price set against the exchange rates of a /global snapshot taken within a day of
///   the page (`total_market_cap[cur] / total_market_cap[usd]`) must be within 3% of the rate
///   of the currency imported as. Without such rates, a page imported as USD must still price
///   them within 3% of 1.
/// - Otherwise the page is compared with the latest snapshot in that currency taken within a
///   day of it: the median of the coins' price ratios must be within 5% of 1.
/// - Otherwise nothing can be told and the page is accepted.
///
/// EUR is about 0.92 USD, so a loose threshold would not catch the common mix-up.
public enum PageCurrencyCheck {
  /// CoinGecko ids of USD-pegged stablecoins. The one list of them in Folio.
  public static let usdStablecoins: Set<String> = [
    "tether", "usd-coin", "dai", "first-digital-usd", "true-usd", "paxos-standard",
    "paypal-usd", "binance-usd", "frax", "usdd", "gemini-dollar", "liquity-usd", "usds",
  ]

  /// How far the stablecoins' median may be from the expected rate (3%).
  public static let stablecoinTolerance = ExactDecimal(units: 30_000_000_000_000_000)
  /// How far the median price ratio to an earlier snapshot may be from 1 (5%).
  public static let snapshotTolerance = ExactDecimal(units: 50_000_000_000_000_000)
  /// How far apart in time a /global or a snapshot may be to be compared (one day).
  public static let window: TimeInterval = 86_400

  /// Exchange rates from one /global snapshot: units of each currency per USD.
  public struct Rates: Equatable, Sendable {
    public let rates: [String: ExactDecimal]
    /// When the /global was taken.
    public let takenAt: String

    /// The rates of `data` (nil without a positive USD total).
    public init?(_ data: GlobalData, takenAt: String) {
      guard let usd = data.total("usd")?.marketCap, usd.isPositive else { return nil }
      var rates: [String: ExactDecimal] = [:]
      for total in data.totals {
        guard let cap = total.marketCap, cap.isPositive, let rate = try? cap / usd,
          rate.isPositive
        else { continue }
        rates[total.currency] = rate
      }
      self.rates = rates
      self.takenAt = takenAt
    }
  }

  /// What the check found when the page does not look like its currency.
  public struct Mismatch: Equatable, Sendable {
    /// What the prices showed, as a phrase for the message.
    public let evidence: String
    /// The currency the page most likely is in, when one can be told.
    public let likely: String?
  }

  /// Checks `quotes`, imported as `currency`. `rates` are from a /global taken within a day
  /// of the page (they decide); `namingRates` from the newest /global of any age (they only
  /// name the likely currency). `previous` holds the prices of the latest snapshot in
  /// `currency` taken within a day, with its time.
  public static func check(
    _ quotes: [MarketQuote], currency: String, rates: Rates?, namingRates: Rates?,
    previous: (prices: [String: ExactDecimal], takenAt: String)?
  ) -> Mismatch? {
    let cur = currency.lowercased()
    let stable = quotes.filter { usdStablecoins.contains($0.id) }
    if let median = median(stable.map(\.currentPrice)) {
      let names = stable.map(\.id).sorted().joined(separator: ", ")
      let expected: ExactDecimal?
      let basis: String
      if let rates, let rate = rates.rates[cur], rates.rates["usd"] != nil {
        expected = rate
        basis =
          cur == "usd"
          ? "1"
          : "\(rate.rounded(places: 4)) (1 USD in \(cur.uppercased()) by /global of \(rates.takenAt))"
      } else if cur == "usd" {
        expected = .one
        basis = "1"
      } else {
        expected = nil
        basis = ""
      }
      if let expected {
        guard let off = distance(median, expected), off > stablecoinTolerance else { return nil }
        return Mismatch(
          evidence: "its USD stablecoins (\(names)) have a median price of \(median), "
            + "expected \(basis) within 3%",
          likely: nearest(usdPrice: median, in: rates ?? namingRates, within: stablecoinTolerance)
        )
      }
    }
    guard let previous else { return nil }
    var ratios: [ExactDecimal] = []
    for quote in quotes {
      guard let before = previous.prices[quote.id], before.isPositive,
        let ratio = try? quote.currentPrice / before, ratio.isPositive
      else { continue }
      ratios.append(ratio)
    }
    guard let factor = median(ratios), let off = distance(factor, .one), off > snapshotTolerance
    else { return nil }
    var likely: String?
    if let naming = rates ?? namingRates, let rate = naming.rates[cur],
      let usdPrice = try? factor * rate
    {
      likely = nearest(usdPrice: usdPrice, in: naming, within: snapshotTolerance)
    }
    return Mismatch(
      evidence: "its prices are a median \(factor.rounded(places: 4)) times those of the "
        + "\(cur.uppercased()) snapshot of \(previous.takenAt) (\(ratios.count) coin(s) in "
        + "common), expected 1 within 5%",
      likely: likely)
  }

  /// The median; nil for no values. An even count gives the mean of the middle two.
  static func median(_ values: [ExactDecimal]) -> ExactDecimal? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 { return sorted[middle] }
    guard let sum = try? sorted[middle - 1] + sorted[middle], let mean = try? sum / ExactDecimal(2)
    else { return sorted[middle] }
    return mean
  }

  /// How far apart two positive values are, as a fraction of the smaller: |a/b − 1| taken the
  /// way that is symmetric (0.92 against 1 and 1 against 0.92 are both 8.7% apart).
  static func distance(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal? {
    guard a.isPositive, b.isPositive else { return nil }
    let (high, low) = a > b ? (a, b) : (b, a)
    guard let ratio = try? high / low, let off = try? ratio - .one else { return nil }
    return off
  }

  /// The currency whose rate is nearest `usdPrice` (the price, in the page's currency, of
  /// 1 USD), when within `tolerance`; USD wins a tie (BMD is pegged to it), then the name.
  static func nearest(usdPrice: ExactDecimal, in rates: Rates?, within tolerance: ExactDecimal)
    -> String?
  {
    guard let rates else { return nil }
    var best: (currency: String, off: ExactDecimal)?
    for (currency, rate) in rates.rates {
      guard let off = distance(usdPrice, rate), off <= tolerance else { continue }
      if let current = best {
        if off > current.off { continue }
        if off == current.off {
          if current.currency == "usd" { continue }
          if currency != "usd" && currency > current.currency { continue }
        }
      }
      best = (currency, off)
    }
    return best?.currency
  }
}
