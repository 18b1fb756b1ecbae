import Foundation
import Testing

@testable import FolioCLI

@Suite struct CoinsListTests {
  let sandbox = Sandbox()
  /// The fixtures are from January 2024; the sandbox clock is 2024-11-30.
  let fresh = ["--max-age", "400d"]

  @Test func textListSaysTheSnapshotTime() {
    sandbox.importUSDFixtures()
    let result = sandbox.run(["coins", "list", "--limit", "3"] + fresh)
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out == """
        Prices in USD as of 2024-01-24T00:28:58Z (imported from markets_usd.json)

        #  SYMBOL  NAME           PRICE     24H  MARKET CAP
        1  BTC     Bitcoin   $39,935.30  +0.63%   $781.52Bn
        2  ETH     Ethereum   $2,240.97  -3.43%   $269.11Bn
        3  USDT    Tether       $1.0033  +0.27%    $95.68Bn

        """)
  }

  @Test func holdingsColumnsAppearForThePortfolio() throws {
    sandbox.importUSDFixtures()
    try sandbox.hold("ethereum", "2")
    try sandbox.hold("shiba-inu", "1000000")
    let result = sandbox.run(["coins", "list", "--sort", "holdings", "--limit", "3"] + fresh)
    #expect(result.code == 0)
    #expect(
      result.out == """
        Prices in USD as of 2024-01-24T00:28:58Z (imported from markets_usd.json)
        Holdings of portfolio 'main'

         #  SYMBOL  NAME              PRICE     24H  MARKET CAP   HOLDINGS      VALUE
         2  ETH     Ethereum      $2,240.97  -3.43%   $269.11Bn          2  $4,481.94
        18  SHIB    Shiba Inu  $0.000008839  -1.14%     $5.20Bn  1,000,000      $8.84
         1  BTC     Bitcoin      $39,935.30  +0.63%   $781.52Bn

        """)
  }

  @Test func jsonRowsCarryTheIdAndDecimalsAsStrings() throws {
    sandbox.importUSDFixtures()
    try sandbox.hold("bitcoin", "0.25")
    let result = sandbox.run(["coins", "list", "--search", "bitcoin", "--format", "json"] + fresh)
    #expect(result.code == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(object["snapshot_at"] as? String == "2024-01-24T00:28:58Z")
    #expect(object["vs_currency"] as? String == "usd")
    let coins = try #require(object["coins"] as? [[String: Any]])
    #expect(coins.map { $0["id"] as? String } == ["bitcoin", "wrapped-bitcoin"])
    #expect(coins.first?["price"] as? String == "39935.3")
    #expect(coins.first?["holding"] as? String == "0.25")
    #expect(coins.first?["value"] as? String == "9983.825")
    #expect(coins.first?["rank"] as? Int == 1)
    #expect(coins.last?["holding"] is NSNull)
  }

  @Test func csvHasAHeaderAndOneLinePerCoin() {
    sandbox.importUSDFixtures()
    let result = sandbox.run(
      ["coins", "list", "--sort", "price-reversed", "--limit", "2", "--format", "csv"] + fresh)
    #expect(
      result.out == """
        rank,id,symbol,name,price,price_change_percentage_24h,market_cap,holding,value,vs_currency,price_at
        18,shiba-inu,shib,Shiba Inu,0.00000883943,-1.13623,5203372747,,,usd,2024-01-24T00:28:58Z
        10,dogecoin,doge,Dogecoin,0.0782061,-3.32218,11136544719,,,usd,2024-01-24T00:28:58Z

        """)
  }

  @Test func staleDataWarnsAndStrictFails() throws {
    sandbox.importUSDFixtures()
    let warned = sandbox.run("coins", "list", "--limit", "1")
    #expect(warned.code == 0)
    #expect(
      warned.err
        == "folio: warning: the latest market snapshot (2024-01-24T00:28:58Z) is 311d11h old, "
        + "older than --max-age 1d; run 'folio market refresh' or raise --max-age\n")
    #expect(!warned.out.isEmpty)
    let strict = sandbox.run("coins", "list", "--strict", "--max-age", "30d")
    #expect(strict.code == 65)
    #expect(strict.out.isEmpty)
    #expect(strict.err.contains("older than --max-age 30d"))
    let fine = sandbox.run(["coins", "list", "--strict", "--limit", "1"] + fresh)
    #expect(fine.code == 0)
    #expect(fine.err.isEmpty)
    #expect(sandbox.run("coins", "list", "--max-age", "soon").code == 64)
  }

  @Test func thePortfolioComesFromTheOptionOrTheEnvironment() throws {
    sandbox.importUSDFixtures()
    let missing = sandbox.run(["coins", "list", "--portfolio", "savings"] + fresh)
    #expect(missing.code == 66)
    #expect(
      missing.err
        == "folio: error: there is no portfolio named 'savings'; the portfolios are: main\n")
    let fromEnv = sandbox.run(
      ["coins", "list"] + fresh, environment: ["FOLIO_PORTFOLIO": "savings"])
    #expect(fromEnv.code == 66)
    _ = try sandbox.sqlite(
      "INSERT INTO portfolios (name, created_at) VALUES ('savings', '2024-01-01T00:00:00Z')")
    try sandbox.hold("solana", "3", portfolio: "savings")
    let savings = sandbox.run(
      ["coins", "list", "--search", "sol"] + fresh, environment: ["FOLIO_PORTFOLIO": "savings"])
    #expect(savings.code == 0)
    #expect(savings.out.contains("Holdings of portfolio 'savings'"))
    #expect(savings.out.contains("$254.44"))
  }

  @Test func withoutMarketDataItSaysWhatToDo() {
    _ = sandbox.run("db", "migrate")
    let result = sandbox.run("coins", "list")
    #expect(result.code == 66)
    #expect(result.err.contains("no market data in USD is cached; run 'folio market refresh'"))
    let noDatabase = Sandbox().run("coins", "list")
    #expect(noDatabase.code == 66)
  }

  @Test func badSortOrLimitAreUsageErrors() {
    let sort = sandbox.run("coins", "list", "--sort", "name")
    #expect(sort.code == 64)
    #expect(
      sort.err.contains(
        "expected rank, rank-reversed, price, price-reversed, holdings, holdings-reversed"))
    #expect(sandbox.run("coins", "list", "--limit", "0").code == 64)
  }

  @Test func noColourWithoutATerminalAndColourOnOne() {
    sandbox.importUSDFixtures()
    let plain = sandbox.run(["coins", "list"] + fresh)
    #expect(!plain.out.contains("\u{1B}["))
    let out = StringSink()
    let err = StringSink()
    let code = FolioCLI.run(
      ["coins", "list", "--limit", "2"] + fresh, out: out, err: err,
      environment: ["FOLIO_DB": sandbox.database], now: sandbox.now, stdoutIsTerminal: true)
    #expect(code == 0)
    #expect(out.text.contains("\u{1B}[32m+0.63%\u{1B}[0m"))
    #expect(out.text.contains("\u{1B}[31m-3.43%\u{1B}[0m"))
    let noColor = StringSink()
    _ = FolioCLI.run(
      ["coins", "list"] + fresh, out: noColor, err: err,
      environment: ["FOLIO_DB": sandbox.database, "NO_COLOR": "1"], now: sandbox.now,
      stdoutIsTerminal: true)
    #expect(!noColor.text.contains("\u{1B}["))
  }
}
