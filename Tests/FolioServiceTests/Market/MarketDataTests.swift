import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct MarketDataTests {
  let sandbox: ServiceSandbox

  init() throws { sandbox = try ServiceSandbox() }

  var database: Database { sandbox.store.database }

  func text(_ sql: String) throws -> String? { try database.scalarText(sql) }

  func date(_ text: String) throws -> Date { try Timestamp(parsing: text, .lenient).date }

  // MARK: - Import

  @Test func everyFixtureAndEveryRealCaptureImports() throws {
    let usd = try sandbox.importFixtures(
      "coingecko/markets_usd.json", "coingecko/global_usd.json", "coingecko/coin_bitcoin.json",
      "coingecko/coin_ethereum.json")
    #expect(usd.map(\.added) == [20, 1, 1, 1])
    #expect(
      usd.map(\.fetchedAt) == [
        "2024-01-24T00:28:58Z", "2024-01-24T00:28:56Z", "2024-01-24T00:28:42Z",
        "2024-01-24T00:28:51Z",
      ])
    let captured = try sandbox.importFixtures(
      "coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json", vs: "eur")
    #expect(captured.first?.added == 100)
    #expect(captured.first?.warnings == [])
    let others = try sandbox.importFixtures(
      "coingecko/captured/global_2021-05-18.json",
      "coingecko/captured/global_2021-05-10_from_swiftful_comment.json",
      "coingecko/captured/coin_bitcoin_full_2021-05-15.json",
      "coingecko/captured/coin_bitcoin_appparams_2021-05-11.json")
    #expect(others.map(\.added) == [1, 1, 1, 1])
    #expect(try sandbox.count("market_snapshots") == 2)
    #expect(try sandbox.count("market_quotes") == 120)
    #expect(try sandbox.count("global_snapshots") == 3)
    #expect(try sandbox.count("coin_details") == 4)
    #expect(try sandbox.count("coins") == 100)  // the EUR page holds the 20 USD coins too
  }

  @Test func moneyIsStoredAsTheJSONNumberWasWritten() throws {
    try sandbox.importFixtures(
      "coingecko/markets_usd.json", "coingecko/captured/global_2021-05-18.json")
    #expect(
      try text("SELECT current_price FROM market_quotes WHERE coin_id = 'shiba-inu'")
        == "0.00000883943")
    #expect(
      try text("SELECT price_change_24h FROM market_quotes WHERE coin_id = 'bitcoin'")
        == "250.661")
    #expect(
      try text("SELECT total_market_cap FROM global_totals WHERE currency = 'clp'")
        == "1528997207360060")
    #expect(
      try text("SELECT total_market_cap FROM global_totals WHERE currency = 'usd'")
        == "2142953338976.9612")
    let sparkline = try #require(
      try text("SELECT sparkline_7d FROM market_quotes WHERE coin_id = 'bitcoin'"))
    #expect(sparkline.hasPrefix("[40274.934,"))
    #expect(sparkline.hasSuffix(",39935.3]"))
  }

  /// The column holds each sparkline number's canonical decimal: canonical ones as written,
  /// others converted (rounded with a note, or null with a warning when too large).
  @Test func sparklineNumbersAreStoredCanonically() throws {
    let file = sandbox.write(
      "messy.json",
      #"""
      [{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":1,
        "last_updated":"2024-01-24T00:00:00.000Z",
        "sparkline_in_7d":{"price":[40274.934,1e-5,1E+3,1.50,null,-0,0.0,
          0.1234567890123456789,1e30,0,-0.25]}}]
      """#)
    let outcome = try sandbox.market.importFiles(
      [file], vsCurrency: "usd", at: nil, now: sandbox.now)
    #expect(
      try text("SELECT sparkline_7d FROM market_quotes WHERE coin_id = 'bitcoin'")
        == "[40274.934,0.00001,1000,1.5,null,0,0,0.123456789012345679,null,0,-0.25]")
    #expect(
      outcome.first?.warnings == [
        "coin 'bitcoin' (element 0): 1 sparkline point(s) too large to store; left empty",
        "1 number(s) had more than 18 fractional digits and were rounded",
      ])
    let stored = try #require(
      try MarketRecords.latestQuote(database, coinID: "bitcoin", vsCurrency: "usd"))
    #expect(stored.sparkline.count == 11)
    #expect(stored.sparkline[2] == ExactDecimal(1000) && stored.sparkline[4] == nil)
  }

  @Test func aBadFileAmongGoodOnesStoresNothing() throws {
    let good = Fixtures.path("coingecko/markets_usd.json")
    let malformed = sandbox.write("cut.json", "[{\"id\": \"bitcoin\",\n  \"symbol\": ")
    let wrong = sandbox.write("wrong.json", #"{"hello": "world"}"#)
    let before = try sandbox.marketDump()
    #expect(
      throws: MarketError.malformedJSON(
        file: malformed,
        JSONParseError(line: 2, column: 13, reason: "unexpected end of input; expected a value"))
    ) {
      try sandbox.market.importFiles(
        [good, malformed], vsCurrency: "usd", at: nil, now: sandbox.now)
    }
    #expect(
      throws: MarketError.wrongShape(
        file: wrong,
        reason: "expected a /coins/markets array, a /global object or a /coins/{id} object, "
          + "found an object with keys hello")
    ) {
      try sandbox.market.importFiles([good, wrong], vsCurrency: "usd", at: nil, now: sandbox.now)
    }
    let missing = sandbox.folder + "/nope.json"
    let error = #expect(throws: MarketError.self) {
      try sandbox.market.importFiles([good, missing], vsCurrency: "usd", at: nil, now: sandbox.now)
    }
    #expect(error == .fileMissing(missing))
    #expect(error?.kind == .inputMissing)
    #expect(try sandbox.marketDump() == before)
    #expect(try sandbox.count("market_quotes") == 0)
  }

  @Test func aPageWithoutAnyPricedCoinIsRefused() throws {
    let empty = sandbox.write("empty.json", "[]")
    #expect(
      throws: MarketError.wrongShape(
        file: empty, reason: "the /coins/markets page holds no coin with a price")
    ) {
      try sandbox.market.importFiles([empty], vsCurrency: "usd", at: nil, now: sandbox.now)
    }
  }

  @Test func snapshotsAreHistoryAndTheSameTimeMerges() throws {
    try sandbox.importFixtures(
      "coingecko/markets_usd.json", at: try date("2024-01-20T00:00:00Z"))
    try sandbox.importFixtures(
      "coingecko/markets_usd.json", at: try date("2024-01-21T00:00:00Z"))
    #expect(try sandbox.count("market_snapshots") == 2)
    #expect(try sandbox.count("market_quotes") == 40)
    let again = try sandbox.importFixtures(
      "coingecko/markets_usd.json", at: try date("2024-01-21T00:00:00Z"))
    #expect(again.first?.alreadyImported == true)
    #expect(again.first?.alreadyPresent == 20)
    #expect(try sandbox.count("market_quotes") == 40)
    // A second page at the same time joins the snapshot.
    let page2 = sandbox.write(
      "page2.json", #"[{"id":"newcoin","symbol":"new","name":"New","current_price":0.5}]"#)
    let joined = try sandbox.market.importFiles(
      [page2], vsCurrency: "usd", at: try date("2024-01-21T00:00:00Z"), now: sandbox.now)
    #expect(joined.first?.added == 1)
    #expect(try sandbox.count("market_snapshots") == 2)
    let history = try sandbox.market.history(of: "bitcoin")
    #expect(history.points.map(\.snapshotAt) == ["2024-01-20T00:00:00Z", "2024-01-21T00:00:00Z"])
    let since = try sandbox.market.history(of: "bitcoin", since: try date("2024-01-20T12:00:00Z"))
    #expect(since.points.count == 1)
  }

  @Test func snapshotTimeIsAtElseTheDataElseNow() throws {
    let noTime = sandbox.write(
      "notime.json", #"[{"id":"a","symbol":"a","name":"A","current_price":1}]"#)
    let outcome = try sandbox.market.importFiles(
      [noTime], vsCurrency: "usd", at: nil, now: sandbox.now)
    #expect(outcome.first?.fetchedAt == "2024-01-25T12:00:00Z")
    let global = try sandbox.importFixtures("coingecko/global_usd.json")
    #expect(global.first?.fetchedAt == "2024-01-24T00:28:56Z")
    let at = try sandbox.importFixtures(
      "coingecko/global_usd.json", at: try date("2024-01-24T01:00:00+01:00"))
    #expect(at.first?.fetchedAt == "2024-01-24T00:00:00Z")
  }

  @Test func skippedCoinsAreReported() throws {
    let file = sandbox.write(
      "partial.json",
      #"[{"id":"a","symbol":"a","name":"A","current_price":1},{"id":"b","symbol":"b","name":"B","current_price":null}]"#
    )
    let outcome = try #require(
      try sandbox.market.importFiles([file], vsCurrency: "usd", at: nil, now: sandbox.now).first)
    #expect(outcome.added == 1)
    #expect(outcome.skipped == 1)
    #expect(outcome.warnings == ["coin 'b' (element 1) has no current_price; skipped"])
    #expect(try sandbox.count("coins") == 101)  // the built-in 100 and "a"
  }

  @Test func aNameOrSymbolLongerThanTheCoinsTableTakesIsRefusedByItsCoin() throws {
    func page(_ file: String, name: String, symbol: String = "l") -> String {
      sandbox.write(
        file,
        #"[{"id":"short","symbol":"s","name":"S","current_price":1},"#
          + #"{"id":"long","symbol":"\#(symbol)","name":"\#(name)","current_price":2}]"#)
    }
    // 200 characters as SQLite's length() counts them (scalars) are stored ...
    let most = String(repeating: "n", count: 200)
    let outcome = try sandbox.market.importFiles(
      [page("most.json", name: most)], vsCurrency: "usd", at: nil, now: sandbox.now)
    #expect(outcome.first?.added == 2)
    #expect(try text("SELECT name FROM coins WHERE id = 'long'") == most)
    let before = try sandbox.marketDump()
    // ... and 201 are refused with the coin named, before anything is written: a letter with
    // a combining accent is one Character to Swift but two to SQLite.
    let accented = String(repeating: "e\u{301}", count: 100) + "x"
    let name = page("name.json", name: accented)
    let symbol = page("symbol.json", name: "L", symbol: String(repeating: "s", count: 101))
    for (file, problem) in [
      (name, "name is 201 characters long; folio stores at most 200"),
      (symbol, "symbol is 101 characters long; folio stores at most 100"),
    ] {
      let reason = "coin 'long' (element 1): " + problem
      #expect(throws: MarketError.wrongShape(file: file, line: 1, reason: reason)) {
        try sandbox.market.importFiles([file], vsCurrency: "usd", at: nil, now: sandbox.now)
      }
    }
    #expect(try sandbox.marketDump() == before)
  }

  /// The quotes are written with the CHECK constraints off (each value is canonical by
  /// construction); numbers and times written every other way must still be stored in the
  /// form the CHECKs require, and the CHECKs must be on again after the import.
  @Test func messyNumbersAndTimesAreStoredInTheFormTheChecksRequire() throws {
    let file = sandbox.write(
      "messy.json",
      """
      [{"id":"messy","symbol":"msy","name":"Messy","current_price":1.50E+3,
        "market_cap":-0.0,"total_volume":7.53314e-7,"high_24h":0.1234567890123456789012,
        "low_24h":12.000,"price_change_24h":-1e-30,"ath":1e300,
        "ath_date":"2021-11-10T14:24:11.849Z","atl_date":"2021-11-10T16:24:11+02:00",
        "last_updated":"bogus","sparkline_in_7d":{"price":[1e2,2.50,null,-0.0,3]}}]
      """)
    let outcome = try #require(
      try sandbox.market.importFiles([file], vsCurrency: "usd", at: nil, now: sandbox.now).first)
    #expect(outcome.added == 1)
    let columns = [
      "current_price", "market_cap", "total_volume", "high_24h", "low_24h", "price_change_24h",
      "ath", "ath_date", "atl_date", "last_updated", "sparkline_7d",
    ]
    let row = try database.row(
      "SELECT \(columns.joined(separator: ", ")) FROM market_quotes WHERE coin_id = 'messy'"
    ) { row in try columns.map { try row.storedText($0) } }
    #expect(
      row == [
        "1500", "0", "0.000000753314", "0.123456789012345679", "12", "0", "NULL",
        "2021-11-10T14:24:11Z", "2021-11-10T14:24:11Z", "NULL", "[100,2.5,null,0,3]",
      ])
    // integrity_check tests every row against the CHECK constraints.
    #expect(try database.integrityProblems() == [])
    #expect(throws: SQLiteError.self) {
      try database.execute(
        "UPDATE market_quotes SET current_price = '1.50' WHERE coin_id = 'messy'")
    }
  }

  // MARK: - Reading for other features

  @Test func latestQuotesAndGlobalForStatistics() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json", at: try date("2024-01-20T00:00:00Z"))
    let newer = sandbox.write(
      "newer.json",
      #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":41000.5,"price_change_percentage_24h":2.5}]"#
    )
    _ = try sandbox.market.importFiles(
      [newer], vsCurrency: "usd", at: try date("2024-01-22T00:00:00Z"), now: sandbox.now)
    let quotes = try sandbox.market.latestQuotes(for: ["bitcoin", "ethereum", "unknown"])
    #expect(quotes.count == 2)
    #expect(quotes["bitcoin"]?.price.description == "41000.5")
    #expect(quotes["bitcoin"]?.snapshotAt == "2024-01-22T00:00:00Z")
    #expect(quotes["bitcoin"]?.change24hPercent?.description == "2.5")
    #expect(quotes["bitcoin"]?.sparkline.isEmpty == true)
    #expect(quotes["ethereum"]?.snapshotAt == "2024-01-20T00:00:00Z")
    #expect(quotes["ethereum"]?.sparkline.count == 168)
    let all = try sandbox.market.latestQuotes()
    #expect(all.count == 20)
    #expect(all["bitcoin"]?.price.description == "41000.5")
    #expect(try sandbox.market.latestQuotes(vsCurrency: "eur").isEmpty)

    #expect(try sandbox.market.latestGlobal() == nil)
    try sandbox.importFixtures(
      "coingecko/captured/global_2021-05-18.json", "coingecko/global_usd.json")
    let global = try #require(try sandbox.market.latestGlobal())
    #expect(global.fetchedAt == "2024-01-24T00:28:56Z")
    #expect(global.data.total("usd")?.marketCap?.description == "1610737412345.7183")
    #expect(global.data.marketCapPercentages.first?.symbol == "btc")
    #expect(global.data.marketCapPercentages.first?.percentage.description == "48.51856093817352")
    #expect(global.data.marketCapChangePercentage24hUSD?.description == "-0.8415069913224736")
    #expect(global.data.updatedAt == "2024-01-24T00:28:56Z")
  }

  // MARK: - Coin list

  func list(
    _ sort: CoinSort = .rank, search: String? = nil, limit: Int? = nil, portfolio: String = "main"
  ) throws -> CoinList {
    var query = CoinListQuery()
    query.sort = sort
    query.search = search
    query.limit = limit
    query.portfolio = portfolio
    return try sandbox.market.coinList(query)
  }

  @Test func listSortsAsTheBriefSays() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json")
    try sandbox.hold("ethereum", "2")  // 4481.94
    try sandbox.hold("dogecoin", "10000")  // 782.061
    try sandbox.hold("bitcoin", "0.1")  // 3993.53
    try sandbox.hold("tether", "0")  // not held
    func ids(_ list: CoinList, _ count: Int = 3) -> [String] {
      Array(list.rows.prefix(count).map(\.quote.coinID))
    }
    #expect(ids(try list(.rank)) == ["bitcoin", "ethereum", "tether"])
    #expect(ids(try list(.rankReversed)) == ["litecoin", "dai", "shiba-inu"])
    #expect(ids(try list(.price)) == ["bitcoin", "wrapped-bitcoin", "staked-ether"])
    #expect(ids(try list(.priceReversed)) == ["shiba-inu", "dogecoin", "tron"])
    #expect(ids(try list(.holdings), 4) == ["ethereum", "bitcoin", "dogecoin", "tether"])
    #expect(ids(try list(.holdingsReversed), 4) == ["dogecoin", "bitcoin", "ethereum", "tether"])
    let held = try list(.holdings)
    #expect(held.hasHoldings)
    #expect(held.rows.first?.holding?.description == "2")
    #expect(held.rows.first?.value?.description == "4481.94")
    #expect(held.rows[3].holding == nil && held.rows[3].value == nil)
    #expect(held.snapshot.fetchedAt == "2024-01-24T00:28:58Z")
  }

  @Test func searchMatchesNameSymbolOrIdIgnoringCase() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json")
    #expect(try list(search: "BITCOIN").rows.map(\.quote.coinID) == ["bitcoin", "wrapped-bitcoin"])
    #expect(try list(search: "Usd").rows.map(\.quote.coinID) == ["tether", "usd-coin"])  // USDT, id
    #expect(try list(search: "avalanche").rows.map(\.quote.coinID) == ["avalanche-2"])
    #expect(try list(search: "zzz").rows.isEmpty)
    #expect(try list(limit: 5).rows.count == 5)
    #expect(
      try list(search: "coin", limit: 2).rows.map(\.quote.coinID) == ["bitcoin", "binancecoin"])
  }

  @Test func heldCoinsMissingFromTheLatestSnapshotUseOlderPrices() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json", at: try date("2024-01-20T00:00:00Z"))
    let newer = sandbox.write(
      "newer.json",
      #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":41000,"market_cap_rank":1}]"#
    )
    _ = try sandbox.market.importFiles(
      [newer], vsCurrency: "usd", at: try date("2024-01-22T00:00:00Z"), now: sandbox.now)
    try sandbox.hold("litecoin", "3")
    try sandbox.hold("never-priced", "1")
    let result = try list()
    #expect(result.rows.map(\.quote.coinID) == ["bitcoin", "litecoin"])
    #expect(result.rows.map(\.isFromOlderSnapshot) == [false, true])
    #expect(result.rows[1].quote.snapshotAt == "2024-01-20T00:00:00Z")
    #expect(result.rows[1].value?.description == "196.1112")
    #expect(result.heldWithoutPrice == ["never-priced"])
  }

  @Test func anUnknownPortfolioIsRefused() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json")
    let error = #expect(throws: PortfolioError.self) { try list(portfolio: "savings") }
    #expect(error == .notFound("savings", known: ["main"]))
    #expect(error?.kind == .inputMissing)
  }

  @Test func noMarketDataIsInputMissing() throws {
    let error = #expect(throws: MarketError.self) { try list() }
    #expect(error == .noMarketData(vsCurrency: "usd"))
    #expect(error?.kind == .inputMissing)
  }

  @Test func heldQuantitiesAreTheNonZeroPositionsOfThePortfolio() throws {
    try sandbox.store.database.execute(
      "INSERT INTO portfolios (name, created_at) VALUES ('other', '2024-01-01T00:00:00Z')")
    try sandbox.hold("bitcoin", "0.5")
    try sandbox.hold("ethereum", "0")
    try sandbox.hold("solana", "7", portfolio: "other")
    #expect(
      try HeldPositions.quantities(sandbox.store, portfolio: "main") == [
        "bitcoin": try ExactDecimal(parsing: "0.5")
      ])
    #expect(
      try HeldPositions.quantities(sandbox.store, portfolio: "other") == ["solana": ExactDecimal(7)]
    )
  }

  // MARK: - Show and prune

  @Test func overviewCombinesQuoteAndDetail() throws {
    try sandbox.importFixtures("coingecko/markets_usd.json", "coingecko/coin_bitcoin.json")
    let overview = try sandbox.market.overview(of: "bitcoin")
    #expect(overview.quote?.price.description == "39935.3")
    #expect(overview.detail?.detail.hashingAlgorithm == "SHA-256")
    #expect(overview.detail?.fetchedAt == "2024-01-24T00:28:42Z")
    let eth = try sandbox.market.overview(of: "ethereum")
    #expect(eth.detail == nil)
    #expect(throws: MarketError.unknownCoin("nothing")) {
      try sandbox.market.overview(of: "nothing")
    }
    #expect(try sandbox.market.overview(of: "bitcoin", vsCurrency: "eur").quote == nil)
  }

  @Test func pruneRemovesOldSnapshotsButKeepsTheLatest() throws {
    for day in ["2024-01-01", "2024-01-10", "2024-01-20"] {
      try sandbox.importFixtures(
        "coingecko/markets_usd.json", "coingecko/global_usd.json", "coingecko/coin_bitcoin.json",
        at: try date(day))
    }
    try sandbox.importFixtures(
      "coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json", vs: "eur",
      at: try date("2023-06-01"))
    // now is 2024-01-25T12:00:00Z: keeping 10 days removes 01-01 (and the EUR one is kept
    // because it is the latest in EUR).
    let outcome = try sandbox.market.prune(keepDays: 10, now: sandbox.now)
    #expect(outcome.cutoff == "2024-01-15T12:00:00Z")
    #expect(outcome.marketSnapshots == 2)
    #expect(outcome.quotes == 40)
    #expect(outcome.globalSnapshots == 2)
    #expect(outcome.coinDetails == 2)
    #expect(try sandbox.count("market_snapshots") == 2)
    #expect(try sandbox.count("global_totals") == 18)
    #expect(try sandbox.count("global_market_cap_percentages") == 10)
    // Keeping 0 days still keeps the latest of each.
    let all = try sandbox.market.prune(keepDays: 0, now: sandbox.now)
    #expect(all.marketSnapshots == 0 && all.globalSnapshots == 0 && all.coinDetails == 0)
    #expect(try sandbox.market.latestSnapshot()?.fetchedAt == "2024-01-20T00:00:00Z")
    #expect(try sandbox.market.latestSnapshot(vsCurrency: "eur") != nil)
  }

  @Test func stalenessComparesWithMaxAge() {
    let now = sandbox.now
    #expect(MarketData.staleness(of: "2024-01-25T11:00:00Z", now: now, maxAge: 7200) == nil)
    #expect(MarketData.staleness(of: "2024-01-25T09:00:00Z", now: now, maxAge: 7200) == 10_800)
    // Stale means older than the maximum age: exactly 2 h old is still fresh, a second more is not.
    #expect(MarketData.staleness(of: "2024-01-25T10:00:00Z", now: now, maxAge: 7200) == nil)
    #expect(MarketData.staleness(of: "2024-01-25T09:59:59Z", now: now, maxAge: 7200) == 7201)
  }
}
