import FolioStorage
import Foundation

/// One held coin in a daily report.
public struct ReportHolding: Equatable, Sendable {
  public let coinID: String
  /// The coin's symbol and name from the market data, when known.
  public let symbol: String?
  public let name: String?
  public let quantity: ExactDecimal
  /// Cost basis of the units held (buy fees included).
  public let costBasis: ExactDecimal
  /// The market price as of the report; nil when no quote was cached (the coin is unpriced).
  public let price: ExactDecimal?
  /// The time of the snapshot the price comes from.
  public let priceAt: String?
  /// quantity × price; nil without a price.
  public let value: ExactDecimal?
  /// The 24h price change in percent, from the quote.
  public let change24h: ExactDecimal?
  /// The 7-day hourly prices of the quote, oldest first (empty when it had none).
  public let sparkline: [ExactDecimal?]
  /// value ÷ the portfolio value × 100; nil without a price or when the total is zero.
  public let share: ExactDecimal?
  /// value − cost basis; nil without a price.
  public let unrealized: ExactDecimal?
  /// The realized profit of every sell of this coin up to the report.
  public let realized: ExactDecimal
  /// Why value, share and unrealized are n/a although the coin has a price (they are too
  /// large to compute exactly, `Measure.computing`); nil otherwise.
  public let unavailable: String?
  /// True when `price` is a daily close (`daily_prices`) rather than a snapshot's quote.
  public var isDailyClose = false

  /// The symbol in capitals, else the coin id.
  public var label: String { symbol.map { $0.uppercased() } ?? coinID }
}

/// A coin sold out before the report's day ended: what its sells realized.
public struct ClosedPosition: Equatable, Sendable {
  public let coinID: String
  /// The coin's symbol and name from the coin directory, when known.
  public let symbol: String?
  public let name: String?
  /// The realized profit of every sell of this coin up to the report.
  public let realized: ExactDecimal
}

/// Realized profit over the periods a report shows, each ending with the report's day.
public struct RealizedSummary: Equatable, Sendable {
  public let day: ExactDecimal
  public let monthToDate: ExactDecimal
  public let yearToDate: ExactDecimal
  public let allTime: ExactDecimal
}

/// A trade executed on the report's day.
public struct ReportTrade: Equatable, Sendable {
  public let trade: Trade
  /// For a sell: its realized profit (by the report's method).
  public let realized: ExactDecimal?
  /// `Name, City` of the location where it happened, if recorded.
  public let location: String?
}

/// A held coin's 24h move.
public struct Mover: Equatable, Sendable {
  public let coinID: String
  public let label: String
  public let change24h: ExactDecimal
  /// How much the holding's value changed in 24h; nil when it cannot be derived.
  public let valueChange: ExactDecimal?
}

/// One day of the value-over-time series.
public struct HistoryPoint: Equatable, Sendable {
  public let day: String
  public let value: ExactDecimal?
  /// True when the day has a saved row. The report's own day always shows the report's figure.
  public let isSaved: Bool
}

/// The figures `report --save` stores for a day, one row of `portfolio_daily`.
public struct DailyFigures: Equatable, Sendable {
  public let day: String
  /// The value of the priced holdings; nil when holdings exist but none has a price.
  public let value: ExactDecimal?
  public let costBasis: ExactDecimal
  public let unrealized: ExactDecimal?
  /// Realized profit of every sell up to the end of the day.
  public let realized: ExactDecimal
  /// The market snapshot the prices came from; nil when no price was used.
  public let snapshotAt: String?
  /// Why `value` and `unrealized` are nil although coins have prices (too large to compute
  /// exactly); nil otherwise.
  public var unavailable: String? = nil
}

/// A portfolio's daily report, as of the end of one UTC day.
public struct DailyReport: Equatable, Sendable {
  public let portfolio: Portfolio
  /// The cost-basis method the figures were computed with.
  public let method: MethodInUse
  /// The day reported on, `YYYY-MM-DD` (UTC).
  public let day: String
  /// When the report was made (UTC ISO-8601).
  public let generatedAt: String
  /// The newest market snapshot of the portfolio's currency taken by the end of the day.
  public let snapshot: MarketSnapshotRef?
  /// The snapshot's age when it is older than `maxAge` (at the end of the day, or now for
  /// today); nil when it is fresh or there is none.
  public let staleAge: TimeInterval?
  public let maxAge: TimeInterval
  /// What `--strict` refuses: the snapshot is older than `maxAge`; nil when it is fresh.
  public var stale: MarketError? {
    guard let snapshot, let staleAge else { return nil }
    return .stale(snapshotAt: snapshot.fetchedAt, age: staleAge, maxAge: maxAge)
  }
  public let statistics: PortfolioStatistics
  /// Held coins (quantity above zero), largest value first; unpriced coins last.
  public let holdings: [ReportHolding]
  /// Coins sold out before the day's end with a realized profit or loss (closed positions),
  /// by coin id: with `holdings` they account for all of `realized.allTime`.
  public let closed: [ClosedPosition]
  /// Cost basis of everything held.
  public let totalCostBasis: ExactDecimal
  /// Unrealized profit of the priced holdings; nil when holdings exist but none is priced.
  public let totalUnrealized: ExactDecimal?
  public let realized: RealizedSummary
  /// The trades executed on the day, in time order.
  public let trades: [ReportTrade]
  /// The held coins with the largest 24h moves (at most five), largest first.
  public let movers: [Mover]
  /// The saved values of the last `historyDays` days up to the day (the day itself from this
  /// report), oldest first; days without a saved row are absent.
  public let history: [HistoryPoint]
  public let historyDays: Int
  /// The figures `--save` stores.
  public let figures: DailyFigures
  /// Net flow, market gain, TWR and XIRR of each period ending with the day (1d, 7d, 30d,
  /// YTD, 1y, all), in that order.
  public var returns: [PeriodReturn] = []
  /// The returns over the chart, from its first day with a known value; nil when it has none
  /// before the day.
  public var chartReturn: PeriodReturn?

  /// The returns of `period`.
  public func returns(_ period: ReturnPeriod) -> PeriodReturn? {
    returns.first { $0.period == period }
  }
}
