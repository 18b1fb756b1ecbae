import FolioService
import FolioStorage

/// `folio holdings`.
struct HoldingsCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "holdings",
    abstract: "Show quantity, cost basis, value and profit per coin, with totals.",
    discussion: """
      Cost basis includes buy fees; realized profit is sell proceeds (after fees) minus the cost
      basis of the units sold, chosen by the method (the portfolio's own unless --method is given).
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(help: "Compute with this method instead.") var method: CostMethod?
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let holdings = try HoldingsService(context.store()).holdings(
      context.portfolio(), method: method)
    switch format {
    case .json: context.print(json(holdings).rendered())
    case .csv: csv(holdings, context)
    case .text: text(holdings, context)
    }
  }

  func json(_ holdings: Holdings) -> JSONValue {
    .object([
      ("portfolio", .string(holdings.portfolio.name)),
      ("currency", .string(holdings.portfolio.currency)),
      ("method", .string(holdings.method.rawValue)),
      (
        "holdings",
        .array(
          holdings.rows.map { row in
            .object([
              ("coin", .string(row.coinID)), ("quantity", .decimal(row.quantity)),
              ("average_cost", .decimal(row.averageCost)), ("cost_basis", .decimal(row.costBasis)),
              ("price", .decimal(row.quote?.price)), ("price_source", .string(row.quote?.source)),
              ("price_time", .string(row.quote?.asOf)), ("value", .decimal(row.value)),
              ("unrealized_pnl", .decimal(row.unrealized)),
              ("realized_pnl", .decimal(row.realized)),
              ("share", .decimal(row.share)),
            ])
          })
      ),
      (
        "totals",
        .object([
          ("value", .decimal(holdings.totalValue)),
          ("cost_basis", .decimal(holdings.totalCostBasis)),
          ("unrealized_pnl", .decimal(holdings.totalUnrealized)),
          ("realized_pnl", .decimal(holdings.totalRealized)),
        ])
      ),
      ("unpriced", .array(holdings.unpriced.map { .string($0) })),
    ])
  }

  func csv(_ holdings: Holdings, _ context: Context) {
    context.out.write(
      CSVWriter.line([
        "coin", "quantity", "average_cost", "cost_basis", "price", "price_time", "value",
        "unrealized_pnl", "realized_pnl", "share",
      ]))
    for row in holdings.rows {
      context.out.write(
        CSVWriter.line([
          row.coinID, row.quantity.description, row.averageCost?.description ?? "",
          row.costBasis.description, row.quote?.price.description ?? "", row.quote?.asOf ?? "",
          row.value?.description ?? "", row.unrealized?.description ?? "",
          row.realized.description, row.share?.description ?? "",
        ]))
    }
  }

  func text(_ holdings: Holdings, _ context: Context) {
    context.print(
      "portfolio \(holdings.portfolio.name) (\(holdings.portfolio.currency), \(holdings.method.rawValue))"
    )
    var table = TextTable(
      headers: [
        "COIN", "QUANTITY", "AVG COST", "COST BASIS", "PRICE", "VALUE", "UNREALIZED", "REALIZED",
        "SHARE",
      ],
      rightAligned: Set(1...8))
    for row in holdings.rows {
      table.rows.append([
        row.coinID, Formatting.quantity(row.quantity),
        Formatting.money(row.averageCost, .ledger, missing: "-"),
        Formatting.money(row.costBasis, .ledger),
        Formatting.money(row.quote?.price, .ledger),
        Formatting.money(row.value, .ledger),
        Formatting.money(row.unrealized, .ledger, sign: .always),
        Formatting.money(row.realized, .ledger, sign: .always),
        Formatting.percent(row.share, .share, missing: ""),
      ])
    }
    table.rows.append([
      "TOTAL", "", "", Formatting.money(holdings.totalCostBasis, .ledger), "",
      Formatting.money(holdings.totalValue, .ledger),
      Formatting.money(holdings.totalUnrealized, .ledger, sign: .always),
      Formatting.money(holdings.totalRealized, .ledger, sign: .always), "",
    ])
    context.out.write(table.rendered())
    let sources = Set(holdings.rows.compactMap { $0.quote?.source })
    if sources.contains("last trade") {
      context.print("prices: last trade price per coin (no market snapshot cached)")
    }
  }
}
