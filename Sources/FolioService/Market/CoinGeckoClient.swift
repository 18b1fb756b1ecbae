import FolioHTTP
import FolioStorage
import Foundation

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
    return try read(label) { notes throws(PayloadError) in
      try CoinGeckoDocument.readMarkets(items, notes: &notes)
    }
  }

  /// `/coins/list`: every coin CoinGecko knows (id, symbol, name).
  public func coinList() throws(CoinGeckoError) -> ([DirectoryCoin], PayloadNotes) {
    let value = try getJSON("/coins/list", query: [], label: "/coins/list")
    return try read("/coins/list") { notes throws(PayloadError) in
      try CoinListPayload.read(value, notes: &notes)
    }
  }

  /// `/global`.
  public func global() throws(CoinGeckoError) -> (GlobalData, PayloadNotes) {
    let value = try getJSON("/global", query: [], label: "/global")
    guard let data = value["data"]?.objectValue, data["total_market_cap"] != nil else {
      throw .malformedResponse(endpoint: "/global", reason: "it has no data.total_market_cap")
    }
    return try read("/global") { notes throws(PayloadError) in
      try CoinGeckoDocument.readGlobal(data, notes: &notes)
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
    return try read(label) { notes throws(PayloadError) in
      try CoinGeckoDocument.readDetail(object, notes: &notes)
    }
  }

  /// `/coins/{id}/market_chart/range`: the prices of `id` in `vsCurrency` from `from` through
  /// `to` (CoinGecko gives 5-minute points for a day, hourly ones up to 90 days, daily ones at
  /// 00:00:00Z beyond).
  public func marketChartRange(id: String, vsCurrency: String, from: Timestamp, to: Timestamp)
    throws(CoinGeckoError) -> (PriceSeries, PayloadNotes)
  {
    let label = "/coins/\(id)/market_chart/range"
    let query = [
      ("vs_currency", vsCurrency), ("from", String(from.seconds)), ("to", String(to.seconds)),
    ]
    let value = try getJSON(label, query: query, label: label, coinID: id)
    return try read(label) { notes throws(PayloadError) in
      try PriceSeries.read(value, notes: &notes)
    }
  }

  /// The payload `decode` reads, with its notes; a wrong shape is `malformedResponse`.
  private func read<T>(
    _ label: String, _ decode: (inout PayloadNotes) throws(PayloadError) -> T
  ) throws(CoinGeckoError) -> (T, PayloadNotes) {
    var notes = PayloadNotes()
    do {
      return (try decode(&notes), notes)
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
        if case .unavailable(let reason) = error { throw .helperUnavailable(reason) }
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
