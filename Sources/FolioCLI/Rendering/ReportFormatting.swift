import FolioService
import FolioStorage
import Foundation

/// What every report format shares: the wording of figures, n/a notes, warnings and charts.
/// Large market amounts (market cap, volume) are abbreviated as the app did (`$1.61Tr`,
/// `$62.10Bn`, `$12.35M`, `$123.46K`); portfolio amounts are written out with cents.
enum ReportFormat {
  // MARK: - Figures

  /// An amount with cents and its currency, or `n/a`.
  static func amount(_ value: ExactDecimal?, _ currency: String) -> String {
    value.map { MarketFormat.amount($0, currency) } ?? "n/a"
  }

  /// A profit: `+$12.00`, `-$3.50`, `$0.00`; nil is `n/a`.
  static func signed(_ value: ExactDecimal?, _ currency: String) -> String {
    guard let value else { return "n/a" }
    let rounded = value.rounded(places: 2)
    return (rounded.isPositive ? "+" : "") + MarketFormat.amount(value, currency)
  }

  /// A percentage with its sign: `+0.63%`; nil is `n/a`.
  static func percent(_ value: ExactDecimal?) -> String {
    value.map { MarketFormat.percent($0) } ?? "n/a"
  }

  /// A share of the portfolio: `61.2%`.
  static func share(_ value: ExactDecimal?) -> String {
    value.map { $0.formatted(places: 1) + "%" } ?? ""
  }

  /// A price as `coins list` writes it, or `n/a`.
  static func price(_ value: ExactDecimal?, _ currency: String) -> String {
    value.map { MarketFormat.price($0, currency) } ?? "n/a"
  }

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
      measure.value.map { MarketFormat.abbreviated($0, currency) } ?? "n/a"
    }
    return [
      Statistic(
        label: "Market Cap", figure: big(statistics.marketCap),
        change: percent(statistics.marketCapChange24h.value),
        direction: MarketFormat.direction(statistics.marketCapChange24h.value)),
      Statistic(
        label: "24h Volume", figure: big(statistics.volume24h), change: nil, direction: nil),
      Statistic(
        label: "BTC Dominance",
        figure: statistics.btcDominance.value.map { $0.formatted(places: 2) + "%" } ?? "n/a",
        change: nil, direction: nil),
      Statistic(
        label: "Portfolio Value", figure: amount(statistics.portfolioValue.value, currency),
        change: percent(statistics.portfolioChange24h.value),
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
    return price(holding.price, report.portfolio.currency) + (older ? "*" : "")
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
      "\(first.day) \(MarketFormat.amount(from, currency)) → "
      + "\(last.day) \(MarketFormat.amount(to, currency))"
    if first.day != last.day, from.isPositive,
      let change = try? ExactDecimal.scaled(to - from, by: .hundred, dividedBy: from)
    {
      text += " (\(MarketFormat.percent(change)))"
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

  /// A terminal chart of daily values, one column per day (days are averaged into columns
  /// when there are more than `width`), with the highest and lowest value as labels. A day
  /// without a value stays blank rather than being drawn as a guess. Empty when fewer than
  /// two days have a value.
  static func chartLines(
    _ values: [ExactDecimal?], currency: String, height: Int = 5, width: Int = 60
  ) -> [String] {
    let known = values.compactMap { $0 }
    guard known.count >= 2, let high = known.max(), let low = known.min(), height > 0 else {
      return []
    }
    let columns = min(max(width, 1), values.count)
    var levels: [Int?] = []
    let span = high.doubleValue - low.doubleValue
    let steps = height * 8
    for column in 0..<columns {
      let start = column * values.count / columns
      let end = max(start + 1, (column + 1) * values.count / columns)
      let bucket = values[start..<end].compactMap { $0?.doubleValue }
      guard !bucket.isEmpty else {
        levels.append(nil)
        continue
      }
      let average = bucket.reduce(0, +) / Double(bucket.count)
      // The lowest value still draws a one-eighth block, so it is not mistaken for a gap.
      levels.append(
        span > 0
          ? max(1, Int(((average - low.doubleValue) / span * Double(steps - 1)).rounded()) + 1)
          : steps / 2)
    }
    let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let top = MarketFormat.amount(high, currency)
    let bottom = MarketFormat.amount(low, currency)
    let labelWidth = max(top.count, bottom.count)
    return (0..<height).reversed().map { row in
      let floor = row * 8
      let cells = String(
        levels.map { level in
          level.map { blocks[max(0, min(8, $0 - floor))] } ?? " "
        }
      ).trimmingTrailingSpaces()
      let label = row == height - 1 ? top : row == 0 ? bottom : ""
      return String(repeating: " ", count: labelWidth - label.count) + label + " ┤" + cells
    }
  }

  /// A one-line sparkline of a 7-day price series: `▁▂▄▅▇█`.
  static func sparkline(_ points: [ExactDecimal?], width: Int = 14) -> String {
    SparklineChart.rows(points.map { $0?.doubleValue }, width: width, height: 1).first ?? ""
  }
}
