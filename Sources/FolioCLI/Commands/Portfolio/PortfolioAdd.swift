import FolioService
import FolioStorage

/// `folio portfolio add NAME`.
struct PortfolioAdd: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "add", abstract: "Create a portfolio.", createsDatabase: true)

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "Letters, digits, '.', '_' or '-'.") var name: String
  @Option(valueName: "code", help: "The currency of prices and fees (default: usd).")
  var currency = "usd"
  @Option(help: "Cost-basis method (default: fifo).") var method = CostMethod.fifo
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).add(
      name: name, currency: currency, method: method, now: context.now)
    switch format {
    case .json: context.print(PortfolioRendering.json(portfolio).rendered())
    case .text:
      context.print(
        "created portfolio '\(portfolio.name)' (\(portfolio.currency), \(portfolio.method.rawValue))"
      )
    }
  }
}

/// Shared rendering of portfolios.
enum PortfolioRendering {
  static func json(_ portfolio: Portfolio, summary: PortfolioSummary? = nil) -> JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("name", .string(portfolio.name)), ("currency", .string(portfolio.currency)),
      ("method", .string(portfolio.method.rawValue)), ("created_at", .string(portfolio.createdAt)),
    ]
    if let summary {
      pairs += [
        ("default", .bool(summary.isDefault)), ("trades", .int(summary.tradeCount)),
        ("coins", .int(summary.coinCount)),
      ]
    }
    return .object(pairs)
  }
}
