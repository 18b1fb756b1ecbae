import FolioService

/// `folio portfolio rename OLD NEW`.
struct PortfolioRename: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "rename", abstract: "Rename a portfolio.", createsDatabase: true)

  @Argument(help: "The current name.") var old: String
  @Argument(help: "The new name.") var new: String

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).rename(old, to: new)
    context.print("renamed portfolio '\(old)' to '\(portfolio.name)'")
  }
}
