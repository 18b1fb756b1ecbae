import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// Daily closing prices (issue 21): the `daily_prices` table and `v_daily_prices`, saved
/// market_chart files imported offline, and `folio market history` against a real HTTP server
/// on 127.0.0.1.
@Suite struct PriceHistoryTests {
  let sandbox = Sandbox()
  let server: LoopbackServer

  init() throws {
    server = try LoopbackServer()
  }

  /// Points folio at the loopback server with short retry waits (and, with `pro`, a pro key,
  /// so more than 365 days may be asked for).
  func environment(pro: Bool) -> [String: String] {
    var environment = [
      "FOLIO_COINGECKO_URL": server.baseURL, "FOLIO_HTTP_RETRIES": "2",
      "FOLIO_HTTP_RETRY_BASE_MS": "1", "FOLIO_HTTP_RETRY_MAX_WAIT_MS": "5000",
      "FOLIO_HTTP_TIMEOUT_MS": "5000",
    ]
    if pro { environment["COINGECKO_PRO_API_KEY"] = "test-key" }
    return environment
  }

  func history(_ arguments: String..., pro: Bool = true) -> RunResult {
    sandbox.run(["market", "history"] + arguments, environment: environment(pro: pro))
  }

  /// A market_chart response with a point at 00:00:00Z of each of `days` days ending at the
  /// sandbox's today, then one at the sandbox's now (12:00): the close of the day before day
  /// `k` (counted from the first) is `price(k)`.
  static func chart(days: Int, now: Date, price: (Int) -> String) -> String {
    let today = Int64(now.timeIntervalSince1970) / 86_400 * 86_400
    let first = today - Int64(days - 1) * 86_400
    var points = (0..<days).map { k in "[\((first + Int64(k) * 86_400) * 1000),\(price(k))]" }
    points.append("[\(Int64(now.timeIntervalSince1970) * 1000),\(price(days))]")
    let list = "[" + points.joined(separator: ",") + "]"
    return #"{"prices":\#(list),"market_caps":[],"total_volumes":[]}"#
  }

  // MARK: - Schema

