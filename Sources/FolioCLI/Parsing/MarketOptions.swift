import FolioService
import Foundation

/// `--max-age DURATION` and `--strict`, taken by every command that shows prices.
///
/// They are options of those commands rather than global options: a global `--strict` flag
/// would also appear in the help of commands that never read prices.
struct PriceFreshness: ParsableArguments {
  @Option(help: "Warn when the snapshot is older than this (default 24h; e.g. 90m, 7d).")
  var maxAge: TimeInterval = 86_400
  @Flag(help: "Fail (exit 65) instead of warning when the snapshot is too old.") var strict: Bool

  /// Warns on stderr, or with `--strict` throws (exit 65), when `snapshotAt` is older than
  /// `--max-age`.
  func check(_ snapshotAt: String, _ context: Context) throws {
    let stale = MarketData.stale(snapshotAt, now: context.now, maxAge: maxAge)
    try check(stale, context, warning: stale?.errorDescription)
  }

  /// With `--strict` throws `stale`; otherwise prints `warning`, if any.
  func check(_ stale: MarketError?, _ context: Context, warning: String?) throws {
    guard let stale else { return }
    if strict { throw stale }
    if let warning { context.warn(warning) }
  }
}

/// `--vs CURRENCY`: the currency prices are quoted in.
struct CurrencyOption: ParsableArguments {
  @Option(name: "vs", help: "The currency of the prices (default: usd).")
  private var code = CurrencyCode("usd")

  /// The lower-cased currency code.
  var vsCurrency: String { code.text }
}

/// `--vs CURRENCY` for commands that fetch prices to value a portfolio (`market history`):
/// without it, the currency of the portfolio in use.
struct PortfolioCurrencyOption: ParsableArguments {
  @Option(name: "vs", help: "The currency of the prices (default: the portfolio's currency).")
  private var code: CurrencyCode?

  /// The lower-cased currency code: `--vs`, else the currency of the portfolio in use.
  func vsCurrency(_ context: Context) throws -> String {
    if let code { return code.text }
    return try context.portfolio().currency
  }
}

/// A currency code of 2 to 10 letters, lower-cased.
struct CurrencyCode: ExpressibleByArgument {
  let text: String

  init(_ text: String) { self.text = text }

  init?(argument: String) {
    let code = argument.lowercased()
    guard code.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }),
      (2...10).contains(code.count)
    else { return nil }
    text = code
  }

  static let expected = "a currency code such as usd or eur"
  static let placeholder: String? = "currency"
}

extension Context {
  /// Prints each warning as `folio: warning: …`.
  func warn(all warnings: [String]) {
    for warning in warnings { warn(warning) }
  }
}
