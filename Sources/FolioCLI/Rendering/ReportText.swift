import FolioService
import FolioStorage

/// The daily report as terminal text (colour only when allowed).
enum ReportText {
  static func render(_ report: DailyReport, useColor: Bool) -> String {
    let currency = report.portfolio.currency
    var lines: [String] = [ReportFormat.title(report), ReportFormat.snapshotLine(report)]
    if let warning = ReportFormat.staleWarning(report) { lines.append("warning: " + warning) }

    // Statistics.
    lines += ["", "STATISTICS"]
    var statistics = TextTable(headers: ["STATISTIC", "VALUE", "24H"])
    statistics.rightAligned = [1, 2]
    for statistic in ReportFormat.statistics(report.statistics) {
      statistics.append(
        [statistic.label, statistic.figure, statistic.change ?? ""],
        directions: [nil, nil, statistic.direction])
    }
    var output = lines.joined(separator: "\n") + "\n" + statistics.rendered(useColor: useColor)
    let notes = ReportFormat.notes(report.statistics)
    if !notes.isEmpty { output += notes.map { $0 + "\n" }.joined() }

    // Holdings.
    output += "\nHOLDINGS\n"
    if report.holdings.isEmpty {
      output += "no coins held at the end of \(report.day)\n"
    } else {
      var table = TextTable(
        headers: [
          "COIN", "QUANTITY", "PRICE", "VALUE", "24H", "7D", "SHARE", "COST BASIS", "UNREALIZED",
        ])
      table.rightAligned = [1, 2, 3, 4, 6, 7, 8]
      for holding in report.holdings {
        table.append(
          [
            holding.label, Formatting.quantity(holding.quantity),
            ReportFormat.holdingPrice(holding, report),
            Formatting.money(holding.value, in: currency), Formatting.percent(holding.change24h),
            Formatting.sparkline(holding.sparkline),
            Formatting.percent(holding.share, .share, missing: ""),
            Formatting.money(holding.costBasis, in: currency),
            Formatting.money(holding.unrealized, in: currency, sign: .nonZero),
          ],
          directions: [
            nil, nil, nil, nil, MarketFormat.direction(holding.change24h),
            sparklineDirection(holding.sparkline), nil, nil,
            MarketFormat.direction(holding.unrealized),
          ])
      }
      table.append(
        [
          "TOTAL", "", "", Formatting.money(report.statistics.portfolioValue.value, in: currency),
          Formatting.percent(report.statistics.portfolioChange24h.value), "", "",
          Formatting.money(report.totalCostBasis, in: currency),
          Formatting.money(report.totalUnrealized, in: currency, sign: .nonZero),
        ],
        directions: [
          nil, nil, nil, nil, MarketFormat.direction(report.statistics.portfolioChange24h.value),
          nil, nil, nil, MarketFormat.direction(report.totalUnrealized),
        ])
      output += table.rendered(useColor: useColor)
      if let older = ReportFormat.olderPrices(report) { output += older + "\n" }
    }

    // Realized profit.
    output += "\nREALIZED PROFIT\n"
    var realized = TextTable(headers: ["PERIOD", "REALIZED"])
    realized.rightAligned = [1]
    for (label, value) in periods(report) {
      realized.append(
        [label, Formatting.money(value, in: currency, sign: .nonZero)],
        directions: [nil, MarketFormat.direction(value)])
    }
    output += realized.rendered(useColor: useColor)

    // The day's trades.
    output += "\nTRADES ON \(report.day)\n"
    if report.trades.isEmpty {
      output += "none\n"
    } else {
      var trades = TextTable(
        headers: ["TIME", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "REALIZED", "LOCATION"])
      trades.rightAligned = [3, 4, 5, 6]
      for entry in report.trades {
        let trade = entry.trade
        trades.append(
          [
            ReportFormat.time(trade.executedAt), trade.side.rawValue, label(trade.coinID, report),
            Formatting.quantity(trade.quantity),
            Formatting.money(trade.price, .price, in: currency),
            Formatting.money(trade.fee, in: currency),
            Formatting.money(entry.realized, in: currency, sign: .nonZero, missing: ""),
            entry.location ?? "",
          ],
          directions: [nil, nil, nil, nil, nil, nil, MarketFormat.direction(entry.realized)])
      }
      output += trades.rendered(useColor: useColor)
    }

    // Top movers.
    output += "\nTOP MOVERS (24H)\n"
    if report.movers.isEmpty {
      output += "none: no held coin has a 24h change\n"
    } else {
      var movers = TextTable(headers: ["COIN", "24H", "VALUE CHANGE"])
      movers.rightAligned = [1, 2]
      for mover in report.movers {
        movers.append(
          [
            mover.label, Formatting.percent(mover.change24h, missing: "—"),
            Formatting.money(mover.valueChange, in: currency, sign: .nonZero),
          ],
          directions: [
            nil, MarketFormat.direction(mover.change24h), MarketFormat.direction(mover.valueChange),
          ])
      }
      output += movers.rendered(useColor: useColor)
    }

    // Value over time.
    output += "\nVALUE OVER THE LAST \(report.historyDays) DAYS\n"
    let values = ReportFormat.dailyValues(report).map(\.value)
    let chart = Formatting.chart(
      values, width: 60, height: 5, gaps: .blank, label: { Formatting.money($0, in: currency) })
    if chart.isEmpty {
      output +=
        "not enough saved history; save a day with 'folio report --save' or fill the past with "
        + "'folio report backfill --since DAY'\n"
    } else {
      output += chart.map { $0 + "\n" }.joined()
    }
    if let summary = ReportFormat.historySummary(report) { output += summary + "\n" }
    return output
  }

  /// Day, month to date, year to date and all time.
  static func periods(_ report: DailyReport) -> [(String, ExactDecimal)] {
    [
      ("Day", report.realized.day), ("Month to date", report.realized.monthToDate),
      ("Year to date", report.realized.yearToDate), ("All time", report.realized.allTime),
    ]
  }

  /// The symbol of a held coin, else its id.
  static func label(_ coinID: String, _ report: DailyReport) -> String {
    report.holdings.first { $0.coinID == coinID }?.label ?? coinID
  }

  /// Up when the week ended higher than it began, as the app coloured its chart.
  static func sparklineDirection(_ points: [ExactDecimal?]) -> Bool? {
    let known = points.compactMap { $0 }
    guard let first = known.first, let last = known.last, first != last else { return nil }
    return last > first
  }
}
