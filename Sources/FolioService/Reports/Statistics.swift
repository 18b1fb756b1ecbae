import FolioStorage
import Foundation

/// A figure that is either known or unavailable for a stated reason (shown as "n/a").
/// Nothing Folio reports is ever NaN or infinite: a figure that cannot be computed exactly is
/// `unavailable` with a sentence saying why.
public enum Measure: Equatable, Sendable {
  case known(ExactDecimal)
  case unavailable(String)

  public var value: ExactDecimal? {
    if case .known(let value) = self { return value }
    return nil
  }

  /// Why the figure is unavailable, or nil when it is known.
  public var reason: String? {
    if case .unavailable(let reason) = self { return reason }
    return nil
  }

  /// Why a figure is unavailable when working it out would leave the exact decimal range.
  public static let tooLarge = "the amounts are too large to compute exactly"

  /// The figure `compute` works out; unavailable (`tooLarge`) when the arithmetic overflows.
  /// Every n/a figure of `stats`, `holdings` and `report` that is too large comes from here.
  public static func computing(_ compute: () throws -> ExactDecimal) -> Measure {
    do {
      return .known(try compute())
    } catch DecimalError.overflow {
      return .unavailable(tooLarge)
    } catch {
      return .unavailable(SystemErrorText.words(error))
    }
  }

  /// `compute` applied to a known figure; an unavailable one stays unavailable for its reason.
  public func then(_ compute: (ExactDecimal) throws -> ExactDecimal) -> Measure {
    switch self {
    case .known(let value): return .computing { try compute(value) }
    case .unavailable: return self
    }
  }

  /// The valuation rule of every command and view (`holdings`, `stats`, `report`, `report
  /// --save`, `v_holdings`): a held coin without a market price is left out of the total and
  /// listed as unpriced, never valued at a guess. `figures` has one entry per held coin, nil
  /// for an unpriced one. Nothing held is worth zero; holdings none of which is priced have no
  /// total (nil).
  public static func total(of figures: [Measure?]) -> Measure? {
    let priced = figures.compactMap { $0 }
    return figures.isEmpty ? .known(.zero) : priced.isEmpty ? nil : sum(priced)
  }

  /// The sum of `figures`; unavailable for the first unavailable figure's reason, or when the
  /// sum is too large.
  public static func sum(_ figures: [Measure]) -> Measure {
    figures.reduce(.known(.zero)) { total, figure in
      guard case .known(let value) = figure else { return total.reason == nil ? figure : total }
      return total.then { try $0 + value }
    }
  }
}

/// One held coin as the statistics see it: the quantity and, when a market quote exists,
/// its price and 24h change in percent.
public struct HeldQuote: Equatable, Sendable {
  public let coinID: String
  public let quantity: ExactDecimal
  /// The market price; nil when no quote is cached for the coin.
  public let price: ExactDecimal?
  /// The 24h price change in percent; nil when the quote has none (counted as 0).
  public let change24h: ExactDecimal?
}

/// The four statistics of the app's home screen: Market Cap (with its 24h change), 24h Volume,
/// BTC Dominance and Portfolio Value (with its 24h change).
public struct PortfolioStatistics: Equatable, Sendable {
  /// The currency of the amounts (the portfolio's).
  public let currency: String
  /// The global market cap in `currency`.
  public let marketCap: Measure
  /// The 24h change of the global market cap in percent (CoinGecko gives it in USD).
  public let marketCapChange24h: Measure
  /// The global 24h trading volume in `currency`.
  public let volume24h: Measure
  /// Bitcoin's share of the global market cap in percent.
  public let btcDominance: Measure
  /// The value of the held coins that have a market price.
  public let portfolioValue: Measure
  /// The 24h change of the portfolio's value in percent.
  public let portfolioChange24h: Measure
  /// Held coins without a market price: listed, never counted as worth 0.
  public let unpriced: [String]
  /// For a past day's report, the window a price had to lie in ("within 1d before the end of
  /// 2024-08-22"): the unpriced coins have none there. nil: they have no cached price at all.
  public var priceWindow: String? = nil
  /// The time of the /global snapshot used, if any.
  public let globalAt: String?
}

