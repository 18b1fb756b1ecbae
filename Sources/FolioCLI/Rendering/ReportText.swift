import FolioService
import FolioStorage

/// The daily report as terminal text (colour only when allowed), `width` columns wide.
enum ReportText {
  static func render(_ report: DailyReport, useColor: Bool, width: Int) -> String {
    func table(_ table: ReportFormat.Table) -> String {
      text(table, useColor: useColor, width: width)
    }
    func prose(_ lines: [String]) -> String { paragraphs(lines, width: width) }
    var output = prose([ReportFormat.title(report), ReportFormat.snapshotLine(report)])
    if let warning = ReportFormat.staleWarning(report) { output += prose(["warning: " + warning]) }
    output += "\nSTATISTICS\n" + table(ReportFormat.statisticsTable(report.statistics))
    output += prose(ReportFormat.notes(report.statistics))

    output += "\nHOLDINGS\n"
    if report.holdings.isEmpty {
      output += "no coins held at the end of \(report.day)\n"
    } else {
      output += table(ReportFormat.holdingsTable(report))
      output += prose([ReportFormat.olderPrices(report)].compactMap { $0 })
      output += prose(ReportFormat.holdingNotes(report))
    }
    output += "\nREALIZED PROFIT\n" + table(ReportFormat.realizedTable(report))
    output += "\nRETURNS\n" + table(ReportFormat.returnsTable(report))
    output += prose(ReportFormat.returnNotes(report))
    output += "\nTRADES ON \(report.day)\n"
    output += report.trades.isEmpty ? "none\n" : table(ReportFormat.tradesTable(report))
    output += "\nTOP MOVERS (24H)\n"
    output +=
      report.movers.isEmpty
      ? "none: no held coin has a 24h change\n" : table(ReportFormat.moversTable(report))

    output += "\nVALUE OVER THE LAST \(report.historyDays) DAYS\n"
    let values = ReportFormat.dailyValues(report).map(\.value)
    let chart = Formatting.chart(
      values, width: 60, fitting: width, height: 5, gaps: .blank,
      label: { Formatting.money($0, in: report.portfolio.currency) })
    if chart.isEmpty {
      output += prose([
        "not enough saved history; save a day with 'folio report --save' or fill the past with "
          + "'folio report backfill --since DAY'"
      ])
    } else {
      output += chart.map { $0 + "\n" }.joined()
    }
    output += prose([ReportFormat.historySummary(report)].compactMap { $0 })
    return output
  }

  /// Lines of prose, each wrapped to `width` with its continuation indented two columns.
  static func paragraphs(_ lines: [String], width: Int) -> String {
    lines.map { TextLayout.wrap($0, width: width, indent: 2) + "\n" }.joined()
  }

  /// Headers the terminal writes shorter than Markdown and HTML do; the others are upper-cased.
  private static let shortHeaders = ["7 days": "7D", "Time (UTC)": "TIME"]

  /// The columns a narrow terminal loses first, by their header, in any report table: the
  /// sparkline, then the figures the others imply or that matter least.
  private static let dropOrder = [
    "7 days", "Share", "Location", "XIRR (annual)", "From", "24h", "Cost basis", "Fee",
    "Quantity",
  ]

  /// `table` as aligned text, its total (if any) as the last row, coloured when allowed,
  /// fitted to `width`.
  static func text(_ table: ReportFormat.Table, useColor: Bool, width: Int) -> String {
    var text = TextTable(
      headers: table.headers.map { shortHeaders[$0] ?? $0.uppercased() },
      rightAligned: table.figures,
      shortenable: table.headers.firstIndex(of: "Coin").map { [$0: 12] } ?? [:],
      dropOrder: dropOrder.compactMap { table.headers.firstIndex(of: $0) })
    for row in table.rows + (table.total.map { [[ReportFormat.Cell("TOTAL")] + $0] } ?? []) {
      text.append(row.map(\.text), directions: row.map(\.direction))
    }
    return text.rendered(useColor: useColor, width: width)
  }
}
