import FolioService
import Foundation

/// `--max-age DURATION` and `--strict`, taken by every command that shows prices.
///
/// They are options of those commands rather than global options: Parser's global options are
/// value options stored in `GlobalOptions`, and a global `--strict` flag would also appear in the
/// help of commands that never read prices.
struct PriceFreshness {
  static let defaultMaxAge: TimeInterval = 86_400

  static let options: [OptionSpec] = [
    .value(
      "max-age", "duration",
      help: "Warn when the snapshot is older than this (default 24h; e.g. 90m, 7d)."),
    .flag("strict", help: "Fail (exit 65) instead of warning when the snapshot is too old."),
  ]

  let maxAge: TimeInterval
  let strict: Bool

  init(_ values: ParsedValues) throws {
    maxAge =
      try values.value(
        "max-age", expected: "a duration such as 30m, 24h or 7d", MarketTime.parseDuration)
      ?? Self.defaultMaxAge
    strict = values.flag("strict")
  }

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
enum CurrencyOption {
  static func spec(_ help: String = "The currency of the prices (default: usd).") -> OptionSpec {
    .value("vs", "currency", help: help)
  }

  /// The lower-cased currency code (2 to 10 letters), default usd.
  static func parse(_ values: ParsedValues) throws -> String {
    try values.value("vs", expected: "a currency code such as usd or eur") { text in
      let code = text.lowercased()
      let letters = code.unicodeScalars.allSatisfy { ("a"..."z").contains($0) }
      return letters && (2...10).contains(code.count) ? code : nil
    } ?? "usd"
  }
}

extension Context {
  /// Prints each warning as `folio: warning: …`.
  func warn(all warnings: [String]) {
    for warning in warnings { warn(warning) }
  }
}
