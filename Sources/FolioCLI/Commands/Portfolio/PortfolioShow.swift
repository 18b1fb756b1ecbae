import FolioService

/// `folio portfolio show [NAME]`.
struct PortfolioShow: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "show", abstract: "Show one portfolio (default: the one in use).")

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "The portfolio.") var name: String?
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let summary = try PortfolioService(context.store()).show(
      name ?? context.globals.portfolio ?? context.environment["FOLIO_PORTFOLIO"])
    if format == .json {
      context.print(PortfolioRendering.json(summary.portfolio, summary: summary).rendered())
      return
    }
    context.print("name:     \(summary.portfolio.name)\(summary.isDefault ? " (default)" : "")")
    context.print("currency: \(summary.portfolio.currency)")
    context.print("method:   \(summary.portfolio.method.rawValue)")
    context.print("trades:   \(summary.tradeCount) in \(summary.coinCount) coin(s)")
    context.print("created:  \(summary.portfolio.createdAt)")
  }
}