  @Test func theTableRefusesBadRowsAndTheViewShowsTheCoin() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    func insert(_ day: String, _ price: String) -> String? {
      DatabaseProbe.run(
        sandbox.database,
        """
        INSERT INTO daily_prices (coin_id, vs_currency, day, price, priced_at, source, fetched_at)
        VALUES ('bitcoin', 'usd', '\(day)', '\(price)', '2024-03-02T00:00:00Z', 'test',
          '2024-03-02T01:00:00Z')
        """
      ).error
    }
    #expect(insert("2024-03-01", "61000.5") == nil)
    for (day, price) in [
      ("2024-02-30", "1"), ("2024-03-02", "0"), ("2024-03-02", "-1"), ("2024-03-02", "1.50"),
      ("2024-03-02", "01"), ("2024-03-02", "1e5"), ("2024-03-02", "0.0"),
      ("2024-03-01", "2"),  // the day is stored already
    ] {
      #expect(insert(day, price) != nil, "\(day) \(price) accepted")
    }
    #expect(
      try sandbox.sqlite("SELECT coin_id, symbol, day, price, price_real FROM v_daily_prices")
        == "bitcoin|btc|2024-03-01|61000.5|61000.5\n")
  }

  // MARK: - Offline

  @Test func aSavedMarketChartImportsOffline() throws {
    let file = Fixtures.path("coingecko/charts/market_chart_bitcoin_usd.json")
    let first = sandbox.run("market", "import", file, "--coin", "BTC", "--vs", "usd")
    #expect(first.code == 0, "\(first.err)")
    #expect(first.err.isEmpty, "\(first.err)")
    #expect(
      first.out
        == "\(file): 8 daily price(s) of bitcoin in USD stored (2024-11-22 to 2024-11-29)\n")
    #expect(
      try sandbox.sqlite(
        "SELECT day, price, priced_at FROM daily_prices WHERE day IN ('2024-11-22', '2024-11-29')"
          + " ORDER BY day")
        == "2024-11-22|98934.21472817765|2024-11-23T00:00:00Z\n"
        + "2024-11-29|97461.52380164011|2024-11-30T00:00:00Z\n")
    #expect(
      try sandbox.sqlite("SELECT DISTINCT source, vs_currency FROM daily_prices")
        == "import:\(file)|usd\n")
    let again = sandbox.run("market", "import", file, "--coin", "bitcoin")
    #expect(again.code == 0)
    #expect(
      again.out.hasSuffix(
        "0 daily price(s) of bitcoin in USD stored (2024-11-22 to 2024-11-29), 8 already there\n"))
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "8\n")
  }

  @Test func aMarketChartWithoutCoinOrACoinForAnotherFileIsRefused() throws {
    // An existing database: a refused import into a new one leaves no file (MarketImportTests).
    #expect(sandbox.run("db", "migrate").code == 0)
    let chart = Fixtures.path("coingecko/charts/market_chart_bitcoin_usd.json")
    let markets = Fixtures.path("coingecko/markets_usd.json")
    let without = sandbox.run("market", "import", chart)
    #expect(without.code == 65)
    #expect(without.err.contains("does not say which coin it is; give it with --coin ID"))
    let other = sandbox.run("market", "import", markets, "--coin", "bitcoin")
    #expect(other.code == 65)
    #expect(other.err.contains("--coin is for market_chart responses"))
    let bad = sandbox.write("bad.json", "{\"prices\": [[1732320000000, 1], [\"x\", 2]]}")
    let refused = sandbox.run("market", "import", bad, "--coin", "bitcoin")
    #expect(refused.code == 65)
    #expect(refused.err.contains("\(bad):1: not a CoinGecko response"), "\(refused.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "0\n")
  }

  @Test func aMarketChartForACoinTheDirectoryDoesNotKnowIsRefusedAndNothingStored() throws {
    // An existing database: a refused import into a new one leaves no file (MarketImportTests).
    #expect(sandbox.run("db", "migrate").code == 0)
    let chart = Fixtures.path("coingecko/charts/market_chart_bitcoin_usd.json")
    let typo = sandbox.run("market", "import", chart, "--coin", "bitcoinn")
    #expect(typo.code == 66)
    #expect(typo.out.isEmpty)
    #expect(
      typo.err
        == "folio: error: unknown coin 'bitcoinn'; did you mean 'bitcoin' (Bitcoin, BTC, rank 1)?\n",
      "\(typo.err)")
    let unknown = sandbox.run("market", "import", chart, "--coin", "zzzq-not-a-coin")
    #expect(unknown.code == 66)
    #expect(!unknown.err.contains("--new-coin"), "\(unknown.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "0\n")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM coins WHERE id IN ('bitcoinn', 'zzzq-not-a-coin')")
        == "0\n")
  }

  // MARK: - Fetching

  @Test func twoCoinsOver400DaysAreFetchedOnceAndNotAgain() throws {
    let now = sandbox.now
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 401, now: now) { "\(1000 + $0).25" }))
    server.route(
      "/coins/ethereum/market_chart/range",
      .json(Self.chart(days: 401, now: now) { "\(100 + $0)" }))
    // 2024-11-30 is today: the 400 days 2023-10-27 ... 2024-11-29.
    let first = history("--coins", "bitcoin,ETH", "--since", "2023-10-27")
    #expect(first.code == 0, "\(first.err)")
    #expect(
      first.out
        == "bitcoin: 400 day(s) in USD stored (2023-10-27 to 2024-11-29)\n"
        + "ethereum: 400 day(s) in USD stored (2023-10-27 to 2024-11-29)\n")
    let asked = server.requests(to: "/coins/bitcoin/market_chart/range")
    #expect(asked.count == 1)
    #expect(asked.first?.query["vs_currency"] == "usd")
    #expect(asked.first?.query["from"] == "1698364800")  // 2023-10-27T00:00:00Z
    #expect(asked.first?.headers["x-cg-pro-api-key"] == "test-key")
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "800\n")
    // The close of 2023-10-27 is the point at 2023-10-28T00:00:00Z, the second of the series.
    #expect(
      try sandbox.sqlite(
        "SELECT coin_id, price FROM daily_prices WHERE day = '2023-10-27' ORDER BY coin_id")
        == "bitcoin|1001.25\nethereum|101\n")
    #expect(
      try sandbox.sqlite(
        "SELECT price FROM daily_prices WHERE coin_id = 'bitcoin' AND day = '2024-11-29'")
        == "1400.25\n")

    let second = history("--coins", "bitcoin,ethereum", "--since", "2023-10-27")
    #expect(second.code == 0, "\(second.err)")
    #expect(second.out == "bitcoin: up to date\nethereum: up to date\n")
    #expect(server.requests.count == 2)  // nothing fetched twice

    // A day later only the new day is asked for.
    sandbox.now = now.addingTimeInterval(86_400)
    let third = history("--coins", "bitcoin", "--since", "2023-10-27")
    #expect(third.code == 0, "\(third.err)")
    let last = server.requests(to: "/coins/bitcoin/market_chart/range").last
    #expect(last?.query["from"] == "1732924800")  // 2024-11-30T00:00:00Z
  }

  @Test func theFreeTierIsAskedOnlyForThePast365DaysWithAClearMessage() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 401, now: sandbox.now) { "\(1000 + $0)" }))
    let result = history("--coins", "bitcoin", "--since", "2023-10-27", pro: false)
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.err
        == "folio: warning: the free CoinGecko API serves only the past 365 days: days before "
        + "2023-12-02 were not fetched (set COINGECKO_PRO_API_KEY for older days, or import saved "
        + "market_chart files with 'folio market import FILE --coin ID')\n")
    #expect(server.requests.first?.query["from"] == "1701475200")  // 2023-12-02T00:00:00Z
    #expect(result.out == "bitcoin: 364 day(s) in USD stored (2023-12-02 to 2024-11-29)\n")
  }

  @Test func aServerThatRefusesOldDaysIsNamedClearly() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(
        #"{"error":{"status":{"error_code":10012,"error_message":"Your request exceeds the allowed time range. Public API users are limited to querying historical data within the past 365 days."}}}"#,
        status: 401))
    let result = history("--coins", "bitcoin", "--since", "2024-01-01", pro: false)
    #expect(result.code == 69)
    #expect(result.err.contains("daily prices were not fetched for bitcoin"), "\(result.err)")
    #expect(result.err.contains("the free CoinGecko API serves only the past 365 days"))
  }

  @Test func aPartialFailureKeepsTheCoinsDoneAndNamesTheOthers() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 11, now: sandbox.now) { "\(1000 + $0)" }))
    server.route(
      "/coins/ethereum/market_chart/range",
      .json("{}", status: 429, headers: ["Retry-After": "0"]),
      .json("{}", status: 429, headers: ["Retry-After": "0"]),
      .json("{}", status: 429, headers: ["Retry-After": "0"]))
    server.route(
      "/coins/solana/market_chart/range",
      .json(Self.chart(days: 11, now: sandbox.now) { "\(10 + $0)" }))
    let result = history("--coins", "bitcoin,ethereum,solana", "--since", "2024-11-20")
    #expect(result.code == 69)
    #expect(
      result.out
        == "bitcoin: 10 day(s) in USD stored (2024-11-20 to 2024-11-29)\nethereum: not fetched\n"
    )
    #expect(result.err.contains("daily prices were not fetched for ethereum ("), "\(result.err)")
    #expect(result.err.contains("solana (not asked for after that failure)"))
    // The advice is the command that fetches the rest: the coins not fetched, as asked.
    #expect(
      result.err.hasSuffix(
        "run 'folio market history --coins ethereum,solana --since 2024-11-20 --vs usd' later "
          + "to fetch the rest\n"), "\(result.err)")
    #expect(result.err.contains("the daily prices of bitcoin were stored"))
    #expect(server.requests(to: "/coins/ethereum/market_chart/range").count == 3)
    #expect(server.requests(to: "/coins/solana/market_chart/range").isEmpty)
    #expect(try sandbox.sqlite("SELECT DISTINCT coin_id FROM daily_prices") == "bitcoin\n")
    // The next run asks only for what is missing.
    server.route(
      "/coins/ethereum/market_chart/range",
      .json(Self.chart(days: 11, now: sandbox.now) { "\(100 + $0)" }))
    let again = history("--coins", "bitcoin,ethereum,solana", "--since", "2024-11-20")
    #expect(again.code == 0, "\(again.err)")
    #expect(server.requests(to: "/coins/bitcoin/market_chart/range").count == 1)
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "30\n")
  }

  @Test func retryAfterIsHonouredAndHeldCoinsSinceTheFirstTradeAreTheDefault() throws {
    try sandbox.hold("bitcoin", "1")  // bought 2024-01-01
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json("{}", status: 429, headers: ["Retry-After": "1"]),
      .json(Self.chart(days: 340, now: sandbox.now) { "\(1000 + $0)" }))
    let started = Date()
    let result = history()
    #expect(Date().timeIntervalSince(started) >= 1)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "bitcoin: 334 day(s) in USD stored (2024-01-01 to 2024-11-29)\n")
    #expect(server.requests.first?.query["from"] == "1704067200")  // 2024-01-01
  }
}

