import FolioService
import FolioStorage

/// `folio portfolio set NAME --method M`.
struct PortfolioSet: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "set", abstract: "Change a portfolio's cost-basis method (its lots are recomputed).",
    createsDatabase: true)

  @Argument(help: "The portfolio.") var name: String
  @Option(help: "The new cost-basis method.") var method: CostMethod

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).setMethod(name, method)
    context.print("portfolio '\(portfolio.name)' now uses \(portfolio.method.rawValue)")
  }
}
