import FolioService
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

  /// The README's offline command imports every bundled file: a /coins/list file joins the
  /// coin directory instead of being taken for a markets page without prices.
  @Test func theReadmeGlobImportsEveryFixtureIncludingTheCoinList() throws {
    let folder = Fixtures.path("coingecko")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
    #expect(files.contains(folder + "/coins_list.json"))
    let result = sandbox.run(["market", "import"] + files)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("coins_list.json: 100 coin(s) stored in the coin directory\n"))
    #expect(result.out.contains("markets_usd.json: 20 coin(s) in USD stored"))
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_quotes") == "20\n")
  }

  // MARK: - The page's currency

  static let eurPage = "coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json"

  /// The real EUR page without its USD stablecoins, coins cut down to id, symbol, name and
  /// price (as the page wrote them).
  func eurPageWithoutStablecoins() throws -> String {
    let items = try #require(
      try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(Self.eurPage)))
        as? [[String: Any]])
    let kept = items.filter {
      !PageCurrencyCheck.usdStablecoins.contains($0["id"] as? String ?? "")
    }
    #expect(kept.count < items.count)
    let rows = kept.map { item in
      let price = (item["current_price"] as? NSNumber)?.doubleValue ?? 0
      return #"{"id":"\#(item["id"] ?? "")","symbol":"\#(item["symbol"] ?? "")","#
        + #""name":"x","current_price":\#(price),"last_updated":"2024-01-24T00:28:58.000Z"}"#
    }
    return sandbox.write("eur-no-stablecoins.json", "[" + rows.joined(separator: ",") + "]")
  }

  @Test func aEURPageImportedAsUSDIsRefusedNamingEUR() throws {
    let global = Fixtures.path("coingecko/global_usd.json")
    #expect(sandbox.run("market", "import", global).code == 0)
    let before = try sandbox.dump()
    let eur = Fixtures.path(Self.eurPage)
    let result = sandbox.run("market", "import", eur)
    #expect(result.code == 65)
    #expect(result.out.isEmpty)
    #expect(
      result.err == "folio: error: \(eur): the prices do not look like USD: its USD stablecoins "
        + "(dai, first-digital-usd, frax, tether, true-usd, usd-coin, usdd) have a median price "
        + "of 0.920646, expected 1 within 3%; the prices look like EUR: if the page is in EUR, "
        + "import it with --vs eur, or give --force to import it as USD anyway "
        + "(nothing was imported)\n")
    #expect(try sandbox.dump() == before)
    let right = sandbox.run("market", "import", "--vs", "eur", eur)
    #expect(right.code == 0, "\(right.err)")
    #expect(right.err.isEmpty)
    #expect(
      try sandbox.sqlite(
        "SELECT vs_currency, count(*) FROM market_snapshots JOIN market_quotes ON snapshot_id = id")
        == "eur|100\n")
  }

  @Test func aUSDPageImportedAsEURIsRefusedNamingUSD() throws {
    let global = Fixtures.path("coingecko/global_usd.json")
    let usd = Fixtures.path("coingecko/markets_usd.json")
    let result = sandbox.run("market", "import", "--vs", "eur", global, usd)
    #expect(result.code == 65)
    #expect(
      result.err == "folio: error: \(usd): the prices do not look like EUR: its USD stablecoins "
        + "(dai, tether, usd-coin) have a median price of 1.00328, expected 0.9186 (1 USD in EUR "
        + "by /global of 2024-01-24T00:28:56Z) within 3%; the prices look like USD: if the page "
        + "is in USD, import it with --vs usd, or give --force to import it as EUR anyway "
        + "(nothing was imported)\n")
    // Nothing was imported: the database this import would have made is not there.
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }

  @Test func withoutRatesAPageImportedAsUSDMustPriceStablecoinsNearOneUnlessForced() throws {
    let eur = Fixtures.path(Self.eurPage)
    let result = sandbox.run("market", "import", eur)
    #expect(result.code == 65)
    #expect(
      result.err == "folio: error: \(eur): the prices do not look like USD: its USD stablecoins "
        + "(dai, first-digital-usd, frax, tether, true-usd, usd-coin, usdd) have a median price "
        + "of 0.920646, expected 1 within 3%; give the currency the page was saved in with --vs, "
        + "or give --force to import it as USD anyway (nothing was imported)\n")
    // Nothing was imported: the database this import would have made is not there.
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    let forced = sandbox.run("market", "import", "--force", eur)
    #expect(forced.code == 0)
    #expect(
      forced.err == "folio: warning: \(eur): the prices do not look like USD: its USD "
        + "stablecoins (dai, first-digital-usd, frax, tether, true-usd, usd-coin, usdd) have a "
        + "median price of 0.920646, expected 1 within 3%; imported as USD anyway (--force)\n")
    #expect(
      try sandbox.sqlite(
        "SELECT vs_currency, count(*) FROM market_snapshots JOIN market_quotes ON snapshot_id = id")
        == "usd|100\n")
  }

  @Test func aPageWithoutStablecoinsIsComparedWithTheSnapshotOfThatCurrencyWithinADay() throws {
    sandbox.importUSDFixtures()  // USD page and /global of 2024-01-24T00:28
    let page = try eurPageWithoutStablecoins()
    let before = try sandbox.dump()
    let result = sandbox.run("market", "import", page)
    #expect(result.code == 65)
    #expect(
      result.err == "folio: error: \(page): the prices do not look like USD: its prices are a "
        + "median 0.9186 times those of the USD snapshot of 2024-01-24T00:28:58Z (17 coin(s) in "
        + "common), expected 1 within 5%; the prices look like EUR: if the page is in EUR, "
        + "import it with --vs eur, or give --force to import it as USD anyway "
        + "(nothing was imported)\n")
    #expect(try sandbox.dump() == before)
    // A day and a half later there is nothing to compare with: the page is accepted.
    let later = sandbox.run("market", "import", "--at", "2024-01-25T12:30:00Z", page)
    #expect(later.code == 0, "\(later.err)")
    #expect(sandbox.run("market", "import", "--vs", "eur", page).code == 0)
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

  /// A snapshot is filed under the newest `last_updated` of its coins, or `--at`: more than a
  /// day after now is refused (one coin dated in the future would make the snapshot the latest
  /// until then), and nothing is stored; within a day (clocks differ) it is taken as it is.
  @Test func aTimeMoreThanADayAheadIsRefused() throws {
    let coins =
      #"[{"id":"a","symbol":"a","name":"A","current_price":1,"#
      + #""last_updated":"2024-11-30T10:00:00.000Z"},"#
      + #"{"id":"b","symbol":"b","name":"B","current_price":2,"last_updated":"#
    let future = sandbox.write("future.json", coins + #""2099-01-01T00:00:00.000Z"}]"#)
    let refused = sandbox.run("market", "import", future)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: \(future): its time, 2099-01-01T00:00:00Z (coin 'b'), is more than a "
        + "day after now; file it under the time it was taken with --at (nothing was imported)\n")
    // Nothing was imported: the database this import would have made is not there.
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    let late = sandbox.run("market", "import", "--at", "2024-12-02T00:00:00Z", future)
    #expect(late.code == 65)
    #expect(late.err.contains("--at 2024-12-02T00:00:00Z is more than a day after now"))
    let filed = sandbox.run("market", "import", "--at", "2024-11-30T11:00:00Z", future)
    #expect(filed.code == 0, "\(filed.err)")
    let skewed = sandbox.write("skewed.json", coins + #""2024-12-01T11:00:00.000Z"}]"#)
    let near = sandbox.run("market", "import", skewed)
    #expect(near.code == 0, "\(near.err)")
    #expect(near.out.hasSuffix("stored in snapshot 2024-12-01T11:00:00Z\n"), "\(near.out)")
  }

  @Test func aNegativeOrZeroPriceSkipsTheCoinWithAWarning() throws {
    let file = sandbox.write(
      "page.json",
      #"[{"id":"a","symbol":"a","name":"A","current_price":1},"#
        + #"{"id":"b","symbol":"b","name":"B","current_price":-2.5},"#
        + #"{"id":"c","symbol":"c","name":"C","current_price":0},"#
        + #"{"id":"d","symbol":"d","name":"D","current_price":0.0}]"#)
    let result = sandbox.run("market", "import", "--at", "2024-11-30T10:00:00Z", file)
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.err == """
        folio: warning: \(file): coin 'b' (element 1) has a current_price of -2.5, not above zero; skipped
        folio: warning: \(file): coin 'c' (element 2) has a current_price of 0, not above zero; skipped
        folio: warning: \(file): coin 'd' (element 3) has a current_price of 0, not above zero; skipped

        """)
    #expect(
      result.out == "\(file): 1 coin(s) in USD stored in snapshot 2024-11-30T10:00:00Z, 3 skipped\n"
    )
    #expect(try sandbox.sqlite("SELECT coin_id, current_price FROM market_quotes") == "a|1\n")
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
    let wrong = sandbox.write("wrong.json", #"{"values": [[1, 2]]}"#)
    let shape = sandbox.run("market", "import", "--at", "2024-11-30", good, wrong)
    #expect(shape.code == 65)
    #expect(shape.err.contains("\(wrong): not a CoinGecko response Folio can import"))
    #expect(shape.err.contains("found an object with keys values"))
    // A market_chart response ({"prices": …}) needs --coin (PriceHistoryTests).
    let chart = sandbox.write("chart.json", #"{"prices": [[1, 2]]}"#)
    let unnamed = sandbox.run("market", "import", "--at", "2024-11-30", good, chart)
    #expect(unnamed.code == 65)
    #expect(unnamed.err.contains("\(chart): a market_chart response does not say which coin"))
    let typed = sandbox.write(
      "typed.json", #"[{"id":"a","symbol":"a","name":"A","current_price":"1.5"}]"#)
    let typedResult = sandbox.run("market", "import", typed)
    #expect(typedResult.code == 65)
    #expect(typedResult.err.contains("current_price is a string, expected a number or null"))
    #expect(try sandbox.dump() == before)
  }

  /// A file larger than any CoinGecko response (a sparse 300 MiB file here; /dev/zero would
  /// never end) is refused once 256 MiB are read, not read until memory runs out. Run by the
  /// built binary: in this process the 256 MiB would stay in its peak memory, which a program
  /// it starts inherits as its own (`MeasuredRun`, as posix_spawn shares memory until exec).
  @Test func aFileLargerThanAnyResponseIsRefusedAfter256MiB() throws {
    sandbox.importUSDFixtures()
    let before = try sandbox.dump()
    let huge = sandbox.file("huge.json")
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    #expect(truncate(huge, 300 << 20) == 0)
    let result = try Binary.run(
      ["market", "import", huge], environment: ["FOLIO_DB": sandbox.database])
    #expect(result.code == 65)
    #expect(
      result.err.hasPrefix("folio: error: \(huge): ")
        && result.err.contains("more than 256 MiB, far more than any CoinGecko response"))
    #expect(try sandbox.dump() == before)
  }

  /// A refused import into a database that did not exist leaves none behind (as a refused
  /// trade import does); an import that succeeds makes it.
  @Test func aRefusedImportIntoANewDatabaseLeavesNoFile() throws {
    let path = sandbox.file("new/folio.sqlite3")
    let bad = sandbox.write("bad.json", "[1")
    let refused = sandbox.run("--db", path, "market", "import", bad)
    #expect(refused.code == 65)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("new")))
    let good = sandbox.run(
      "--db", path, "market", "import", Fixtures.path("coingecko/global_usd.json"))
    #expect(good.code == 0, "\(good.err)")
    #expect(DatabaseProbe.run(path, "SELECT count(*) FROM global_snapshots").out == "1\n")
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
