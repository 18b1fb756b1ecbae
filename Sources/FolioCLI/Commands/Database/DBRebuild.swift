import FolioService
import FolioStorage

/// `folio db rebuild`: recomputes every derived table from the trades in one transaction.
struct DBRebuild: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "rebuild",
    abstract:
      "Recompute lots, lot consumptions, disposals, positions and position days from the trades.",
    discussion: """
      Deletes every row of the derived tables and books the trades of every portfolio again,
      in one transaction: after hand edits of the trades table, this brings the rest in line.
      A sell that exceeds what was held at that time stops the rebuild (exit 65, nothing
      changed). portfolio_daily is not touched: it records each day's prices.
      """)

  enum Format: String, OutputFormat { case text, json }

  @Option var format = Format.text

  func run(_ context: Context) throws {
    let report = try LedgerAudit(context.store()).rebuild()
    if format == .json {
      context.print(json(report).rendered())
      return
    }
    context.say(
      "rebuilt the derived tables of \(report.portfolios.count) portfolio(s) from \(report.trades) "
        + "trade(s), replacing \(report.removed.total) derived row(s)")
    var table = TextTable(
      headers: ["PORTFOLIO", "TRADES", "POSITIONS", "LOTS", "DISPOSALS", "CONSUMPTIONS"],
      rightAligned: Set(1...5), shortenable: [0: 12])
    for entry in report.portfolios {
      table.rows.append([
        entry.portfolio.name, String(entry.trades), String(entry.written.positions),
        String(entry.written.lots), String(entry.written.disposals),
        String(entry.written.consumptions),
      ])
    }
    context.out.write(table.rendered(width: context.width))
    if report.tradesWithoutPortfolio > 0 {
      context.warn(
        "\(report.tradesWithoutPortfolio) trade(s) belong to no portfolio and were left out; "
          + "'folio db check' lists them")
    }
  }

  func json(_ report: RebuildReport) -> JSONValue {
    func counts(_ counts: DerivedRowCounts) -> JSONValue {
      .object([
        ("positions", .int(counts.positions)), ("lots", .int(counts.lots)),
        ("disposals", .int(counts.disposals)), ("lot_consumptions", .int(counts.consumptions)),
      ])
    }
    return .object([
      ("removed", counts(report.removed)),
      (
        "portfolios",
        .array(
          report.portfolios.map {
            .object([
              ("portfolio", .string($0.portfolio.name)),
              ("method", .string($0.portfolio.method.rawValue)),
              ("trades", .int($0.trades)), ("written", counts($0.written)),
            ])
          })
      ),
      ("trades_without_portfolio", .int(report.tradesWithoutPortfolio)),
    ])
  }
}
