import FolioService
import FolioStorage
import Foundation

/// What every report format shares: the statistics, n/a notes, warnings and history wording.
/// Large market amounts (market cap, volume) are abbreviated as the app did (`$1.61Tr`,
/// `$62.10Bn`, `$12.35M`, `$123.46K`); portfolio amounts are written out with cents.
enum ReportFormat {
  /// One statistic: its label, its figure and its 24h change (when it has one).
  struct Statistic {
    let label: String
    let figure: String
    let change: String?
    /// Up (true), down (false) or neither, for colour.
    let direction: Bool?
  }

  /// The four statistics as the app's cards show them.
  static func statistics(_ statistics: PortfolioStatistics) -> [Statistic] {
    let currency = statistics.currency
    func big(_ measure: Measure) -> String {
      Formatting.money(measure.value, .abbreviated, in: currency)
    }
    return [
      Statistic(
        label: "Market Cap", figure: big(statistics.marketCap),
        change: Formatting.percent(statistics.marketCapChange24h.value),
        direction: MarketFormat.direction(statistics.marketCapChange24h.value)),
      Statistic(
        label: "24h Volume", figure: big(statistics.volume24h), change: nil, direction: nil),
      Statistic(
        label: "BTC Dominance",
        figure: Formatting.percent(statistics.btcDominance.value, .level),
        change: nil, direction: nil),
      Statistic(
        label: "Portfolio Value",
        figure: Formatting.money(statistics.portfolioValue.value, in: currency),
        change: Formatting.percent(statistics.portfolioChange24h.value),
        direction: MarketFormat.direction(statistics.portfolioChange24h.value)),
    ]
  }

  /// One sentence per statistic that reads n/a, and one about unpriced coins.
  static func notes(_ statistics: PortfolioStatistics) -> [String] {
    var notes: [String] = []
    let labelled: [(String, Measure)] = [
      ("Market Cap", statistics.marketCap),
      ("Market Cap 24h change", statistics.marketCapChange24h),
      ("24h Volume", statistics.volume24h), ("BTC Dominance", statistics.btcDominance),
      ("Portfolio Value", statistics.portfolioValue),
      ("Portfolio Value 24h change", statistics.portfolioChange24h),
    ]
    // A reason shared by several figures (no /global snapshot) is said once.
    var reasons: [String] = []
    var labels: [String: [String]] = [:]
    for (label, measure) in labelled {
      guard let reason = measure.reason else { continue }
      if labels[reason] == nil { reasons.append(reason) }
      labels[reason, default: []].append(label)
    }
    for reason in reasons {
      notes.append((labels[reason] ?? []).joined(separator: ", ") + " n/a: " + reason)
    }
    if !statistics.unpriced.isEmpty {
      notes.append(
        "unpriced (held, no market price cached, not counted in the value): "
          + statistics.unpriced.joined(separator: ", "))
    }
    return notes
  }

  // MARK: - Report header

  /// `Daily report: portfolio main (USD, fifo), 2024-11-30`.
  static func title(_ report: DailyReport) -> String {
    "Daily report: portfolio \(report.portfolio.name) "
      + "(\(report.portfolio.currency.uppercased()), \(report.method.rawValue)), \(report.day)"
  }

  /// Where the prices come from, or that there are none.
  static func snapshotLine(_ report: DailyReport) -> String {
    guard let snapshot = report.snapshot else {
      return "No market snapshot in \(report.portfolio.currency.uppercased()) was taken by the "
        + "end of \(report.day); run 'folio market refresh' (online) or 'folio market import FILE'"
    }
    return MarketFormat.snapshotLine(snapshot)
  }

  /// The staleness warning, if the snapshot is too old.
  static func staleWarning(_ report: DailyReport) -> String? {
    guard let age = report.staleAge, let snapshot = report.snapshot else { return nil }
    return "the market snapshot (\(snapshot.fetchedAt)) is "
      + "\(MarketTime.formatDuration(age, units: 2)) old, older than "
      + "\(MarketTime.formatDuration(report.maxAge)); run 'folio market refresh'"
  }

  /// Holdings whose price comes from an older snapshot than the report's.
  static func olderPrices(_ report: DailyReport) -> String? {
    let older = report.holdings.filter {
      $0.priceAt != nil && $0.priceAt != report.snapshot?.fetchedAt
    }
    guard !older.isEmpty else { return nil }
    return "* price from an older snapshot: "
      + older.map { "\($0.label) (\($0.priceAt ?? ""))" }.joined(separator: ", ")
  }

  /// The price cell of a holding, marked `*` when it comes from an older snapshot.
  static func holdingPrice(_ holding: ReportHolding, _ report: DailyReport) -> String {
    let older = holding.priceAt != nil && holding.priceAt != report.snapshot?.fetchedAt
    return Formatting.money(holding.price, .price, in: report.portfolio.currency)
      + (older ? "*" : "")
  }

  // MARK: - Trades and history

  /// `12:30:00` from `2024-11-30T12:30:00Z`.
  static func time(_ stamp: String) -> String {
    let parts = stamp.split(separator: "T")
    guard parts.count == 2 else { return stamp }
    return String(parts[1].dropLast(parts[1].hasSuffix("Z") ? 1 : 0))
  }

  /// The first and last known values of the series and the change between them:
  /// `2024-11-01 $20,000.00 → 2024-11-30 $24,451.23 (+22.26%)`.
  static func historySummary(_ report: DailyReport) -> String? {
    let known = report.history.filter { $0.value != nil }
    guard let first = known.first, let last = known.last, let from = first.value,
      let to = last.value
    else { return nil }
    let currency = report.portfolio.currency
    var text =
      "\(first.day) \(Formatting.money(from, in: currency)) → "
      + "\(last.day) \(Formatting.money(to, in: currency))"
    if first.day != last.day, from.isPositive,
      let change = try? ExactDecimal.scaled(to - from, by: .hundred, dividedBy: from)
    {
      text += " (\(Formatting.percent(change, missing: "—")))"
    }
    return text
  }

  /// The value of each day of the report's window (nil for days without a value), oldest first.
  static func dailyValues(_ report: DailyReport) -> [(day: String, value: ExactDecimal?)] {
    guard let last = CalendarDay(report.day) else { return [] }
    let byDay = Dictionary(
      report.history.map { ($0.day, $0.value) }, uniquingKeysWith: { _, new in new })
    return (0..<report.historyDays).reversed().map { back in
      let day = last.adding(days: -back).description
      return (day, byDay[day] ?? nil)
    }
  }
}