/// `folio coins history ID` shows the daily closes with a chart as well as the snapshots.
@Suite struct CoinsHistoryDailyTests {
  let sandbox = Sandbox()

  @Test func dailyClosesAreChartedAndListedBeforeTheSnapshots() throws {
    let chart = Fixtures.path("coingecko/charts/market_chart_bitcoin_usd.json")
    #expect(sandbox.run("market", "import", chart, "--coin", "bitcoin").code == 0)
    let only = sandbox.run(["coins", "history", "btc"], environment: Sandbox.wide)
    #expect(only.code == 0, "\(only.err)")
    let lines = only.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.first
        == "Bitcoin (BTC) in USD: 0 snapshot(s), 8 daily close(s) from 2024-11-22 to 2024-11-29")
    // The chart: 8 rows, one column per day, the highest and lowest close as labels.
    #expect(lines[2].hasPrefix("$98,934.21 ┤"), "\(only.out)")
    #expect(lines[9].hasPrefix("$91,985.32 ┤"), "\(only.out)")
    #expect(lines[10] == "daily closes, first 2024-11-22, last 2024-11-29")
    #expect(
      only.out.contains(
        "2024-11-22  $98,934.21       —  imported from market_chart_bitcoin_usd.json\n"))
    #expect(
      only.out.contains(
        "2024-11-23  $97,672.40  -1.28%  imported from market_chart_bitcoin_usd.json\n"))
    #expect(!only.out.contains("SNAPSHOT"))

    let markets = Fixtures.path("coingecko/markets_usd.json")
    #expect(sandbox.run("market", "import", markets, "--at", "2024-11-30T11:00:00Z").code == 0)
    let both = sandbox.run(
      ["coins", "history", "bitcoin", "--since", "2024-11-29"], environment: Sandbox.wide)
    #expect(both.code == 0, "\(both.err)")
    #expect(
      both.out.hasPrefix(
        "Bitcoin (BTC) in USD: 1 snapshot(s), 1 daily close(s) from 2024-11-29 to 2024-11-29 "
          + "since 2024-11-29T00:00:00Z\n"))
    #expect(both.out.contains("SNAPSHOT"))
    #expect(both.out.contains("2024-11-30T11:00:00Z"))
    let json = sandbox.run("coins", "history", "bitcoin", "--format", "json")
    #expect(
      json.out.contains(
        #""daily_prices": [{"day": "2024-11-22", "price": "98934.21472817765""#)
        || json.out.contains(#""day": "2024-11-22""#), "\(json.out)")
  }
}

