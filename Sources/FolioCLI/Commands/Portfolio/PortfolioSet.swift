import FolioService
import FolioStorage

/// `folio portfolio set NAME --method M`.
struct PortfolioSet: RunnableCommand {
  var createsDatabase: Bool { true }

  static let spec = CommandSpec(
    name: "set",
    abstract: "Change a portfolio's cost-basis method (its lots are recomputed).",
    arguments: [ArgumentSpec(name: "name", help: "The portfolio.")],
    options: [.value("method", "fifo|lifo|hifo|average", help: "The new cost-basis method.")],
    make: { try Self($0) })

  let name: String
  let method: CostMethod

  init(_ values: ParsedValues) throws {
    name = values.argument(0)
    guard
      let method = try values.value(
        "method", expected: "fifo, lifo, hifo or average", { CostMethod(rawValue: $0) })
    else {
      throw UsageError("missing --method", commandPath: values.path)
    }
    self.method = method
  }

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).setMethod(name, method)
    context.print("portfolio '\(portfolio.name)' now uses \(portfolio.method.rawValue)")
  }
}
