import FolioService

/// `folio portfolio delete NAME [--force]`.
struct PortfolioDelete: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete a portfolio; one that holds trades only with --force.",
    createsDatabase: true)

  @Argument(help: "The portfolio.") var name: String
  @Flag(help: "Delete the portfolio's trades with it.") var force: Bool

  func run(_ context: Context) throws {
    let count = try PortfolioService(context.store()).delete(name, force: force)
    context.print("deleted portfolio '\(name)'" + (count > 0 ? " and its \(count) trade(s)" : ""))
  }
}
