import FolioService
import FolioStorage

/// `folio portfolio add NAME`.
struct PortfolioAdd: RunnableCommand {
  var createsDatabase: Bool { true }

  static let spec = CommandSpec(
    name: "add",
    abstract: "Create a portfolio.",
    arguments: [ArgumentSpec(name: "name", help: "Letters, digits, '.', '_' or '-'.")],
    options: [
      .value("currency", "code", help: "The currency of prices and fees (default: usd)."),
      .value("method", "fifo|lifo|hifo|average", help: "Cost-basis method (default: fifo)."),
      LegacyFormat.option([.text, .json]),
    ],
    make: { try Self($0) })

  let name: String
  let currency: String
  let method: CostMethod
  let format: LegacyFormat

  init(_ values: ParsedValues) throws {
    name = values.argument(0)
    currency = values.value("currency") ?? "usd"
    method =
      try values.value("method", expected: "fifo, lifo, hifo or average") {
        CostMethod(rawValue: $0)
      } ?? .fifo
    format = try LegacyFormat.parse(values, allowed: [.text, .json])
  }

  func run(_ context: Context) throws {
    let portfolio = try PortfolioService(context.store()).add(
      name: name, currency: currency, method: method, now: context.now)
    if format == .json {
      context.print(PortfolioRendering.json(portfolio).rendered())
    } else {
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