extension PriceHistoryTests {
  @Test func secondsWhereMillisecondsBelongAndALateSinceAreRefused() throws {
    // An existing database: a refused import into a new one leaves no file (MarketImportTests).
    #expect(sandbox.run("db", "migrate").code == 0)
    let seconds = sandbox.write("seconds.json", #"{"prices": [[1732320000, 1], [1732406400, 2]]}"#)
    let refused = sandbox.run("market", "import", seconds, "--coin", "bitcoin")
    #expect(refused.code == 65)
    #expect(refused.err.contains("is before 2009; market_chart times are milliseconds"))
    #expect(try sandbox.sqlite("SELECT count(*) FROM daily_prices") == "0\n")
    let late = history("--coins", "bitcoin", "--since", "2024-11-30")
    #expect(late.code == 65)
    #expect(
      late.err
        == "folio: error: --since 2024-11-30 is after 2024-11-29, the last UTC day that has "
        + "ended; daily closing prices exist only for days that are over\n")
    #expect(server.requests.isEmpty)
  }

  @Test func aCoinCoinGeckoDoesNotKnowIsNamedAndTheOthersAreStored() throws {
    server.route(
      "/coins/no-such-coin/market_chart/range", .json(#"{"error":"coin not found"}"#, status: 404))
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 3, now: sandbox.now) { "\(1000 + $0)" }))
    let result = history("--coins", "no-such-coin,bitcoin", "--since", "2024-11-28")
    #expect(result.code == 65)
    #expect(
      result.out
        == "no-such-coin: not fetched\nbitcoin: 2 day(s) in USD stored (2024-11-28 to 2024-11-29)\n"
    )
    #expect(
      result.err.contains("daily prices were not fetched for no-such-coin (CoinGecko knows no coin")
    )
    #expect(result.err.contains("the daily prices of bitcoin were stored"))
  }
}

