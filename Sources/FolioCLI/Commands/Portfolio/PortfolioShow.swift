import FolioService

/// `folio portfolio show [NAME]`.
struct PortfolioShow: RunnableCommand {
  static let spec = CommandSpec(
    name: "show",
    abstract: "Show one portfolio (default: the one in use).",
    arguments: [ArgumentSpec(name: "name", help: "The portfolio.", optional: true)],
    options: [LegacyFormat.option([.text, .json])],
    make: { try Self($0) })

  let name: String?
  let format: LegacyFormat

  init(_ values: ParsedValues) throws {
    name = values.arguments.first
    format = try LegacyFormat.parse(values, allowed: [.text, .json])
  }

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
