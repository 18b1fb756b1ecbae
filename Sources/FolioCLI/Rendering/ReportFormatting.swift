import FolioService
import FolioStorage
import Foundation

/// What every report format shares: the statistics, n/a notes, warnings and history wording.
/// Large market amounts (market cap, volume) are abbreviated as the app did (`$1.61Tr`,
/// `$62.10Bn`, `$12.35M`, `$123.46K`); portfolio amounts are written out with cents.
enum ReportFormat {
  /// A cell of a report table: its text and whether it shows a rise or a fall (for colour).
  struct Cell {
    let text: String
    let direction: Bool?

    init(_ text: String, direction: Bool? = nil) {
      self.text = text
      self.direction = direction
    }

    /// A figure coloured by the sign of `value`.
    init(_ text: String, signOf value: ExactDecimal?) {
      self.init(text, direction: MarketFormat.direction(value))
    }
  }

  /// A table of the report as every text format shows it (the terminal upper-cases the headers).
  struct Table {
    let headers: [String]
    /// The columns of figures, aligned right.
    let figures: Set<Int>
    let rows: [[Cell]]
    /// The holdings' total row, without its label.
    var total: [Cell]? = nil
  }

  /// The four statistics as the app's cards show them: label, figure and 24h change.
  static func statisticsTable(_ statistics: PortfolioStatistics) -> Table {
    let currency = statistics.currency
    func big(_ measure: Measure) -> Cell {
      Cell(Formatting.money(measure.value, .abbreviated, in: currency))
    }
    func change(_ measure: Measure) -> Cell {
      Cell(Formatting.percent(measure.value), signOf: measure.value)
    }
    return Table(
      headers: ["Statistic", "Value", "24h"], figures: [1, 2],
      rows: [
        [Cell("Market Cap"), big(statistics.marketCap), change(statistics.marketCapChange24h)],
        [Cell("24h Volume"), big(statistics.volume24h), Cell("")],
        [
          Cell("BTC Dominance"), Cell(Formatting.percent(statistics.btcDominance.value, .level)),
          Cell(""),
        ],
        [
          Cell("Portfolio Value"),
          Cell(Formatting.money(statistics.portfolioValue.value, in: currency)),
          change(statistics.portfolioChange24h),
        ],
      ])
  }

  /// One row per holding (coin, quantity, price, value, 24h, 7 days, share, cost basis,
  /// unrealized) and the total.
  static func holdingsTable(_ report: DailyReport) -> Table {
    func money(_ value: ExactDecimal?, sign: Formatting.Sign = .minusOnly) -> String {
      Formatting.money(value, in: report.portfolio.currency, sign: sign)
    }
    let rows = report.holdings.map { holding in
      [
        Cell(holding.label), Cell(Formatting.quantity(holding.quantity)),
        Cell(holdingPrice(holding, report)), Cell(money(holding.value)),
        Cell(Formatting.percent(holding.change24h), signOf: holding.change24h),
        Cell(
          Formatting.sparkline(holding.sparkline),
          direction: sparklineDirection(holding.sparkline)),
        Cell(
          Formatting.percent(
            holding.share, .share,
            missing: holding.unavailable ?? report.figures.unavailable == nil ? "" : "n/a")),
        Cell(money(holding.costBasis)),
        Cell(money(holding.unrealized, sign: .nonZero), signOf: holding.unrealized),
      ]
    }
    let change = report.statistics.portfolioChange24h.value
    let total = [
      Cell(""), Cell(""), Cell(money(report.statistics.portfolioValue.value)),
      Cell(Formatting.percent(change), signOf: change), Cell(""), Cell(""),
      Cell(money(report.totalCostBasis)),
      Cell(money(report.totalUnrealized, sign: .nonZero), signOf: report.totalUnrealized),
    ]
    return Table(
      headers: [
        "Coin", "Quantity", "Price", "Value", "24h", "7 days", "Share", "Cost basis", "Unrealized",
      ],
      figures: [1, 2, 3, 4, 6, 7, 8], rows: rows, total: total)
  }

  /// Realized profit of the day, the month and year to date, and all time.
  static func realizedTable(_ report: DailyReport) -> Table {
    let realized = report.realized
    let periods = [
      ("Day", realized.day), ("Month to date", realized.monthToDate),
      ("Year to date", realized.yearToDate), ("All time", realized.allTime),
    ]
    return Table(
      headers: ["Period", "Realized"], figures: [1],
      rows: periods.map { label, value in
        [
          Cell(label),
          Cell(
            Formatting.money(value, in: report.portfolio.currency, sign: .nonZero), signOf: value),
        ]
      })
  }

  /// Net flow, market gain, TWR and XIRR of each period ending with the report's day.
  static func returnsTable(_ report: DailyReport) -> Table {
    let currency = report.portfolio.currency
    func money(_ measure: Measure) -> Cell {
      Cell(
        Formatting.money(measure.value, in: currency, sign: .nonZero), signOf: measure.value)
    }
    func percent(_ measure: Measure) -> Cell {
      Cell(Formatting.percent(measure.value), signOf: measure.value)
    }
    return Table(
      headers: ["Period", "From", "Net flow", "Market gain", "TWR", "XIRR (annual)"],
      figures: [2, 3, 4, 5],
      rows: report.returns.map { entry in
        [
          Cell(entry.period.label), Cell(entry.from), money(entry.netFlow),
          money(entry.marketGain), percent(entry.twr), percent(entry.xirr),
        ]
      })
  }

