import FolioHTTP
import Foundation

/// How often and how long to retry a request that failed with 429, 5xx or no response.
public struct RetryPolicy: Equatable, Sendable {
  /// Attempts in all, the first included.
  public var maxAttempts: Int
  /// The wait after the first failure; it doubles after each further failure.
  public var baseDelay: TimeInterval
  /// The longest single wait from the backoff alone.
  public var maxDelay: TimeInterval
  /// The cap on all waits of one request together; a Retry-After that would pass it ends the
  /// retries at once.
  public var maxTotalWait: TimeInterval

  public init(
    maxAttempts: Int = 4, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 20,
    maxTotalWait: TimeInterval = 60
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.baseDelay = max(0, baseDelay)
    self.maxDelay = max(0, maxDelay)
    self.maxTotalWait = max(0, maxTotalWait)
  }

  /// The wait after failed attempt `attempt` (1-based): the exponential backoff, or the
  /// server's Retry-After when that is longer.
  public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
    let exponent = Double(min(max(attempt - 1, 0), 30))
    let backoff = min(baseDelay * pow(2, exponent), maxDelay)
    return max(backoff, retryAfter ?? 0)
  }
}

/// Where and how to reach CoinGecko, from the environment.
public struct CoinGeckoConfiguration: Equatable, Sendable {
  public static let publicURL = "https://api.coingecko.com/api/v3"
  public static let proURL = "https://pro-api.coingecko.com/api/v3"

  /// The API root without a trailing slash.
  public var baseURL: String
  /// An API key and the header that carries it.
  public struct APIKey: Equatable, Sendable {
    public var header: String
    public var value: String
  }

  /// The API key to send, when one is set.
  public var apiKey: APIKey?
  public var userAgent = "Folio/\(folioVersion) (command-line portfolio manager)"
  public var connectTimeout: TimeInterval = 10
  public var totalTimeout: TimeInterval = 30
  /// The largest response body read, decompressed (`FOLIO_HTTP_MAX_BYTES`, 64 MiB).
  public var maxResponseBytes = HTTPRules.defaultMaxBytes
  public var retry = RetryPolicy()
  /// The network helper that makes the requests (`FOLIO_FETCH`, else beside the executable).
  public var fetchHelper = HelperTransport.besideExecutable

  public init(baseURL: String = publicURL) {
    self.baseURL = baseURL
  }

  /// Reads `FOLIO_COINGECKO_URL`, `COINGECKO_API_KEY` (sent as `x-cg-demo-api-key`),
  /// `COINGECKO_PRO_API_KEY` (sent as `x-cg-pro-api-key`; switches the default URL to the pro
  /// API), `FOLIO_HTTP_CONNECT_TIMEOUT_MS`, `FOLIO_HTTP_TIMEOUT_MS`, `FOLIO_HTTP_RETRIES`,
  /// `FOLIO_HTTP_RETRY_BASE_MS`, `FOLIO_HTTP_RETRY_MAX_DELAY_MS`,
  /// `FOLIO_HTTP_RETRY_MAX_WAIT_MS`, `FOLIO_HTTP_MAX_BYTES` and `FOLIO_FETCH` (the network
  /// helper). A malformed value is a `SettingError` (exit 65); a URL in a message has its
  /// `user:password@` removed.
  public static func fromEnvironment(_ environment: [String: String]) throws
    -> CoinGeckoConfiguration
  {
    func value(_ name: String) -> String? {
      guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty
      else { return nil }
      return text
    }
    func milliseconds(_ name: String, default fallback: TimeInterval) throws -> TimeInterval {
      guard let text = value(name) else { return fallback }
      guard let number = Int(text), number >= 0, number <= 86_400_000 else {
        throw SettingError.invalid(
          name: name, value: text, expected: "a whole number of milliseconds")
      }
      return TimeInterval(number) / 1000
    }
    var configuration = CoinGeckoConfiguration()
    if let pro = value("COINGECKO_PRO_API_KEY") {
      configuration.baseURL = proURL
      configuration.apiKey = APIKey(header: "x-cg-pro-api-key", value: pro)
    } else if let demo = value("COINGECKO_API_KEY") {
      configuration.apiKey = APIKey(header: "x-cg-demo-api-key", value: demo)
    }
    if let url = value("FOLIO_COINGECKO_URL") {
      guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
        scheme == "http" || scheme == "https", parsed.host != nil
      else {
        throw SettingError.invalid(
          name: "FOLIO_COINGECKO_URL", value: HTTPRules.redacted(url),
          expected: "an http or https URL")
      }
      configuration.baseURL = url
    }
    while configuration.baseURL.hasSuffix("/") { configuration.baseURL.removeLast() }
    if let helper = value("FOLIO_FETCH") {
      configuration.fetchHelper = URL(fileURLWithPath: helper)
    }
    configuration.connectTimeout = try milliseconds(
      "FOLIO_HTTP_CONNECT_TIMEOUT_MS", default: configuration.connectTimeout)
    configuration.totalTimeout = try milliseconds(
      "FOLIO_HTTP_TIMEOUT_MS", default: configuration.totalTimeout)
    var retry = RetryPolicy()
    if let text = value("FOLIO_HTTP_RETRIES") {
      guard let retries = Int(text), (0...10).contains(retries) else {
        throw SettingError.invalid(
          name: "FOLIO_HTTP_RETRIES", value: text, expected: "a whole number from 0 to 10")
      }
      retry.maxAttempts = retries + 1
    }
    retry.baseDelay = try milliseconds("FOLIO_HTTP_RETRY_BASE_MS", default: retry.baseDelay)
    retry.maxDelay = try milliseconds("FOLIO_HTTP_RETRY_MAX_DELAY_MS", default: retry.maxDelay)
    retry.maxTotalWait = try milliseconds(
      "FOLIO_HTTP_RETRY_MAX_WAIT_MS", default: retry.maxTotalWait)
    configuration.retry = retry
    if let text = value("FOLIO_HTTP_MAX_BYTES") {
      guard let bytes = Int(text), (1...(1 << 40)).contains(bytes) else {
        throw SettingError.invalid(
          name: "FOLIO_HTTP_MAX_BYTES", value: text,
          expected: "a whole number of bytes from 1 to 1099511627776")
      }
      configuration.maxResponseBytes = bytes
    }
    return configuration
  }
}
