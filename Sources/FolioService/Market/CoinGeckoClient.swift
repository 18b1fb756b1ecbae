import FolioHTTP
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
    case .malformedResponse(let endpoint, let reason):
      return "CoinGecko sent a response for \(endpoint) that Folio cannot read (\(reason)); "
        + "try again later"
    }
  }
}

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

/// The CoinGecko API v3 endpoints Folio uses, with retries, over an `HTTPTransport`.
///
/// Not `Sendable`: one refresh uses it on one thread.
public final class CoinGeckoClient {
  /// The page size Folio asks /coins/markets for (the API's maximum).
  public static let pageSize = 250

  public let configuration: CoinGeckoConfiguration
  private let transport: any HTTPTransport
  private let sleep: (TimeInterval) -> Void
  private let clock: () -> Date

  /// `sleep` and `clock` are the real ones unless a test replaces them.
  public init(
    configuration: CoinGeckoConfiguration, transport: (any HTTPTransport)? = nil,
    sleep: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
    clock: @escaping () -> Date = Date.init
  ) {
    self.configuration = configuration
    self.transport =
      transport
      ?? HelperTransport(
        executable: configuration.fetchHelper, connectTimeout: configuration.connectTimeout,
        totalTimeout: configuration.totalTimeout, maxBytes: configuration.maxResponseBytes)
    self.sleep = sleep
    self.clock = clock
  }

  /// One page of `/coins/markets` by market cap, with the 7-day sparkline and the 24h change.
  public func marketsPage(vsCurrency: String, page: Int) throws(CoinGeckoError) -> (
    MarketPage, PayloadNotes
  ) {
    try markets(
      vsCurrency: vsCurrency,
      extra: [("per_page", String(Self.pageSize)), ("page", String(page))],
      label: "/coins/markets page \(page)")
  }

  /// The `/coins/markets` rows of the coins `ids` (at most 250 per call).
  public func markets(vsCurrency: String, ids: [String]) throws(CoinGeckoError) -> (
    MarketPage, PayloadNotes
  ) {
    try markets(
      vsCurrency: vsCurrency,
      extra: [("ids", ids.joined(separator: ",")), ("per_page", String(Self.pageSize))],
      label: "/coins/markets for \(ids.count) coin(s)")
  }

  private func markets(vsCurrency: String, extra: [(String, String)], label: String)
    throws(CoinGeckoError) -> (MarketPage, PayloadNotes)
  {
    let query =
      [("vs_currency", vsCurrency), ("order", "market_cap_desc")] + extra + [
        ("sparkline", "true"), ("price_change_percentage", "24h"),
      ]
    let value = try getJSON("/coins/markets", query: query, label: label)
    guard case .array(let items) = value.kind else {
      throw .malformedResponse(
        endpoint: label, reason: "expected an array, found \(value.kindName)")
    }
    var notes = PayloadNotes()
    do {
      let page = try CoinGeckoDocument.readMarkets(items, notes: &notes)
      return (page, notes)
    } catch {
      throw .malformedResponse(endpoint: label, reason: error.reason)
    }
  }

  /// `/global`.
  public func global() throws(CoinGeckoError) -> (GlobalData, PayloadNotes) {
    let value = try getJSON("/global", query: [], label: "/global")
    guard let data = value["data"]?.objectValue, data["total_market_cap"] != nil else {
      throw .malformedResponse(endpoint: "/global", reason: "it has no data.total_market_cap")
    }
    var notes = PayloadNotes()
    do {
      return (try CoinGeckoDocument.readGlobal(data, notes: &notes), notes)
    } catch {
      throw .malformedResponse(endpoint: "/global", reason: error.reason)
    }
  }

  /// `/coins/{id}` without tickers, market, community or developer data.
  public func coinDetail(id: String) throws(CoinGeckoError) -> (CoinDetail, PayloadNotes) {
    let label = "/coins/\(id)"
    let query = [
      ("localization", "false"), ("tickers", "false"), ("market_data", "false"),
      ("community_data", "false"), ("developer_data", "false"), ("sparkline", "false"),
    ]
    let value = try getJSON("/coins/\(id)", query: query, label: label, coinID: id)
    guard case .object(let object) = value.kind, object["id"] != nil else {
      throw .malformedResponse(endpoint: label, reason: "expected a coin object")
    }
    var notes = PayloadNotes()
    do {
      return (try CoinGeckoDocument.readDetail(object, notes: &notes), notes)
    } catch {
      throw .malformedResponse(endpoint: label, reason: error.reason)
    }
  }

