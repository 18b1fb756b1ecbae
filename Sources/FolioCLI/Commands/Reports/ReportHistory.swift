import FolioService
import FolioStorage
import Foundation

/// `folio report history`: the saved daily values with a terminal chart.
struct ReportHistory: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "history",
    abstract: "Show the saved daily history: value over time with a chart.",
    discussion: """
      Lists the days saved by 'folio report --save' or 'folio report backfill', oldest first,
      with the value, the net flow (money put in or taken out) and the market gain since the
      previous saved day, the change (market gain in percent, Modified Dietz), cost basis,
      unrealized and realized profit and the snapshot the prices came from. Days are UTC; --since and --until
      are inclusive. Exit codes: 0 ok (also when nothing is saved), 64 usage, 65 --since after
      --until, 66 no database.
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(help: "The first day to show.") var since: CalendarDay?
  @Option(help: "The last day to show.") var until: CalendarDay?
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    let portfolio = try context.portfolio()
    let service = ReportService(store)
    let rows = try service.history(portfolio, since: since, until: until)
    let returns = try service.dayReturns(portfolio, rows: rows)
    switch format {
    case .json:
      let periods = try service.historyReturns(portfolio, rows: rows)
      context.print(json(rows, returns, periods, portfolio).rendered())
    case .csv: context.out.write(csv(rows, returns, portfolio))
    case .text:
      context.out.write(
        text(rows, returns, portfolio, useColor: context.useColor, width: context.width))
    }
  }

  func text(
    _ rows: [DailyRecord], _ returns: [DayReturn], _ portfolio: Portfolio, useColor: Bool,
    width: Int
  ) -> String {
    let currency = portfolio.currency
    var output = ReportText.paragraphs(
      [
        "Daily history of portfolio '\(portfolio.name)' (\(currency.uppercased())): "
          + "\(rows.count) saved day(s)"
      ], width: width)
    guard let first = rows.first, let last = rows.last else {
      return output
        + ReportText.paragraphs(
          [
            "nothing saved yet; run 'folio report --save' daily (for example from cron) or "
              + "'folio report backfill --since DAY'"
          ], width: width)
    }
    // One chart column per calendar day, so gaps show as gaps.
    if let start = CalendarDay(first.day), let end = CalendarDay(last.day) {
      let byDay = Dictionary(rows.map { ($0.day, $0.value) }, uniquingKeysWith: { _, new in new })
      let values = (0...max(0, Int(end.ordinal - start.ordinal))).map {
        byDay[start.adding(days: $0).description] ?? nil
      }
      let chart = Formatting.chart(
        values, width: 72, fitting: width, height: 8, gaps: .blank,
        label: { Formatting.money($0, in: currency) })
      if !chart.isEmpty {
        output += "\n" + chart.map { $0 + "\n" }.joined()
        output += "first \(first.day), last \(last.day)\n"
      }
    }
    output += "\n"
    var table = TextTable(
      headers: [
        "DAY", "VALUE", "NET FLOW", "MARKET GAIN", "CHANGE", "COST BASIS", "UNREALIZED",
        "REALIZED", "SNAPSHOT",
      ], dropOrder: [8, 7, 6, 5, 3, 2])
    table.rightAligned = [1, 2, 3, 4, 5, 6, 7]
    for (row, entry) in zip(rows, returns) {
      let change = entry.percent
      table.append(
        [
          row.day, Formatting.money(row.value, in: currency),
          Formatting.money(entry.netFlow, in: currency, sign: .nonZero, missing: ""),
          Formatting.money(entry.marketGain, in: currency, sign: .nonZero, missing: ""),
          Formatting.percent(change, missing: ""),
          Formatting.money(row.costBasis, in: currency),
          Formatting.money(row.unrealized, in: currency, sign: .nonZero),
          Formatting.money(row.realized, in: currency, sign: .nonZero),
          row.snapshotAt ?? "none",
        ],
        directions: [
          nil, nil, nil, MarketFormat.direction(entry.marketGain), MarketFormat.direction(change),
          nil, MarketFormat.direction(row.unrealized),
          MarketFormat.direction(row.realized),
        ])
    }
    return output + table.rendered(useColor: useColor, width: width)
  }

  func json(
    _ rows: [DailyRecord], _ returns: [DayReturn], _ periods: [PeriodReturn],
    _ portfolio: Portfolio
  ) -> JSONValue {
    .object([
      ("portfolio", .string(portfolio.name)),
      ("currency", .string(portfolio.currency)),
      (
        "days",
        .array(
          zip(rows, returns).map { row, entry in
            .object([
              ("day", .string(row.day)), ("value", .decimal(row.value)),
              ("net_flow", .decimal(entry.netFlow)), ("market_gain", .decimal(entry.marketGain)),
              ("change_percent", .decimal(entry.percent)),
              ("cost_basis", .decimal(row.costBasis)),
              ("unrealized_pnl", .decimal(row.unrealized)),
              ("realized_pnl", .decimal(row.realized)), ("snapshot_at", .string(row.snapshotAt)),
              ("saved_at", .string(row.savedAt)),
            ])
          })
      ),
      ("returns", ReportData.returns(periods)),
    ])
  }

  func csv(_ rows: [DailyRecord], _ returns: [DayReturn], _ portfolio: Portfolio) -> String {
    var output = CSVWriter.line([
      "day", "portfolio", "currency", "value", "net_flow", "market_gain", "change_percent",
      "cost_basis", "unrealized_pnl", "realized_pnl",
      "snapshot_at", "saved_at",
    ])
    for (row, entry) in zip(rows, returns) {
      output += CSVWriter.line([
        row.day, portfolio.name, portfolio.currency, row.value?.description ?? "",
        entry.netFlow?.description ?? "", entry.marketGain?.description ?? "",
        entry.percent?.description ?? "",
        row.costBasis?.description ?? "", row.unrealized?.description ?? "",
        row.realized?.description ?? "", row.snapshotAt ?? "", row.savedAt,
      ])
    }
    return output
  }
}
