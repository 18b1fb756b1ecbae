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
            Formatting.money(holding.value, in: currency),
            Formatting.percent(holding.change24h), Formatting.sparkline(holding.sparkline),
            Formatting.percent(holding.share, .share, missing: ""),
            Formatting.money(holding.costBasis, in: currency),
            Formatting.money(holding.unrealized, in: currency, sign: .nonZero),
          ]))
      }
      lines.append(
        row([
          "**Total**", "", "",
          "**\(Formatting.money(report.statistics.portfolioValue.value, in: currency))**",
          Formatting.percent(report.statistics.portfolioChange24h.value), "", "",
          "**\(Formatting.money(report.totalCostBasis, in: currency))**",
          "**\(Formatting.money(report.totalUnrealized, in: currency, sign: .nonZero))**",
        ]))
      if let older = ReportFormat.olderPrices(report) { lines += ["", cell(older)] }
    }

    lines += ["", "## Realized profit", "", "| Period | Realized |", "|---|---:|"]
    for (label, value) in ReportText.periods(report) {
      lines.append("| \(label) | \(Formatting.money(value, in: currency, sign: .nonZero)) |")
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
            Formatting.money(trade.price, .price, in: currency),
            Formatting.money(trade.fee, in: currency),
            Formatting.money(entry.realized, in: currency, sign: .nonZero, missing: ""),
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
            cell(mover.label), Formatting.percent(mover.change24h, missing: "—"),
            Formatting.money(mover.valueChange, in: currency, sign: .nonZero),
          ]))
      }
    }

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
      lines += ["", "| Day | Value |", "|---|---:|"]
      for entry in daily where entry.value != nil {
        lines.append("| \(entry.day) | \(Formatting.money(entry.value, in: currency)) |")
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
