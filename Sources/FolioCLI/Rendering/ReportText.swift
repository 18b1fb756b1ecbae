import FolioService
import FolioStorage

/// The daily report as terminal text (colour only when allowed).
enum ReportText {
  static func render(_ report: DailyReport, useColor: Bool) -> String {
    func table(_ table: ReportFormat.Table) -> String { text(table, useColor: useColor) }
    var output = ReportFormat.title(report) + "\n" + ReportFormat.snapshotLine(report) + "\n"
    if let warning = ReportFormat.staleWarning(report) { output += "warning: " + warning + "\n" }
    output += "\nSTATISTICS\n" + table(ReportFormat.statisticsTable(report.statistics))
    output += ReportFormat.notes(report.statistics).map { $0 + "\n" }.joined()

    output += "\nHOLDINGS\n"
    if report.holdings.isEmpty {
      output += "no coins held at the end of \(report.day)\n"
    } else {
      output += table(ReportFormat.holdingsTable(report))
      if let older = ReportFormat.olderPrices(report) { output += older + "\n" }
      output += ReportFormat.holdingNotes(report).map { $0 + "\n" }.joined()
    }
    output += "\nREALIZED PROFIT\n" + table(ReportFormat.realizedTable(report))
    output += "\nRETURNS\n" + table(ReportFormat.returnsTable(report))
    output += ReportFormat.returnNotes(report).map { $0 + "\n" }.joined()
    output += "\nTRADES ON \(report.day)\n"
    output += report.trades.isEmpty ? "none\n" : table(ReportFormat.tradesTable(report))
    output += "\nTOP MOVERS (24H)\n"
    output +=
      report.movers.isEmpty
      ? "none: no held coin has a 24h change\n" : table(ReportFormat.moversTable(report))

    output += "\nVALUE OVER THE LAST \(report.historyDays) DAYS\n"
    let values = ReportFormat.dailyValues(report).map(\.value)
    let chart = Formatting.chart(
      values, width: 60, height: 5, gaps: .blank,
      label: { Formatting.money($0, in: report.portfolio.currency) })
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

  /// Headers the terminal writes shorter than Markdown and HTML do; the others are upper-cased.
  private static let shortHeaders = ["7 days": "7D", "Time (UTC)": "TIME"]

  /// `table` as aligned text, its total (if any) as the last row, coloured when allowed.
  static func text(_ table: ReportFormat.Table, useColor: Bool) -> String {
    var text = TextTable(
      headers: table.headers.map { shortHeaders[$0] ?? $0.uppercased() },
      rightAligned: table.figures)
    for row in table.rows + (table.total.map { [[ReportFormat.Cell("TOTAL")] + $0] } ?? []) {
      text.append(row.map(\.text), directions: row.map(\.direction))
    }
    return text.rendered(useColor: useColor)
  }
}