  /// Where the data of each successful response came from, oldest first, without repeats:
  /// the base URL (credentials removed), or the origin a redirect led to.
  public private(set) var servedFrom: [String] = []

  /// `servedFrom` as one text for a `source` column, then forgets it, so that the next
  /// call names only what was fetched since.
  public func takeSource() -> String {
    defer { servedFrom = [] }
    return servedFrom.isEmpty
      ? HTTPRules.redacted(configuration.baseURL) : servedFrom.joined(separator: " ")
  }

  /// Records where `response` came from.
  private func noteServer(of response: HTTPResponse, asked url: URL) {
    var served = HTTPRules.redacted(configuration.baseURL)
    if let final = response.url, !HTTPRules.sameOrigin(final, url),
      let scheme = final.scheme, let host = final.host
    {
      served = "\(scheme)://\(host)" + (final.port.map { ":\($0)" } ?? "")
    }
    if !servedFrom.contains(served) { servedFrom.append(served) }
  }

  // MARK: - Requests

  /// The URL of `path` with `query` under the base URL.
  func url(_ path: String, query: [(String, String)]) -> URL? {
    guard var components = URLComponents(string: configuration.baseURL + path) else { return nil }
    if !query.isEmpty {
      components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
    }
    return components.url
  }

  /// GETs `path` and parses the body, retrying 429, 5xx and failed connections with
  /// exponential backoff that honours Retry-After, within the policy's caps.
  func getJSON(_ path: String, query: [(String, String)], label: String, coinID: String? = nil)
    throws(CoinGeckoError) -> JSONValue
  {
    guard let url = url(path, query: query) else {
      throw .unreachable(
        endpoint: label,
        reason: "the URL \(HTTPRules.redacted(configuration.baseURL + path)) is not valid",
        attempts: 0)
    }
    var headers = ["Accept": "application/json", "User-Agent": configuration.userAgent]
    if let key = configuration.apiKey { headers[key.header] = key.value }
    var waited: TimeInterval = 0
    var attempt = 0
    while true {
      attempt += 1
      let failure: CoinGeckoError
      var retryAfter: TimeInterval?
      let response: HTTPResponse
      do {
        response = try transport.get(url, headers: headers)
      } catch {
        if case .tooLarge(let limit) = error { throw .tooLarge(endpoint: label, limit: limit) }
        failure = .unreachable(endpoint: label, reason: error.reason, attempts: attempt)
        try wait(afterAttempt: attempt, retryAfter: nil, waited: &waited, failure: failure)
        continue
      }
      switch response.status {
      case 200..<300:
        noteServer(of: response, asked: url)
        do {
          return try JSONValue.parse(response.body)
        } catch {
          throw .malformedResponse(endpoint: label, reason: error.description)
        }
      case 429:
        retryAfter = Self.retryAfter(response.headers["retry-after"], now: clock())
        failure = .rateLimited(endpoint: label, attempts: attempt, retryAfter: retryAfter)
      case 500..<600:
        retryAfter = Self.retryAfter(response.headers["retry-after"], now: clock())
        failure = .serverError(endpoint: label, status: response.status, attempts: attempt)
      case 404 where coinID != nil:
        throw .coinNotFound(coinID ?? "")
      default:
        throw .rejected(
          endpoint: label, status: response.status, message: Self.message(in: response.body))
      }
      try wait(afterAttempt: attempt, retryAfter: retryAfter, waited: &waited, failure: failure)
    }
  }

  /// Sleeps before the next attempt, or throws `failure` when the attempts or the total wait
  /// allowed are used up.
  private func wait(
    afterAttempt attempt: Int, retryAfter: TimeInterval?, waited: inout TimeInterval,
    failure: CoinGeckoError
  ) throws(CoinGeckoError) {
    let policy = configuration.retry
    guard attempt < policy.maxAttempts else { throw failure }
    let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
    guard waited + delay <= policy.maxTotalWait else { throw failure }
    sleep(delay)
    waited += delay
  }

  /// Retry-After as seconds from now: a number of seconds or an HTTP date.
  static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
    guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
      return nil
    }
    if let seconds = Int(text) { return TimeInterval(max(0, min(seconds, 86_400))) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: text) else { return nil }
    return max(0, min(date.timeIntervalSince(now), 86_400))
  }

  /// The error message of a CoinGecko error body, if it has one.
  static func message(in body: Data) -> String? {
    guard let value = try? JSONValue.parse(body), let object = value.objectValue else {
      return nil
    }
    return CoinGeckoDocument.errorMessage(object)
  }
}