  /// One sentence per reason that a return reads n/a, naming the periods and figures.
  static func returnNotes(_ report: DailyReport) -> [String] {
    var notes: [String] = []
    for entry in report.returns {
      notes += unavailable(
        [
          ("net flow", entry.netFlow), ("market gain", entry.marketGain), ("TWR", entry.twr),
          ("XIRR", entry.xirr),
        ], of: entry.period.label)
    }
    return notes
  }

  /// The day's trades; a held coin by its symbol.
  static func tradesTable(_ report: DailyReport) -> Table {
    let currency = report.portfolio.currency
    return Table(
      headers: ["Time (UTC)", "Side", "Coin", "Quantity", "Price", "Fee", "Realized", "Location"],
      figures: [3, 4, 5, 6],
      rows: report.trades.map { entry in
        let trade = entry.trade
        let coin = report.holdings.first { $0.coinID == trade.coinID }?.label ?? trade.coinID
        return [
          Cell(time(trade.executedAt)), Cell(TradeRendering.label(trade)), Cell(coin),
          Cell(Formatting.quantity(trade.quantity)),
          Cell(TradeRendering.price(trade, .price, in: currency)),
          Cell(TradeRendering.fee(trade, in: currency)),
          Cell(
            Formatting.money(entry.realized, in: currency, sign: .nonZero, missing: ""),
            signOf: entry.realized),
          Cell(entry.location ?? ""),
        ]
      })
  }

  /// The held coins that moved most in 24h.
  static func moversTable(_ report: DailyReport) -> Table {
    Table(
      headers: ["Coin", "24h", "Value change"], figures: [1, 2],
      rows: report.movers.map { mover in
        [
          Cell(mover.label),
          Cell(Formatting.percent(mover.change24h, missing: "—"), signOf: mover.change24h),
          Cell(
            Formatting.money(mover.valueChange, in: report.portfolio.currency, sign: .nonZero),
            signOf: mover.valueChange),
        ]
      })
  }

  /// Up when the week ended higher than it began, as the app coloured its chart.
  static func sparklineDirection(_ points: [ExactDecimal?]) -> Bool? {
    let known = points.compactMap { $0 }
    guard let first = known.first, let last = known.last, first != last else { return nil }
    return last > first
  }

  /// One sentence per statistic that reads n/a, and one about unpriced coins.
  static func notes(_ statistics: PortfolioStatistics) -> [String] {
    var notes = unavailable([
      ("Market Cap", statistics.marketCap),
      ("Market Cap 24h change", statistics.marketCapChange24h),
      ("24h Volume", statistics.volume24h), ("BTC Dominance", statistics.btcDominance),
      ("Portfolio Value", statistics.portfolioValue),
      ("Portfolio Value 24h change", statistics.portfolioChange24h),
    ])
    if let note = unpriced(statistics.unpriced, window: statistics.priceWindow) {
      notes.append(note)
    }
    return notes
  }

  /// The line naming the held coins without a market price, left out of the totals (the one
  /// valuation rule, `Measure.total(of:)`); nil when there are none.
  /// With `window` (a past day's report), the price had to lie in it.
  static func unpriced(_ coins: [String], window: String? = nil) -> String? {
    coins.isEmpty
      ? nil
      : "unpriced (held, no market price \(window ?? "cached"), not counted in the value): "
        + coins.joined(separator: ", ")
  }

  /// `* price from an older snapshot: A (time), B (time)` for the `(label, price time)` pairs
  /// whose time is not the newest snapshot's; nil when there are none.
  static func olderPrices(_ prices: [(String, String?)], newest: String?) -> String? {
    let older = prices.compactMap { label, at in at != nil && at != newest ? (label, at ?? "") : nil
    }
    guard !older.isEmpty else { return nil }
    return "* price from an older snapshot: "
      + older.map { "\($0.0) (\($0.1))" }.joined(separator: ", ")
  }

  /// One sentence per reason that some of the `labelled` figures read n/a, each naming them
  /// (a reason shared by several figures is said once): `Market Cap, 24h Volume n/a: …`, or
  /// with a `subject`, `bitcoin: value, unrealized n/a: …`. `stats`, `holdings` and `report`
  /// explain every n/a figure with it.
  static func unavailable(_ labelled: [(String, Measure?)], of subject: String? = nil) -> [String] {
    var reasons: [String] = []
    var labels: [String: [String]] = [:]
    for (label, measure) in labelled {
      guard let reason = measure?.reason else { continue }
      if labels[reason] == nil { reasons.append(reason) }
      labels[reason, default: []].append(label)
    }
    return reasons.map { reason in
      (subject.map { $0 + ": " } ?? "") + (labels[reason] ?? []).joined(separator: ", ")
        + " n/a: " + reason
    }
  }

