import FolioStorage
import Foundation

/// Why market data could not be imported or read.
public enum MarketError: LocalizedError, ClassifiedError, Equatable {
  /// A file named on the command line does not exist (66).
  case fileMissing(String)
  /// A file exists but cannot be read (74).
  case unreadableFile(String, reason: String)
  /// A file is not valid JSON (65).
  case malformedJSON(file: String, JSONParseError)
  /// A file is JSON but not a response Folio knows (65); `line` is where the offending element
  /// of a /coins/markets array starts, when known.
  case wrongShape(file: String, line: Int? = nil, reason: String)
  /// A /coins/markets page whose prices do not look like the currency it is imported as (65);
  /// `likely` is the currency they look like, when one can be told.
  case currencyMismatch(file: String, currency: String, evidence: String, likely: String?)
  /// Nothing is cached for the currency yet (66).
  case noMarketData(vsCurrency: String)
  /// A coin that the cache knows nothing about (65).
  case unknownCoin(String)
  /// The latest snapshot is older than `--max-age` and `--strict` was given (65).
  case staleData(snapshotAt: String, age: String, maxAge: String)
  /// `market history` without --coins for a portfolio without trades (66).
  case nothingToFetch(portfolio: String)
  /// `market history --since` a day after yesterday, the last day with a close (65).
  case sinceTooLate(since: String, lastDay: String)
  /// A market_chart file given to `market import` without `--coin` (65).
  case chartWithoutCoin(file: String)
  /// `--coin` given to `market import` for a file that is not a market_chart response (65).
  case coinForOtherFile(file: String, kind: String)
  /// A response's own time (`whose`: the coin that dates a page), or `--at` (`file` nil), more
  /// than a day after now: it would stay the latest snapshot until that time.
  case future(file: String?, time: String, whose: String?)
  /// A refresh failed; nothing was stored (the kind of the underlying failure).
  case refreshFailed(CoinGeckoError, latestSnapshot: String?)

  /// `staleData` with its durations written out.
  static func stale(snapshotAt: String, age: TimeInterval, maxAge: TimeInterval) -> MarketError {
    .staleData(
      snapshotAt: snapshotAt, age: MarketTime.formatDuration(age, units: 2),
      maxAge: MarketTime.formatDuration(maxAge))
  }

  public var kind: FailureKind {
    switch self {
    case .fileMissing, .noMarketData, .nothingToFetch, .unknownCoin: return .inputMissing
    case .unreadableFile: return .io
    case .refreshFailed(let error, _): return error.kind
    default: return .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .fileMissing(let path):
      return "\(path): no such file"
    case .unreadableFile(let path, let reason):
      return "\(path): cannot be read: \(reason)"
    case .malformedJSON(let file, let error):
      return
        "\(file):\(error.line):\(error.column): not valid JSON: \(error.reason) (nothing was imported)"
    case .wrongShape(let file, let line, let reason):
      let place = line.map { "\(file):\($0)" } ?? file
      return "\(place): not a CoinGecko response Folio can import: \(reason) (nothing was imported)"
    case .currencyMismatch(let file, let currency, let evidence, let likely):
      let cur = currency.uppercased()
      let what =
        likely.map {
          "; the prices look like \($0.uppercased()): if the page is in \($0.uppercased()), "
            + "import it with --vs \($0)"
        } ?? "; give the currency the page was saved in with --vs"
      return "\(file): the prices do not look like \(cur): \(evidence)\(what), or give --force "
        + "to import it as \(cur) anyway (nothing was imported)"
    case .noMarketData(let currency):
      return "no market data in \(currency.uppercased()) is cached; run 'folio market refresh' "
        + "(online) or 'folio market import FILE' first"
    case .unknownCoin(let coin):
      return "no cached market data or details for '\(coin)'; check the id with "
        + "'folio coins list --search \(coin)' or fetch it with 'folio coins show \(coin) --refresh'"
    case .staleData(let snapshotAt, let age, let maxAge):
      return "the latest market snapshot (\(snapshotAt)) is \(age) old, older than --max-age "
        + "\(maxAge); run 'folio market refresh' or raise --max-age"
    case .nothingToFetch(let portfolio):
      return "portfolio '\(portfolio)' has no trades, so no coin was held; name the coins "
        + "with --coins ID,..."
    case .sinceTooLate(let since, let lastDay):
      return "--since \(since) is after \(lastDay), the last UTC day that has ended; daily "
        + "closing prices exist only for days that are over"
    case .chartWithoutCoin(let file):
      return "\(file): a market_chart response does not say which coin it is; give it with "
        + "--coin ID (and its currency with --vs) (nothing was imported)"
    case .future(let file, let time, let whose):
      guard let file else {
        return "--at \(time) is more than a day after now; a snapshot is filed at the time it "
          + "was taken (nothing was imported)"
      }
      return "\(file): its time, \(time)\(whose.map { " (coin '\($0)')" } ?? ""), is more than a "
        + "day after now; file it under the time it was taken with --at (nothing was imported)"
    case .coinForOtherFile(let file, let kind):
      return "\(file): --coin is for market_chart responses, and this is a \(kind); import "
        + "it without --coin (nothing was imported)"
    case .refreshFailed(let error, let latest):
      let kept =
        latest.map { "the snapshot of \($0) is still the latest" } ?? "the cache is still empty"
      return (error.errorDescription ?? "the refresh failed") + " (nothing was stored; \(kept))"
    }
  }
}