extension PriceHistoryTests {
  @Test func aFileNameWithControlCharactersIsShownNotObeyedAndAnEmptyCoinsIsAUsageError() {
    let file = sandbox.write(
      "x\u{1B}[31mred.json", #"{"prices": [[1732320000000, 1], [1732406400000, 2]]}"#)
    let result = sandbox.run("market", "import", file, "--coin", "bitcoin")
    #expect(result.code == 0, "\(result.err)")
    #expect(!result.out.contains("\u{1B}"))
    #expect(result.out.contains(#"x\u{1B}[31mred.json: 2 daily price(s) of bitcoin"#))
    let empty = history("--coins", " , ")
    #expect(empty.code == 64)
    #expect(empty.err.contains("--coins names no coin"))
  }
}

/// The free-tier warning, the default currency and the progress line of `market history`.
extension PriceHistoryTests {
  @Test func theFreeTierWarningAppearsOnlyWhenDaysBeyond365AreMissing() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 401, now: sandbox.now) { "\(1000 + $0)" }))
    // No --since: the free tier's own 365 days, no warning.
    let named = history("--coins", "bitcoin", pro: false)
    #expect(named.code == 0, "\(named.err)")
    #expect(named.err.isEmpty, "\(named.err)")
    #expect(server.requests.first?.query["from"] == "1701475200")  // 2023-12-02T00:00:00Z
    // A --since within the 365 days asks for nothing old: no warning.
    let recent = history("--coins", "bitcoin", "--since", "2024-06-01", pro: false)
    #expect(recent.code == 0)
    #expect(recent.err.isEmpty, "\(recent.err)")
    #expect(recent.out == "bitcoin: up to date\n")
    // Days before 2023-12-02 are missing: the warning, on every run that still lacks them.
    let old = history("--coins", "bitcoin", "--since", "2023-11-01", pro: false)
    #expect(old.err.contains("days before 2023-12-02 were not fetched"), "\(old.err)")
    // Once those days are stored (a saved file), nothing is missing and nothing is said.
    let chart = sandbox.write("old.json", Self.chart(days: 401, now: sandbox.now) { "\($0 + 1)" })
    #expect(sandbox.run("market", "import", chart, "--coin", "bitcoin").code == 0)
    let done = history("--coins", "bitcoin", "--since", "2023-11-01", pro: false)
    #expect(done.code == 0)
    #expect(done.err.isEmpty, "\(done.err)")
    #expect(done.out == "bitcoin: up to date\n")
    #expect(server.requests.count == 1)
  }

  @Test func theCurrencyDefaultsToThePortfoliosOwn() throws {
    #expect(sandbox.run("portfolio", "add", "euro", "--currency", "eur").code == 0)
    try sandbox.hold("bitcoin", "1", portfolio: "euro")
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 3, now: sandbox.now) { "\(900 + $0)" }))
    let result = sandbox.run(
      ["--portfolio", "euro", "market", "history", "--since", "2024-11-28"],
      environment: environment(pro: true))
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "bitcoin: 2 day(s) in EUR stored (2024-11-28 to 2024-11-29)\n")
    #expect(server.requests.first?.query["vs_currency"] == "eur")
    #expect(try sandbox.sqlite("SELECT DISTINCT vs_currency FROM daily_prices") == "eur\n")
    // --vs still chooses.
    let usd = sandbox.run(
      ["--portfolio", "euro", "market", "history", "--since", "2024-11-28", "--vs", "usd"],
      environment: environment(pro: true))
    #expect(usd.code == 0, "\(usd.err)")
    #expect(server.requests.last?.query["vs_currency"] == "usd")
  }

  @Test func aRerunAfterA429NamesTheSameDatabase() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json("{}", status: 429, headers: ["Retry-After": "0"]),
      .json("{}", status: 429, headers: ["Retry-After": "0"]),
      .json("{}", status: 429, headers: ["Retry-After": "0"]))
    let other = sandbox.file("other folio.db")
    let result = sandbox.run(
      ["--db", other, "market", "history", "--coins", "btc", "--since", "2024-11-20"],
      environment: environment(pro: true))
    #expect(result.code == 69)
    #expect(
      result.err.contains(
        "run 'folio --db '\(other)' market history --coins bitcoin --since 2024-11-20 --vs usd'"),
      "\(result.err)")
  }

  /// Runs `market history` as on a terminal (stderr a TTY) with `environment` added.
  func onTerminal(_ arguments: [String], _ extra: [String: String]) -> RunResult {
    let out = StringSink()
    let err = StringSink()
    var env = environment(pro: true).merging(extra) { $1 }
    env["FOLIO_DB"] = sandbox.database
    let code = FolioCLI.run(
      arguments, out: out, err: err, environment: env, now: sandbox.now, stderrIsTerminal: true)
    return RunResult(code: code, out: out.text, err: err.text)
  }

  @Test func theProgressLineIsDrawnOnlyOnACapableTerminalAndFitsItsWidth() throws {
    server.route(
      "/coins/bitcoin/market_chart/range",
      .json(Self.chart(days: 3, now: sandbox.now) { "\(1000 + $0)" }))
    server.route(
      "/coins/ethereum/market_chart/range",
      .json(Self.chart(days: 3, now: sandbox.now) { "\(100 + $0)" }))
    let arguments = ["market", "history", "--coins", "bitcoin,ethereum", "--since", "2024-11-28"]
    let wide = onTerminal(arguments, ["TERM": "xterm", "COLUMNS": "120"])
    #expect(wide.code == 0, "\(wide.err)")
    #expect(
      wide.err
        == "\r\u{1B}[Kfolio: fetching daily prices of bitcoin (1 of 2)…"
        + "\r\u{1B}[Kfolio: fetching daily prices of ethereum (2 of 2)…\r\u{1B}[K")
    // 30 columns: every line is cut to 29, so it never wraps.
    let narrow = onTerminal(arguments + ["--vs", "eur"], ["TERM": "xterm", "COLUMNS": "30"])
    #expect(narrow.code == 0, "\(narrow.err)")
    let lines = narrow.err.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
    #expect(lines == ["folio: fetching daily prices…", "folio: fetching daily prices…"])
    // TERM=dumb cannot erase a line: nothing is drawn.
    let dumb = onTerminal(arguments + ["--vs", "gbp"], ["TERM": "dumb"])
    #expect(dumb.code == 0)
    #expect(dumb.err.isEmpty, "\(dumb.err)")
    // Each state of the line is flushed at once (stderr is buffered), so it shows while the
    // coins are fetched, not only at exit.
    let err = FlushRecorder()
    var env = environment(pro: true)
    env["FOLIO_DB"] = sandbox.database
    env["TERM"] = "xterm"
    let code = FolioCLI.run(
      arguments + ["--vs", "chf"], out: StringSink(), err: err, environment: env,
      now: sandbox.now, stderrIsTerminal: true)
    #expect(code == 0)
    #expect(
      err.flushed == [
        "\r\u{1B}[Kfolio: fetching daily prices of bitcoin (1 of 2)…",
        "\r\u{1B}[Kfolio: fetching daily prices of ethereum (2 of 2)…", "\r\u{1B}[K",
      ])
    // Not a terminal: nothing either.
    let piped = sandbox.run(arguments + ["--vs", "jpy"], environment: environment(pro: true))
    #expect(piped.code == 0)
    #expect(piped.err.isEmpty)
  }
}

/// A stderr that records what was written before each flush.
final class FlushRecorder: TextSink {
  private var pending = ""
  private(set) var flushed: [String] = []
  func write(_ text: String) { pending += text }
  func flush() {
    if !pending.isEmpty { flushed.append(pending) }
    pending = ""
  }
}