  // MARK: - Report header

  /// `Daily report: portfolio main (USD, fifo), 2024-11-30`.
  static func title(_ report: DailyReport) -> String {
    "Daily report: portfolio \(report.portfolio.name) "
      + "(\(report.portfolio.currency.uppercased()), \(Formatting.method(report.method))), \(report.day)"
  }

  /// Where the prices come from, or that there are none.
  static func snapshotLine(_ report: DailyReport) -> String {
    guard let snapshot = report.snapshot else {
      return "No market snapshot in \(report.portfolio.currency.uppercased()) was taken by the "
        + "end of \(report.day); run 'folio market refresh' (online) or 'folio market import FILE'"
    }
    return MarketFormat.snapshotLine(snapshot)
  }

  /// The staleness warning, if the snapshot is too old. A refresh cannot price a past day:
  /// for one, the advice is the daily closing prices of `market history`.
  static func staleWarning(_ report: DailyReport) -> String? {
    guard let age = report.staleAge, let snapshot = report.snapshot else { return nil }
    let isPast = report.day < String(report.generatedAt.prefix(10))
    return "the market snapshot (\(snapshot.fetchedAt)) is "
      + "\(MarketTime.formatDuration(age, units: 2)) old, older than "
      + "\(MarketTime.formatDuration(report.maxAge)); "
      + (isPast
        ? "run 'folio market history --since \(report.day)' for the closing prices of that day"
        : "run 'folio market refresh'")
  }

  /// One sentence per holding, and one for the total, whose figures read n/a although priced
  /// (too large to compute exactly), with the reason.
  static func holdingNotes(_ report: DailyReport) -> [String] {
    var notes: [String] = []
    for holding in report.holdings {
      guard let reason = holding.unavailable else { continue }
      let measure = Measure.unavailable(reason)
      notes += unavailable(
        [("value", measure), ("share", measure), ("unrealized", measure)], of: holding.label)
    }
    if let reason = report.figures.unavailable {
      let measure = Measure.unavailable(reason)
      notes += unavailable([("value", measure), ("unrealized", measure)], of: "Total")
    }
    return notes
  }

  /// Holdings whose price comes from an older snapshot than the report's.
  /// Also names the holdings priced at a daily close (marked `†`).
  static func olderPrices(_ report: DailyReport) -> String? {
    let closes = report.holdings.filter(\.isDailyClose)
    var parts: [String] = []
    let older = report.holdings.filter { isOlder($0, report) }.map { ($0.label, $0.priceAt) }
    if let older = olderPrices(older, newest: nil) { parts.append(older) }
    if !closes.isEmpty {
      parts.append(
        "† daily closing price: "
          + closes.map { "\($0.label) (\($0.priceAt ?? ""))" }.joined(separator: ", "))
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// True when the holding's price is a quote of an older snapshot than the report's.
  static func isOlder(_ holding: ReportHolding, _ report: DailyReport) -> Bool {
    !holding.isDailyClose && holding.priceAt != nil
      && holding.priceAt != report.snapshot?.fetchedAt
  }

  /// The price cell of a holding, marked `*` when it comes from an older snapshot and `†`
  /// when it is a daily close.
  static func holdingPrice(_ holding: ReportHolding, _ report: DailyReport) -> String {
    Formatting.money(holding.price, .price, in: report.portfolio.currency)
      + (isOlder(holding, report) ? "*" : holding.isDailyClose ? "†" : "")
  }

  // MARK: - Trades and history

  /// `12:30:00` from `2024-11-30T12:30:00Z`.
  static func time(_ stamp: String) -> String {
    let parts = stamp.split(separator: "T")
    guard parts.count == 2 else { return stamp }
    return String(parts[1].dropLast(parts[1].hasSuffix("Z") ? 1 : 0))
  }

  /// The first and last known values of the series and the change between them, which is
  /// the market gain only (money put in or taken out is not a change):
  /// `2024-11-01 $20,000.00 → 2024-11-30 $24,451.23: net flow +$4,000.00, market gain
  /// +$451.23 (+2.10% time-weighted)`.
  static func historySummary(_ report: DailyReport) -> String? {
    let known = report.history.filter { $0.value != nil }
    guard let first = known.first, let last = known.last, let from = first.value,
      let to = last.value
    else { return nil }
    let currency = report.portfolio.currency
    var text =
      "\(first.day) \(Formatting.money(from, in: currency)) → "
      + "\(last.day) \(Formatting.money(to, in: currency))"
    if first.day != last.day, let window = report.chartReturn {
      if let flow = window.netFlow.value, let gain = window.marketGain.value {
        text +=
          ": net flow \(Formatting.money(flow, in: currency, sign: .nonZero)), market gain "
          + Formatting.money(gain, in: currency, sign: .nonZero)
        if let twr = window.twr.value {
          text += " (\(Formatting.percent(twr)) time-weighted)"
        }
      } else if let reason = window.marketGain.reason {
        text += ": market gain n/a: " + reason
      }
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
