import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct MarketImportTests {
  let sandbox = Sandbox()

  @Test func importsTheFixturesAndSaysWhatItStored() throws {
    let markets = Fixtures.path("coingecko/markets_usd.json")
    let global = Fixtures.path("coingecko/global_usd.json")
    let bitcoin = Fixtures.path("coingecko/coin_bitcoin.json")
    let result = sandbox.run("market", "import", markets, global, bitcoin)
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out == """
        \(markets): 20 coin(s) in USD stored in snapshot 2024-01-24T00:28:58Z
        \(global): /global stored (snapshot 2024-01-24T00:28:56Z)
        \(bitcoin): details of bitcoin stored (snapshot 2024-01-24T00:28:42Z)

        """)
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_quotes") == "20\n")
    let again = sandbox.run("market", "import", markets)
    #expect(again.code == 0)
    #expect(
      again.out
        == "\(markets): already imported (/coins/markets page, snapshot 2024-01-24T00:28:58Z); nothing added\n"
    )
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_quotes") == "20\n")
  }

  @Test func theRealCapturesImportIncludingTheEURPageAndTheFullDetail() throws {
    let eur = Fixtures.path("coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json")
    let result = sandbox.run(
      "market", "import", "--vs", "EUR", eur,
      Fixtures.path("coingecko/captured/coin_bitcoin_full_2021-05-15.json"),
      Fixtures.path("coingecko/captured/coin_bitcoin_appparams_2021-05-11.json"),
      Fixtures.path("coingecko/captured/global_2021-05-18.json"),
      Fixtures.path("coingecko/captured/global_2021-05-10_from_swiftful_comment.json"))
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out.hasPrefix("\(eur): 100 coin(s) in EUR stored in snapshot 2024-01-24T00:28:58Z\n"))
    #expect(
      try sandbox.sqlite(
        "SELECT vs_currency, count(*) FROM market_snapshots JOIN market_quotes ON snapshot_id = id")
        == "eur|100\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM coin_details") == "2\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM global_snapshots") == "2\n")
    #expect(
      try sandbox.sqlite(
        "SELECT hashing_algorithm, block_time_in_minutes, homepage FROM coin_details LIMIT 1")
        == "SHA-256|10|http://www.bitcoin.org\n")
  }

  @Test func aNullPriceSkipsTheCoinWithAWarning() throws {
    let file = sandbox.write(
      "page.json",
      #"[{"id":"a","symbol":"a","name":"A","current_price":1},{"id":"b","symbol":"b","name":"B","current_price":null}]"#
    )
    let result = sandbox.run("market", "import", "--at", "2024-11-30T10:00:00Z", file)
    #expect(result.code == 0)
    #expect(
      result.err == "folio: warning: \(file): coin 'b' (element 1) has no current_price; skipped\n")
    #expect(
      result.out == "\(file): 1 coin(s) in USD stored in snapshot 2024-11-30T10:00:00Z, 1 skipped\n"
    )
  }

  @Test func malformedOrWrongFilesExit65AndStoreNothing() throws {
    sandbox.importUSDFixtures()
    let before = try sandbox.dump()
    let good = Fixtures.path("coingecko/global_usd.json")
    let cut = sandbox.write("cut.json", "[\n  {\"id\": \"x\",\n   \"symbol\": tru")
    let result = sandbox.run("market", "import", "--at", "2024-11-30", good, cut)
    #expect(result.code == 65)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "folio: error: \(cut):3:14: not valid JSON: invalid literal; expected 'true' (nothing was imported)\n"
    )
    let wrong = sandbox.write("wrong.json", #"{"prices": [[1, 2]]}"#)
    let shape = sandbox.run("market", "import", "--at", "2024-11-30", good, wrong)
    #expect(shape.code == 65)
    #expect(shape.err.contains("\(wrong): not a CoinGecko response Folio can import"))
    #expect(shape.err.contains("found an object with keys prices"))
    let typed = sandbox.write(
      "typed.json", #"[{"id":"a","symbol":"a","name":"A","current_price":"1.5"}]"#)
    let typedResult = sandbox.run("market", "import", typed)
    #expect(typedResult.code == 65)
    #expect(typedResult.err.contains("current_price is a string, expected a number or null"))
    #expect(try sandbox.dump() == before)
  }

  @Test func aMissingFileExits66() throws {
    sandbox.importUSDFixtures()
    let before = try sandbox.dump()
    let missing = sandbox.file("absent.json")
    let result = sandbox.run(
      "market", "import", Fixtures.path("coingecko/global_usd.json"), missing)
    #expect(result.code == 66)
    #expect(result.err == "folio: error: \(missing): no such file\n")
    #expect(try sandbox.dump() == before)
  }

  @Test func badOptionsAreUsageErrors() {
    let at = sandbox.run("market", "import", "--at", "yesterday", "x.json")
    #expect(at.code == 64)
    #expect(at.err.contains("invalid value 'yesterday' for --at"))
    let vs = sandbox.run("market", "import", "--vs", "u$d", "x.json")
    #expect(vs.code == 64)
    #expect(sandbox.run("market", "import").err.contains("missing argument <file>"))
  }

  @Test func theBuiltBinaryImportsAndLists() throws {
    let environment = ["FOLIO_DB": sandbox.database]
    let imported = try Binary.run(
      ["market", "import", Fixtures.path("coingecko/markets_usd.json")], environment: environment)
    #expect(imported.code == 0)
    let list = try Binary.run(
      ["coins", "list", "--limit", "1", "--format", "csv", "--max-age", "100000d"],
      environment: environment)
    #expect(list.code == 0)
    #expect(
      list.out.hasSuffix(
        "1,bitcoin,btc,Bitcoin,39935.3,0.63162,781515134887,,,usd,2024-01-24T00:28:58Z\n"))
    let bad = sandbox.write("bad.json", "{")
    let refused = try Binary.run(["market", "import", bad], environment: environment)
    #expect(refused.code == 65)
    #expect(refused.err.hasPrefix("folio: error: \(bad):1:2: not valid JSON"))
  }
}
