import FolioService
import FolioStorage

/// The daily report for scripts: JSON (every figure as an exact decimal string) and CSV (one
/// row per holding).
enum ReportData {
  static func json(_ report: DailyReport, saved: Bool) -> JSONValue {
    .object(
      [
        ("portfolio", .string(report.portfolio.name)),
        ("currency", .string(report.portfolio.currency)),
      ] + Formatting.methodMembers(report.method) + [
        ("day", .string(report.day)),
        ("generated_at", .string(report.generatedAt)),
        (
          "snapshot",
          report.snapshot.map { snapshot in
            .object([("at", .string(snapshot.fetchedAt)), ("source", .string(snapshot.source))])
          } ?? .null
        ),
        (
          "stale",
          report.staleAge.map { age in
            .object([
              ("age_seconds", .int(Int64(age.rounded(.down)))),
              ("max_age_seconds", .int(Int64(report.maxAge.rounded(.down)))),
              ("warning", .string(ReportFormat.staleWarning(report))),
            ])
          } ?? .null
        ),
        ("statistics", Stats.json(report.statistics)),
        (
          "holdings",
          .array(
            report.holdings.map { holding in
              .object([
                ("coin", .string(holding.coinID)), ("symbol", .string(holding.symbol)),
                ("name", .string(holding.name)), ("quantity", .decimal(holding.quantity)),
                ("price", .decimal(holding.price)), ("price_at", .string(holding.priceAt)),
                ("value", .decimal(holding.value)),
                ("change_24h_percent", .decimal(holding.change24h)),
                ("share_percent", .decimal(holding.share)),
                ("cost_basis", .decimal(holding.costBasis)),
                ("unrealized_pnl", .decimal(holding.unrealized)),
                ("realized_pnl", .decimal(holding.realized)),
                ("sparkline_7d", .array(holding.sparkline.map { .decimal($0) })),
                ("unavailable", .string(holding.unavailable)),
              ])
            })
        ),
        (
          "totals",
          .object([
            ("value", .decimal(report.statistics.portfolioValue.value)),
            ("cost_basis", .decimal(report.totalCostBasis)),
            ("unrealized_pnl", .decimal(report.totalUnrealized)),
            ("unavailable", .string(report.figures.unavailable)),
          ])
        ),
        (
          "realized_pnl",
          .object([
            ("day", .decimal(report.realized.day)),
            ("month_to_date", .decimal(report.realized.monthToDate)),
            ("year_to_date", .decimal(report.realized.yearToDate)),
            ("all_time", .decimal(report.realized.allTime)),
          ])
        ),
        (
          "trades",
          .array(
            report.trades.map { entry in
              TradeRendering.json(entry.trade).appending([
                ("realized_pnl", .decimal(entry.realized)), ("location", .string(entry.location)),
              ])
            })
        ),
        (
          "top_movers",
          .array(
            report.movers.map { mover in
              .object([
                ("coin", .string(mover.coinID)), ("change_24h_percent", .decimal(mover.change24h)),
                ("value_change", .decimal(mover.valueChange)),
              ])
            })
        ),
        (
          "history",
          .array(
            report.history.map { point in
              .object([
                ("day", .string(point.day)), ("value", .decimal(point.value)),
                ("saved", .bool(point.isSaved || (saved && point.day == report.day))),
              ])
            })
        ),
        ("returns", returns(report.returns)),
        ("chart_returns", report.chartReturn.map { returns([$0]) } ?? .null),
        ("saved", .bool(saved)),
      ])
  }

  /// Each period's returns: figures as exact decimal strings (percentages for TWR and the
  /// annualised XIRR), null with the reason in `<figure>_unavailable` when n/a.
  static func returns(_ entries: [PeriodReturn]) -> JSONValue {
    .array(
      entries.map { entry in
        var fields: [(String, JSONValue)] = [
          ("period", .string(entry.period.rawValue)),
          ("from", .string(entry.start?.description)),
          ("through", .string(entry.through)),
        ]
        for (name, measure) in [
          ("net_flow", entry.netFlow), ("market_gain", entry.marketGain),
          ("twr_percent", entry.twr), ("xirr_percent", entry.xirr),
        ] {
          fields += [
            (name, .decimal(measure.value)), (name + "_unavailable", .string(measure.reason)),
          ]
        }
        return .object(fields)
      })
  }

  static let csvHeader =
    [
      "day", "portfolio", "currency", "coin", "symbol", "name", "quantity", "price", "price_at",
      "value", "change_24h_percent", "share_percent", "cost_basis", "unrealized_pnl",
      "realized_pnl", "unavailable",
    ]
    + ReturnPeriod.allCases.flatMap { period in
      ["net_flow", "market_gain", "twr_percent", "xirr_percent"].map { $0 + "_" + period.rawValue }
    } + ["returns_unavailable"]

  /// The portfolio's returns as the trailing CSV fields (the same on every row).
  static func csvReturns(_ report: DailyReport) -> [String] {
    ReturnPeriod.allCases.flatMap { period -> [String] in
      guard let entry = report.returns(period) else { return ["", "", "", ""] }
      return [entry.netFlow, entry.marketGain, entry.twr, entry.xirr].map {
        $0.value?.description ?? ""
      }
    } + [ReportFormat.returnNotes(report).joined(separator: "; ")]
  }

  static func csv(_ report: DailyReport) -> String {
    var output = CSVWriter.line(csvHeader)
    let returns = csvReturns(report)
    for holding in report.holdings {
      output += CSVWriter.line(
        [
          report.day, report.portfolio.name, report.portfolio.currency, holding.coinID,
          holding.symbol ?? "", holding.name ?? "", holding.quantity.description,
          holding.price?.description ?? "", holding.priceAt ?? "", holding.value?.description ?? "",
          holding.change24h?.description ?? "", holding.share?.description ?? "",
          holding.costBasis.description, holding.unrealized?.description ?? "",
          holding.realized.description, holding.unavailable ?? "",
        ] + returns)
    }
    // Closed positions: nothing held, worth 0, with the profit their sells realized, so the
    // realized_pnl column sums to the all-time realized profit.
    for position in report.closed {
      output += CSVWriter.line([
        report.day, report.portfolio.name, report.portfolio.currency, position.coinID,
        position.symbol ?? "", position.name ?? "", "0", "", "", "0", "", "", "0", "0",
        position.realized.description, "",
      ])
    }
    return output
  }
}
