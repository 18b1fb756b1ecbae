import FolioService

/// `folio portfolio rename OLD NEW`.
struct PortfolioRename: RunnableCommand {
  var createsDatabase: Bool { true }

  static let spec = CommandSpec(
    name: "rename",
    abstract: "Rename a portfolio.",
    arguments: [
      ArgumentSpec(name: "old", help: "The current name."),
      ArgumentSpec(name: "new", help: "The new name."),
    ],
    make: { try Self($0) })

  let old: String
  let new: String

  init(_ values: ParsedValues) throws {
    old = values.argument(0)
    new = values.argument(1)
  }

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).rename(old, to: new)
    context.print("renamed portfolio '\(old)' to '\(portfolio.name)'")
  }
}