/// The statistics formulas, as pure functions of their inputs.
public enum Statistics {
  /// Portfolio value and its 24h change by the product brief's formula:
  ///
  ///     value_i    = quantity_i × price_i
  ///     previous_i = value_i / (1 + pct24h_i / 100)      (pct24h missing → 0)
  ///     change %   = (Σ value_i − Σ previous_i) / Σ previous_i × 100
  ///
  /// Coins with a zero quantity are ignored. The value counts the priced coins; coins without
  /// a price are returned as `unpriced` and make the change unavailable, as do an empty
  /// portfolio, a coin at −100% or worse, a previous total of zero, and figures too large to
  /// compute exactly.
  public static func portfolio(_ held: [HeldQuote], priceWindow: String? = nil) -> (
    value: Measure, change24h: Measure, unpriced: [String]
  ) {
    let noPrice =
      priceWindow.map { "no market price \($0) for " } ?? "no market price is cached for "
    let held = held.filter { !$0.quantity.isZero }.sorted { $0.coinID < $1.coinID }
    let unpriced = held.filter { $0.price == nil }.map(\.coinID)
    guard !held.isEmpty else {
      return (.known(.zero), .unavailable("the portfolio holds no coins"), [])
    }
    let priced = held.filter { $0.price != nil }
    guard !priced.isEmpty else {
      let reason = noPrice + list(unpriced)
      return (.unavailable(reason), .unavailable(reason), unpriced)
    }
    let tooLarge = Measure.tooLarge
    var total = ExactDecimal.zero
    var previousTotal = ExactDecimal.zero
    var changeProblem: String?
    for coin in priced {
      guard let price = coin.price,
        let value = try? coin.quantity * price,
        let sum = try? total + value
      else { return (.unavailable(tooLarge), .unavailable(tooLarge), unpriced) }
      total = sum
      guard changeProblem == nil else { continue }
      let percent = coin.change24h ?? .zero
      guard let factor = try? ExactDecimal.hundred + percent, factor.isPositive else {
        changeProblem =
          "\(coin.coinID) changed \(percent.formatted(places: 2))% in 24h, so its value 24h ago "
          + "cannot be derived"
        continue
      }
      guard let previous = try? ExactDecimal.scaled(value, by: .hundred, dividedBy: factor),
        let sum = try? previousTotal + previous
      else {
        changeProblem = tooLarge
        continue
      }
      previousTotal = sum
    }
    if !unpriced.isEmpty {
      changeProblem =
        noPrice + list(unpriced)
        + ", so the change of the whole portfolio is unknown"
    }
    if let changeProblem { return (.known(total), .unavailable(changeProblem), unpriced) }
    guard !previousTotal.isZero else {
      return (.known(total), .unavailable("the holdings were worth nothing 24h ago"), unpriced)
    }
    guard let difference = try? total - previousTotal,
      let change = try? ExactDecimal.scaled(difference, by: .hundred, dividedBy: previousTotal)
    else { return (.known(total), .unavailable(tooLarge), unpriced) }
    return (.known(total), .known(change), unpriced)
  }

  /// The market statistics of a /global snapshot in `currency`; `missing` is the reason given
  /// for every figure when there is no snapshot.
  public static func market(_ global: GlobalSnapshot?, currency: String, missing: String) -> (
    marketCap: Measure, change24h: Measure, volume: Measure, btcDominance: Measure
  ) {
    guard let global else {
      let absent = Measure.unavailable(missing)
      return (absent, absent, absent, absent)
    }
    let code = currency.uppercased()
    let total = global.data.total(currency)
    let marketCap: Measure =
      total?.marketCap.map { .known($0) }
      ?? .unavailable("the /global snapshot of \(global.fetchedAt) has no market cap in \(code)")
    let volume: Measure =
      total?.volume.map { .known($0) }
      ?? .unavailable("the /global snapshot of \(global.fetchedAt) has no volume in \(code)")
    let change: Measure =
      global.data.marketCapChangePercentage24hUSD.map { .known($0) }
      ?? .unavailable("the /global snapshot of \(global.fetchedAt) has no 24h market cap change")
    let dominance: Measure =
      global.data.marketCapPercentages.first { $0.symbol.lowercased() == "btc" }
      .map { .known($0.percentage) }
      ?? .unavailable("the /global snapshot of \(global.fetchedAt) has no share for BTC")
    return (marketCap, change, volume, dominance)
  }

  /// All four statistics.
  public static func statistics(
    held: [HeldQuote], global: GlobalSnapshot?, currency: String, missingGlobal: String,
    priceWindow: String? = nil
  ) -> PortfolioStatistics {
    let market = market(global, currency: currency, missing: missingGlobal)
    let portfolio = portfolio(held, priceWindow: priceWindow)
    var statistics = PortfolioStatistics(
      currency: currency, marketCap: market.marketCap, marketCapChange24h: market.change24h,
      volume24h: market.volume, btcDominance: market.btcDominance,
      portfolioValue: portfolio.value, portfolioChange24h: portfolio.change24h,
      unpriced: portfolio.unpriced, globalAt: global?.fetchedAt)
    statistics.priceWindow = portfolio.unpriced.isEmpty ? nil : priceWindow
    return statistics
  }

  /// `a`, `a and b`, `a, b and c`.
  static func list(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
  }
}

// MARK: - Service

/// What `folio stats` shows: the statistics from the latest cached snapshots, with the times
/// of the snapshots they came from.
public struct StatisticsReport: Equatable, Sendable {
  public let portfolio: Portfolio
  public let statistics: PortfolioStatistics
  /// The latest market snapshot in the portfolio's currency, if any.
  public let snapshot: MarketSnapshotRef?
}

extension MarketData {
  /// The statistics of `portfolio` from its current holdings, the newest cached quote of
  /// each held coin in the portfolio's currency and the newest /global snapshot.
  public func statistics(of portfolio: Portfolio) throws -> StatisticsReport {
    try database.read {
      let positions = try DerivedTables(database).positions(portfolioID: portfolio.id)
        .filter { !$0.quantity.isZero }
      let quotes = try MarketRecords.latestQuotes(
        database, coinIDs: positions.map(\.coinID), vsCurrency: portfolio.currency, before: nil)
      let held = positions.map {
        HeldQuote(
          coinID: $0.coinID, quantity: $0.quantity, price: quotes[$0.coinID]?.price,
          change24h: quotes[$0.coinID]?.change24hPercent)
      }
      let statistics = Statistics.statistics(
        held: held, global: try MarketRecords.latestGlobal(database),
        currency: portfolio.currency,
        missingGlobal:
          "no /global snapshot is cached; run 'folio market refresh' (online) or "
          + "'folio market import FILE'")
      return StatisticsReport(
        portfolio: portfolio, statistics: statistics,
        snapshot: try MarketRecords.latestSnapshot(database, vsCurrency: portfolio.currency))
    }
  }
}
