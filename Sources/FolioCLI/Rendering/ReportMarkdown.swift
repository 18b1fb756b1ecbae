import FolioService
import FolioStorage

/// The daily report as GitHub-flavoured Markdown: headings, tables and a text chart, ready to
/// mail from cron or to paste into an issue.
enum ReportMarkdown {
  static func render(_ report: DailyReport) -> String {
    let currency = report.portfolio.currency
    var lines: [String] = [
      "# Folio daily report: \(cell(report.portfolio.name)), \(report.day)", "",
      "Portfolio **\(cell(report.portfolio.name))** in \(currency.uppercased()), cost basis by "
        + "\(cell(Formatting.method(report.method))). \(cell(ReportFormat.snapshotLine(report))). "
        + "Generated \(report.generatedAt).",
    ]
    if let warning = ReportFormat.staleWarning(report) {
      lines += ["", "> **Warning:** \(cell(warning))"]
    }

    lines += ["", "## Statistics", ""] + table(ReportFormat.statisticsTable(report.statistics))
    let notes = ReportFormat.notes(report.statistics)
    if !notes.isEmpty { lines += [""] + notes.map { "- " + cell($0) } }

    lines += ["", "## Holdings", ""]
    if report.holdings.isEmpty {
      lines.append("No coins held at the end of \(report.day).")
    } else {
      // The coin in bold with its name after it; the total's amounts (not its change) in bold.
      let holdings = ReportFormat.holdingsTable(report)
      let rows = zip(report.holdings, holdings.rows).map { holding, cells in
        ["**\(cell(holding.label))**" + (holding.name.map { " " + cell($0) } ?? "")]
          + cells.dropFirst().map(\.text)
      }
      let total = (holdings.total ?? []).enumerated().map { index, figure in
        figure.text.isEmpty || index == 3 ? figure.text : "**\(figure.text)**"
      }
      lines += table(holdings.headers, holdings.figures, rows + [["**Total**"] + total])
      if let older = ReportFormat.olderPrices(report) { lines += ["", cell(older)] }
      let notes = ReportFormat.holdingNotes(report)
      if !notes.isEmpty { lines += [""] + notes.map { "- " + cell($0) } }
    }

    lines += ["", "## Realized profit", ""] + table(ReportFormat.realizedTable(report))
    lines += ["", "## Returns", ""] + table(ReportFormat.returnsTable(report))
    let returnNotes = ReportFormat.returnNotes(report)
    if !returnNotes.isEmpty { lines += [""] + returnNotes.map { "- " + cell($0) } }
    lines += ["", "## Trades on \(report.day)", ""]
    lines += report.trades.isEmpty ? ["None."] : table(ReportFormat.tradesTable(report))
    lines += ["", "## Top movers (24h)", ""]
    lines +=
      report.movers.isEmpty
      ? ["None: no held coin has a 24h change."] : table(ReportFormat.moversTable(report))

    lines += ["", "## Value over the last \(report.historyDays) days", ""]
    let daily = ReportFormat.dailyValues(report)
    let chart = Formatting.chart(
      daily.map(\.value), width: 60, height: 5, gaps: .blank,
      label: { Formatting.money($0, in: currency) })
    if chart.isEmpty {
      lines.append(
        "Not enough saved history: save a day with `folio report --save` or fill the past "
          + "with `folio report backfill --since DAY`.")
    } else {
      lines += ["```text"] + chart + ["```"]
      if let summary = ReportFormat.historySummary(report) { lines += ["", cell(summary)] }
      let known = daily.filter { $0.value != nil }
      lines +=
        [""]
        + table(
          ["Day", "Value"], [1], known.map { [$0.day, Formatting.money($0.value, in: currency)] })
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `table` as Markdown; every cell but the figures is escaped.
  static func table(_ table: ReportFormat.Table) -> [String] {
    Self.table(
      table.headers, table.figures,
      table.rows.map { cells in
        cells.enumerated().map { table.figures.contains($0) ? $1.text : cell($1.text) }
      })
  }

  /// A table's header, its alignment row (figures to the right) and its rows.
  static func table(_ headers: [String], _ figures: Set<Int>, _ rows: [[String]]) -> [String] {
    let alignment = headers.indices.map { figures.contains($0) ? "---:" : "---" }
    return [row(headers), "|" + alignment.joined(separator: "|") + "|"] + rows.map(row)
  }

  static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }

  /// Text made safe for a table cell and for inline Markdown: pipes, backslashes, emphasis
  /// and HTML characters are escaped, line breaks become spaces.
  static func cell(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "|", "\\", "*", "_", "`", "[", "]", "<", ">", "#":
        result += "\\" + String(character)
      case "\n", "\r", "\r\n":
        result += " "
      default:
        result.append(character)
      }
    }
    return FolioCLI.visible(result)
  }
}
