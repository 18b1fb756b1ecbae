import Foundation

/// Why a CoinGecko request failed after the retries it was allowed.
public enum CoinGeckoError: LocalizedError, ClassifiedError, Equatable {
  /// HTTP 429 on every attempt, or a Retry-After longer than Folio waits.
  case rateLimited(endpoint: String, attempts: Int, retryAfter: TimeInterval?)
  /// HTTP 5xx on every attempt.
  case serverError(endpoint: String, status: Int, attempts: Int)
  /// No HTTP response: refused, timed out, cut short.
  case unreachable(endpoint: String, reason: String, attempts: Int)
  /// Another 4xx status, such as 401 for a bad API key.
  case rejected(endpoint: String, status: Int, message: String?)
  /// HTTP 404 for /coins/{id}.
  case coinNotFound(String)
  /// A 2xx response whose body is not the JSON expected.
  case malformedResponse(endpoint: String, reason: String)
  /// A response larger than `FOLIO_HTTP_MAX_BYTES` (decompressed); not retried.
  case tooLarge(endpoint: String, limit: Int)
  /// No request could be made: the network helper is missing or cannot be run. Not retried.
  case helperUnavailable(String)

  public var kind: FailureKind {
    if case .coinNotFound = self { return .badData }
    return .unavailable
  }

  public var errorDescription: String? {
    switch self {
    case .rateLimited(let endpoint, let attempts, let retryAfter):
      let wait = retryAfter.map { "CoinGecko asks to wait \(Int($0.rounded(.up)))s; " } ?? ""
      return "CoinGecko is rate-limiting requests (HTTP 429 for \(endpoint) after "
        + "\(attempts) attempt(s)); \(wait)wait a minute and run the refresh again, or set "
        + "COINGECKO_API_KEY to a free demo API key for a higher limit"
    case .serverError(let endpoint, let status, let attempts):
      return "CoinGecko answered HTTP \(status) for \(endpoint) after \(attempts) attempt(s); "
        + "the service is having trouble, try again later"
    case .unreachable(let endpoint, let reason, let attempts):
      return "cannot reach CoinGecko for \(endpoint): \(reason) (after \(attempts) attempt(s)); "
        + "check the network connection, or FOLIO_COINGECKO_URL if it is set"
    case .rejected(let endpoint, let status, let message):
      let detail = message.map { ": \($0)" } ?? ""
      let hint =
        status == 401 || status == 403
        ? "; check COINGECKO_API_KEY or COINGECKO_PRO_API_KEY"
        : ""
      return "CoinGecko refused the request for \(endpoint) with HTTP \(status)\(detail)\(hint)"
    case .coinNotFound(let id):
      return "CoinGecko knows no coin with the id '\(id)'; look the id up with "
        + "'folio coins list --search TEXT'"
    case .tooLarge(let endpoint, let limit):
      return "CoinGecko's response for \(endpoint) is larger than \(limit) bytes "
        + "(FOLIO_HTTP_MAX_BYTES); it was not read"
    case .helperUnavailable(let reason):
      return reason
    case .malformedResponse(let endpoint, let reason):
      return "CoinGecko sent a response for \(endpoint) that Folio cannot read (\(reason)); "
        + "try again later"
    }
  }
}
