import FolioService

/// `folio portfolio delete NAME [--force]`.
struct PortfolioDelete: RunnableCommand {
  var createsDatabase: Bool { true }

  static let spec = CommandSpec(
    name: "delete",
    abstract: "Delete a portfolio; one that holds trades only with --force.",
    arguments: [ArgumentSpec(name: "name", help: "The portfolio.")],
    options: [.flag("force", help: "Delete the portfolio's trades with it.")],
    make: { try Self($0) })

  let name: String
  let force: Bool

  init(_ values: ParsedValues) throws {
    name = values.argument(0)
    force = values.flag("force")
  }

  func run(_ context: Context) throws {
    let count = try PortfolioService(context.store()).delete(name, force: force)
    context.print("deleted portfolio '\(name)'" + (count > 0 ? " and its \(count) trade(s)" : ""))
  }
}
