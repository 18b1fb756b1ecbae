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
        + "\(report.method.rawValue). \(cell(ReportFormat.snapshotLine(report))). "
        + "Generated \(report.generatedAt).",
    ]
    if let warning = ReportFormat.staleWarning(report) {
      lines += ["", "> **Warning:** \(cell(warning))"]
    }

    lines += ["", "## Statistics", "", "| Statistic | Value | 24h |", "|---|---:|---:|"]
    for statistic in ReportFormat.statistics(report.statistics) {
      lines.append("| \(statistic.label) | \(statistic.figure) | \(statistic.change ?? "") |")
    }
    let notes = ReportFormat.notes(report.statistics)
    if !notes.isEmpty { lines += [""] + notes.map { "- " + cell($0) } }

    lines += ["", "## Holdings", ""]
    if report.holdings.isEmpty {
      lines.append("No coins held at the end of \(report.day).")
    } else {
      lines += [
        "| Coin | Quantity | Price | Value | 24h | 7 days | Share | Cost basis | Unrealized |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|",
      ]
      for holding in report.holdings {
        let name = holding.name.map { " \(cell($0))" } ?? ""
        lines.append(
          row([
            "**\(cell(holding.label))**\(name)", Formatting.quantity(holding.quantity),
            ReportFormat.holdingPrice(holding, report),
            ReportFormat.amount(holding.value, currency),
            ReportFormat.percent(holding.change24h), ReportFormat.sparkline(holding.sparkline),
            ReportFormat.share(holding.share), MarketFormat.amount(holding.costBasis, currency),
            ReportFormat.signed(holding.unrealized, currency),
          ]))
      }
      lines.append(
        row([
          "**Total**", "", "",
          "**\(ReportFormat.amount(report.statistics.portfolioValue.value, currency))**",
          ReportFormat.percent(report.statistics.portfolioChange24h.value), "", "",
          "**\(MarketFormat.amount(report.totalCostBasis, currency))**",
          "**\(ReportFormat.signed(report.totalUnrealized, currency))**",
        ]))
      if let older = ReportFormat.olderPrices(report) { lines += ["", cell(older)] }
    }

    lines += ["", "## Realized profit", "", "| Period | Realized |", "|---|---:|"]
    for (label, value) in ReportText.periods(report) {
      lines.append("| \(label) | \(ReportFormat.signed(value, currency)) |")
    }

    lines += ["", "## Trades on \(report.day)", ""]
    if report.trades.isEmpty {
      lines.append("None.")
    } else {
      lines += [
        "| Time (UTC) | Side | Coin | Quantity | Price | Fee | Realized | Location |",
        "|---|---|---|---:|---:|---:|---:|---|",
      ]
      for entry in report.trades {
        let trade = entry.trade
        lines.append(
          row([
            ReportFormat.time(trade.executedAt), trade.side.rawValue,
            cell(ReportText.label(trade.coinID, report)), Formatting.quantity(trade.quantity),
            MarketFormat.price(trade.price, currency), MarketFormat.amount(trade.fee, currency),
            entry.realized.map { ReportFormat.signed($0, currency) } ?? "",
            cell(entry.location ?? ""),
          ]))
      }
    }

    lines += ["", "## Top movers (24h)", ""]
    if report.movers.isEmpty {
      lines.append("None: no held coin has a 24h change.")
    } else {
      lines += ["| Coin | 24h | Value change |", "|---|---:|---:|"]
      for mover in report.movers {
        lines.append(
          row([
            cell(mover.label), MarketFormat.percent(mover.change24h),
            mover.valueChange.map { ReportFormat.signed($0, currency) } ?? "n/a",
          ]))
      }
    }

    lines += ["", "## Value over the last \(report.historyDays) days", ""]
    let daily = ReportFormat.dailyValues(report)
    let chart = ReportFormat.chartLines(daily.map(\.value), currency: currency)
    if chart.isEmpty {
      lines.append(
        "Not enough saved history: save a day with `folio report --save` or fill the past "
          + "with `folio report backfill --since DAY`.")
    } else {
      lines += ["```text"] + chart + ["```"]
      if let summary = ReportFormat.historySummary(report) { lines += ["", cell(summary)] }
      lines += ["", "| Day | Value |", "|---|---:|"]
      for entry in daily where entry.value != nil {
        lines.append("| \(entry.day) | \(ReportFormat.amount(entry.value, currency)) |")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A table row.
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
