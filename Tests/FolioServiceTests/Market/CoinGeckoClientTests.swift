import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// The CoinGecko client against a real HTTP server on 127.0.0.1.
@Suite struct CoinGeckoClientTests {
  let server: LoopbackServer

  init() throws { server = try LoopbackServer() }

  /// Records the waits instead of sleeping.
  final class Sleeps: @unchecked Sendable {
    var values: [TimeInterval] = []
  }

  func client(
    retry: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 1, maxTotalWait: 5),
    totalTimeout: TimeInterval = 5, apiKey: CoinGeckoConfiguration.APIKey? = nil,
    sleeps: Sleeps? = nil
  ) -> CoinGeckoClient {
    var configuration = CoinGeckoConfiguration(baseURL: server.baseURL)
    configuration.retry = retry
    configuration.connectTimeout = totalTimeout
    configuration.totalTimeout = totalTimeout
    configuration.apiKey = apiKey
    if let sleeps {
      return CoinGeckoClient(configuration: configuration, sleep: { sleeps.values.append($0) })
    }
    return CoinGeckoClient(configuration: configuration)
  }

  /// The CoinGecko error `body` throws (nil when it succeeds or throws something else).
  func failure(_ body: () throws -> Void) -> CoinGeckoError? {
    do {
      try body()
      return nil
    } catch {
      return error as? CoinGeckoError
    }
  }

  @Test func fetchesAPageWithTheAppsQueryAndFolioHeaders() throws {
    server.route("/coins/markets", try .fixture("coingecko/markets_usd.json"))
    let key = CoinGeckoConfiguration.APIKey(header: "x-cg-demo-api-key", value: "CG-test")
    let (page, notes) = try client(apiKey: key).marketsPage(vsCurrency: "usd", page: 1)
    #expect(page.quotes.count == 20)
    #expect(notes.allWarnings.isEmpty)
    let request = try #require(server.requests.first)
    #expect(request.path == "/api/v3/coins/markets")
    #expect(
      request.query == [
        "vs_currency": "usd", "order": "market_cap_desc", "per_page": "250", "page": "1",
        "sparkline": "true", "price_change_percentage": "24h",
      ])
    #expect(
      request.headers["user-agent"] == "Folio/\(folioVersion) (command-line portfolio manager)")
    #expect(request.headers["x-cg-demo-api-key"] == "CG-test")
    #expect(request.headers["accept"] == "application/json")
  }

  @Test func fetchesGlobalDetailsAndCoinsById() throws {
    server.route("/global", try .fixture("coingecko/global_usd.json"))
    server.route("/coins/bitcoin", try .fixture("coingecko/coin_bitcoin.json"))
    server.route("/coins/markets", try .fixture("coingecko/markets_usd.json"))
    let (global, _) = try client().global()
    #expect(global.total("usd")?.marketCap?.description == "1610737412345.7183")
    let (detail, _) = try client().coinDetail(id: "bitcoin")
    #expect(detail.hashingAlgorithm == "SHA-256")
    #expect(server.requests(to: "/coins/bitcoin").first?.query["tickers"] == "false")
    _ = try client().markets(vsCurrency: "eur", ids: ["bitcoin", "ethereum"])
    #expect(server.requests(to: "/coins/markets").first?.query["ids"] == "bitcoin,ethereum")
  }

  @Test func retries429HonouringRetryAfter() throws {
    server.route(
      "/global", .json("{}", status: 429, headers: ["Retry-After": "2"]),
      try .fixture("coingecko/global_usd.json"))
    let sleeps = Sleeps()
    _ = try client(sleeps: sleeps).global()
    #expect(sleeps.values == [2])  // Retry-After, longer than the 0.01 s backoff
    #expect(server.requests(to: "/global").count == 2)
  }

  @Test func serverErrorsBackOffExponentiallyThenGiveUp() {
    server.route("/global", .json("oops", status: 503))
    let sleeps = Sleeps()
    let error = failure { _ = try client(sleeps: sleeps).global() }
    #expect(error == .serverError(endpoint: "/global", status: 503, attempts: 3))
    #expect(error?.kind == .unavailable)
    #expect(sleeps.values == [0.01, 0.02])
    #expect(server.requests.count == 3)
  }

  @Test func aRetryAfterBeyondTheWaitCapEndsRetriesAtOnce() {
    server.route("/global", .json("{}", status: 429, headers: ["Retry-After": "120"]))
    let sleeps = Sleeps()
    let error = failure { _ = try client(sleeps: sleeps).global() }
    #expect(error == .rateLimited(endpoint: "/global", attempts: 1, retryAfter: 120))
    #expect(error?.errorDescription?.contains("CoinGecko asks to wait 120s") == true)
    #expect(error?.errorDescription?.contains("COINGECKO_API_KEY") == true)
    #expect(sleeps.values.isEmpty)
    #expect(server.requests.count == 1)
  }

  @Test func realWaitsHonourRetryAfter() throws {
    server.route(
      "/global", .json("{}", status: 429, headers: ["Retry-After": "1"]),
      try .fixture("coingecko/global_usd.json"))
    let start = Date()
    _ = try client().global()
    #expect(Date().timeIntervalSince(start) >= 1)
  }

  @Test func aSlowResponseTimesOut() {
    server.route("/global", LoopbackServer.Response(status: 200, body: Array("{}".utf8), delay: 5))
    let start = Date()
    let error = failure {
      _ = try client(
        retry: RetryPolicy(maxAttempts: 1), totalTimeout: 0.3
      ).global()
    }
    #expect(
      error == .unreachable(endpoint: "/global", reason: "the request timed out", attempts: 1))
    #expect(Date().timeIntervalSince(start) < 3)
  }

  @Test func aTruncatedBodyIsAFailedRequest() throws {
    let body = try Fixtures.bytes("coingecko/global_usd.json")
    server.route("/global", LoopbackServer.Response(status: 200, body: body, truncateTo: 100))
    let sleeps = Sleeps()
    let error = failure { _ = try client(sleeps: sleeps).global() }
    guard case .unreachable(_, let reason, let attempts)? = error else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
    #expect(attempts == 3)
    #expect(!reason.isEmpty)
  }

  @Test func aMalformedBodyIsNotRetried() {
    server.route("/global", .json(#"{"data": {"total_market_cap": {"usd": 1,}}}"#))
    let error = failure { _ = try client().global() }
    #expect(
      error
        == .malformedResponse(
          endpoint: "/global",
          reason: "line 1, column 41: expected a string key in double quotes, found '}'"))
    #expect(server.requests.count == 1)
    server.route("/coins/markets", .json(#"{"not": "an array"}"#))
    let shape = failure { _ = try client().marketsPage(vsCurrency: "usd", page: 1) }
    #expect(
      shape
        == .malformedResponse(
          endpoint: "/coins/markets page 1", reason: "expected an array, found an object"))
  }

  @Test func clientErrorsAreNotRetried() {
    server.route("/coins/nocoin", .json(#"{"error":"coin not found"}"#, status: 404))
    #expect(failure { _ = try client().coinDetail(id: "nocoin") } == .coinNotFound("nocoin"))
    server.route(
      "/global",
      .json(#"{"status":{"error_code":10002,"error_message":"API Key Missing"}}"#, status: 401))
    let error = failure { _ = try client().global() }
    #expect(error == .rejected(endpoint: "/global", status: 401, message: "API Key Missing"))
    #expect(error?.errorDescription?.contains("check COINGECKO_API_KEY") == true)
    #expect(server.requests.count == 2)
  }

  @Test func aRefusedConnectionIsUnreachable() {
    server.stop()
    let sleeps = Sleeps()
    let error = failure { _ = try client(sleeps: sleeps).global() }
    guard case .unreachable(_, _, let attempts)? = error else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
    #expect(attempts == 3)
  }

  @Test func configurationComesFromTheEnvironment() throws {
    let plain = try CoinGeckoConfiguration.fromEnvironment([:])
    #expect(plain.baseURL == "https://api.coingecko.com/api/v3")
    #expect(plain.apiKey == nil)
    #expect(plain.retry == RetryPolicy())
    let demo = try CoinGeckoConfiguration.fromEnvironment(["COINGECKO_API_KEY": "d"])
    #expect(demo.apiKey == .init(header: "x-cg-demo-api-key", value: "d"))
    let pro = try CoinGeckoConfiguration.fromEnvironment([
      "COINGECKO_API_KEY": "d", "COINGECKO_PRO_API_KEY": "p",
    ])
    #expect(pro.baseURL == "https://pro-api.coingecko.com/api/v3")
    #expect(pro.apiKey == .init(header: "x-cg-pro-api-key", value: "p"))
    let custom = try CoinGeckoConfiguration.fromEnvironment([
      "FOLIO_COINGECKO_URL": "http://127.0.0.1:9/api/v3/", "FOLIO_HTTP_RETRIES": "0",
      "FOLIO_HTTP_RETRY_BASE_MS": "5", "FOLIO_HTTP_RETRY_MAX_WAIT_MS": "50",
      "FOLIO_HTTP_TIMEOUT_MS": "1500", "FOLIO_HTTP_CONNECT_TIMEOUT_MS": "500",
      "FOLIO_HTTP_RETRY_MAX_DELAY_MS": "20",
    ])
    #expect(custom.baseURL == "http://127.0.0.1:9/api/v3")
    #expect(
      custom.retry
        == RetryPolicy(maxAttempts: 1, baseDelay: 0.005, maxDelay: 0.02, maxTotalWait: 0.05))
    #expect(custom.totalTimeout == 1.5 && custom.connectTimeout == 0.5)
    #expect(throws: SettingError.self) {
      try CoinGeckoConfiguration.fromEnvironment(["FOLIO_COINGECKO_URL": "ftp://x"])
    }
    #expect(throws: SettingError.self) {
      try CoinGeckoConfiguration.fromEnvironment(["FOLIO_HTTP_RETRIES": "many"])
    }
    #expect(throws: SettingError.self) {
      try CoinGeckoConfiguration.fromEnvironment(["FOLIO_HTTP_TIMEOUT_MS": "-1"])
    }
  }

  @Test func backoffDoublesUpToItsCapAndRetryAfterWins() {
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 5, maxTotalWait: 60)
    #expect((1...5).map { policy.delay(afterAttempt: $0, retryAfter: nil) } == [1, 2, 4, 5, 5])
    #expect(policy.delay(afterAttempt: 1, retryAfter: 30) == 30)
    #expect(policy.delay(afterAttempt: 4, retryAfter: 2) == 5)
  }

  @Test func retryAfterReadsSecondsOrAnHTTPDate() {
    let now = Date(timeIntervalSince1970: 1_706_056_136)  // Wed, 24 Jan 2024 00:28:56 GMT
    #expect(CoinGeckoClient.retryAfter("30", now: now) == 30)
    #expect(CoinGeckoClient.retryAfter("Wed, 24 Jan 2024 00:29:56 GMT", now: now) == 60)
    #expect(CoinGeckoClient.retryAfter("Wed, 24 Jan 2024 00:00:00 GMT", now: now) == 0)
    #expect(CoinGeckoClient.retryAfter("soon", now: now) == nil)
    #expect(CoinGeckoClient.retryAfter(nil, now: now) == nil)
  }
}
