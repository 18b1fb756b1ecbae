import FolioService

/// `folio portfolio list`.
struct PortfolioList: FolioCommand {
  static let configuration = CommandConfiguration(name: "list", abstract: "List the portfolios.")

  enum Format: String, OutputFormat { case text, json }

  @Option var format = Format.text

  func run(_ context: Context) throws {
    let summaries = try PortfolioService(context.store()).list()
    if format == .json {
      context.print(
        JSONValue.array(summaries.map { PortfolioRendering.json($0.portfolio, summary: $0) })
          .rendered())
      return
    }
    var table = TextTable(
      headers: ["NAME", "CURRENCY", "METHOD", "TRADES", "COINS", "DEFAULT"], rightAligned: [3, 4],
      dropOrder: [5, 4, 3])
    for summary in summaries {
      table.rows.append([
        summary.portfolio.name, summary.portfolio.currency, summary.portfolio.method.rawValue,
        String(summary.tradeCount), String(summary.coinCount), summary.isDefault ? "*" : "",
      ])
    }
    context.out.write(table.rendered(width: context.width))
  }
}
