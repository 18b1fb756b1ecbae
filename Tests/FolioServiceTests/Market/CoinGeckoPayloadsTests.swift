import FolioStorage
import FolioTestSupport
import Testing

@testable import FolioService

@Suite struct CoinGeckoPayloadsTests {
  func read(_ text: String) throws -> (CoinGeckoDocument, PayloadNotes) {
    try read(bytes: Array(text.utf8))
  }

  func readFixture(_ name: String) throws -> (CoinGeckoDocument, PayloadNotes) {
    try read(bytes: try Fixtures.bytes(name))
  }

  /// Reads the bytes whole, and again element by element as `market import` does
  /// (`ArrayReader`): the two must give the same document and notes, or the same error.
  func read(bytes: [UInt8]) throws -> (CoinGeckoDocument, PayloadNotes) {
    var notes = PayloadNotes()
    let value = try JSONValue.parse(bytes)
    let whole = Result { () throws(PayloadError) in
      try CoinGeckoDocument.read(value, notes: &notes)
    }
    var reader = CoinGeckoDocument.ArrayReader()
    var streamedNotes = PayloadNotes()
    let top = try JSONValue.parse(bytes) { reader.add($0) }
    let streamed = Result { () throws(PayloadError) in
      try reader.document(of: top, notes: &streamedNotes)
    }
    #expect(streamed == whole)
    if case .success = whole { #expect(streamedNotes == notes) }
    return (try whole.get(), notes)
  }

  func shapeError(_ text: String) -> String? {
    do {
      _ = try read(text)
      return nil
    } catch let error as PayloadError {
      return error.reason
    } catch {
      return "unexpected \(error)"
    }
  }

  @Test func usdMarketsFixtureHasEveryFieldExactly() throws {
    let (document, notes) = try readFixture("coingecko/markets_usd.json")
    guard case .markets(let page) = document else {
      Issue.record("not read as a markets page")
      return
    }
    #expect(notes.allWarnings.isEmpty)
    #expect(page.quotes.count == 20)
    #expect(page.latestUpdate == "2024-01-24T00:28:58Z")
    let bitcoin = try #require(page.quotes.first)
    #expect(bitcoin.id == "bitcoin" && bitcoin.symbol == "btc" && bitcoin.name == "Bitcoin")
    #expect(bitcoin.currentPrice.description == "39935.3")
    #expect(bitcoin.marketCap?.description == "781515134887")
    #expect(bitcoin.marketCapRank == 1)
    #expect(bitcoin.priceChangePercentage24h?.description == "0.63162")
    #expect(bitcoin.priceChangePercentage24hInCurrency?.description == "0.63162")
    #expect(bitcoin.athDate == "2021-11-10T14:24:11Z")
    #expect(bitcoin.atlDate == "2013-07-05T00:00:00Z")
    #expect(bitcoin.roiTimes == nil)
    #expect(bitcoin.sparkline7d?.count == 168)
    #expect(bitcoin.sparkline7d?.last == bitcoin.currentPrice)
    let shiba = try #require(page.quotes.first { $0.id == "shiba-inu" })
    #expect(shiba.currentPrice.description == "0.00000883943")  // written 8.83943e-06
  }

  @Test func realEURCaptureReadsWithNullsAndROIObjects() throws {
    let (document, notes) = try readFixture(
      "coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json")
    guard case .markets(let page) = document else {
      Issue.record("not read as a markets page")
      return
    }
    #expect(notes.allWarnings.isEmpty)
    #expect(page.quotes.count == 100)
    #expect(page.quotes.first?.id == "matic-network")  // the first element is rank 16
    let matic = try #require(page.quotes.first)
    #expect(matic.roiTimes?.description == "273.4763468432398")
    #expect(matic.roiCurrency == "usd")
    #expect(matic.sparkline7d == nil)
    let monero = try #require(page.quotes.first { $0.id == "monero" })
    #expect(monero.totalSupply == nil && monero.maxSupply == nil)
    let shiba = try #require(page.quotes.first { $0.id == "shiba-inu" })
    #expect(shiba.currentPrice.description == "0.00000812")
  }

  @Test func realGlobalCapturesKeepExponentNumbersExactly() throws {
    let (document, _) = try readFixture("coingecko/captured/global_2021-05-18.json")
    guard case .global(let global) = document else {
      Issue.record("not read as /global")
      return
    }
    #expect(global.totals.count == 61)
    #expect(global.total("usd")?.marketCap?.description == "2142953338976.9612")
    #expect(global.total("clp")?.marketCap?.description == "1528997207360060")
    #expect(global.total("vnd")?.marketCap?.description == "49346910185633990")
    #expect(global.marketCapChangePercentage24hUSD?.description == "-0.9554088490358789")
    #expect(global.updatedAt == "2021-05-18T13:55:59Z")
    #expect(global.marketCapPercentages.first?.symbol == "btc")
    #expect(global.marketCapPercentages.count == 10)

    let (swiftful, _) = try readFixture(
      "coingecko/captured/global_2021-05-10_from_swiftful_comment.json")
    guard case .global(let older) = swiftful else {
      Issue.record("not read as /global")
      return
    }
    #expect(older.total("usd")?.marketCap?.description == "2576156760966.8447")
    #expect(
      older.marketCapPercentages.first { $0.symbol == "btc" }?.percentage.description
        == "42.56418169927073")
  }

  @Test func coinDetailsStripHTMLAndTakeTheFirstHomepage() throws {
    let (full, _) = try readFixture("coingecko/captured/coin_bitcoin_full_2021-05-15.json")
    guard case .coinDetail(let detail) = full else {
      Issue.record("not read as a coin detail")
      return
    }
    #expect(detail.id == "bitcoin")
    #expect(detail.blockTimeInMinutes?.description == "10")
    #expect(detail.hashingAlgorithm == "SHA-256")
    #expect(detail.homepage == "http://www.bitcoin.org")
    #expect(detail.subredditURL == "https://www.reddit.com/r/Bitcoin/")
    #expect(detail.imageURL?.hasPrefix("https://assets.coingecko.com/coins/images/1/large") == true)
    #expect(detail.lastUpdated == "2021-05-15T15:58:12Z")
    let description = try #require(detail.description)
    #expect(!description.contains("<a") && !description.contains("</a>"))
    #expect(description.contains("uses the SHA-256 hashing algorithm"))
    #expect(!description.contains("\r"))

    let (ethereum, _) = try readFixture("coingecko/coin_ethereum.json")
    guard case .coinDetail(let eth) = ethereum else {
      Issue.record("not read as a coin detail")
      return
    }
    #expect(eth.blockTimeInMinutes?.description == "0")
    #expect(eth.description?.contains("Vitalik Buterin & Gavin Wood") == true)
    #expect(eth.description?.contains("<br>") == false)
  }

  @Test func aCoinWithANullPriceIsSkippedNotThePage() throws {
    let (document, notes) = try read(
      #"""
      [{"id":"a","symbol":"a","name":"A","current_price":1.5},
       {"id":"b","symbol":"b","name":"B","current_price":null},
       {"id":"c","symbol":"c","name":"C"},
       {"id":"a","symbol":"a","name":"A again","current_price":2}]
      """#)
    guard case .markets(let page) = document else {
      Issue.record("not read as a markets page")
      return
    }
    #expect(page.quotes.map(\.id) == ["a"])
    #expect(page.skipped == 3)
    #expect(notes.warnings.contains("coin 'b' (element 1) has no current_price; skipped"))
    #expect(notes.warnings.contains("coin 'c' (element 2) has no current_price; skipped"))
    #expect(
      notes.warnings.contains("coin 'a' (element 3) appears twice; the later one was skipped"))
  }

  @Test func unstorableNumbersAreLeftEmptyOrRoundedWithANote() throws {
    let (document, notes) = try read(
      #"""
      [{"id":"x","symbol":"x","name":"X","current_price":0.1234567890123456789,
        "total_supply":1e24,"ath_date":"soon",
        "sparkline_in_7d":{"price":[1,null,1e30,2.5]}}]
      """#)
    guard case .markets(let page) = document, let quote = page.quotes.first else {
      Issue.record("not read as a markets page")
      return
    }
    #expect(quote.currentPrice.description == "0.123456789012345679")
    #expect(quote.totalSupply == nil)
    #expect(quote.athDate == nil)
    #expect(quote.sparkline7d == [ExactDecimal(1), nil, nil, try ExactDecimal(parsing: "2.5")])
    #expect(notes.roundedCount == 1)
    #expect(
      notes.warnings.contains(
        "coin 'x' (element 0): total_supply 1e24 is too large to store exactly; left empty"))
    #expect(
      notes.warnings.contains(
        "coin 'x' (element 0): ath_date 'soon' is not a readable time; left empty"))
    #expect(
      notes.allWarnings.last == "1 number(s) had more than 18 fractional digits and were rounded")
  }

  @Test func wrongShapesAreRefusedWithTheReason() {
    #expect(shapeError("42")?.contains("found a number") == true)
    #expect(
      shapeError(#"{"foo": 1, "bar": 2}"#)?.contains("found an object with keys foo, bar") == true)
    #expect(shapeError("[1]") == "element 0 is a number, expected a coin object")
    #expect(shapeError(#"[{"symbol":"a","name":"A"}]"#) == "element 0 has no id")
    // No market fields: a /coins/list, none of whose elements folio can use.
    #expect(
      shapeError(#"[{"id":5,"symbol":"a","name":"A"}]"#)
        == "no element of the /coins/list array is a coin folio can use "
        + "(element 0: id is a number, expected a string; skipped)")
    #expect(
      shapeError(#"[{"id":5,"symbol":"a","name":"A","current_price":1}]"#)
        == "element 0: id is a number, expected a string")
    #expect(
      shapeError(#"[{"id":"a","symbol":"a","name":"A","current_price":"12"}]"#)
        == "coin 'a' (element 0): current_price is a string, expected a number or null")
    #expect(
      shapeError(#"[{"id":"a","symbol":"a","name":"A","current_price":1,"market_cap_rank":1.5}]"#)
        == "coin 'a' (element 0): market_cap_rank is 1.5, expected a whole number")
    #expect(
      shapeError(
        #"[{"id":"a","symbol":"a","name":"A","current_price":1,"sparkline_in_7d":{"price":"x"}}]"#)?
        .contains("sparkline_in_7d.price is a string") == true)
    #expect(
      shapeError(#"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit"}}"#)
        == "it holds a CoinGecko error response: You've exceeded the Rate Limit")
    #expect(
      shapeError(#"{"error":"coin not found"}"#)
        == "it holds a CoinGecko error response: coin not found")
    #expect(
      shapeError(#"{"data":{"total_market_cap":{"usd":"many"}}}"#)?.contains("usd is a string")
        == true)
    #expect(
      shapeError(#"{"id":"x","links":{"homepage":5}}"#)?.contains("links.homepage is a number")
        == true)
  }

  @Test func aCoinListIsToldFromAPageByItsFirstObjectWhenReadElementByElement() throws {
    // Elements before the first object wait for it; a /coins/list skips them with a warning.
    let (list, listNotes) = try read(#"[1, {"id":"a","symbol":"a","name":"A"}, 2]"#)
    #expect(list == .coinList([DirectoryCoin(id: "a", symbol: "a", name: "A", rank: nil)]))
    #expect(listNotes.warnings.count == 2)
    let (page, pageNotes) = try read(
      #"[{"id":"a","symbol":"a","name":"A","current_price":1},{"id":"a","symbol":"a","name":"A","current_price":2},{"id":"b","symbol":"b","name":"B","current_price":null}]"#
    )
    guard case .markets(let markets) = page else {
      Issue.record("not read as a markets page: \(page)")
      return
    }
    #expect(markets.quotes.map(\.id) == ["a"])
    #expect(markets.quotes.first?.currentPrice == ExactDecimal(1))
    #expect(markets.skipped == 2)
    #expect(pageNotes.warnings.count == 2)
    // The first bad element is the one named, with its line.
    #expect(
      shapeError("[\n{\"id\":\"a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":1},\n7,\n8]")
        == "element 1 is a number, expected a coin object")
    #expect(shapeError("[]") == nil)
  }

  @Test func missingOptionalFieldsAreFine() throws {
    let (markets, notes) = try read(#"[{"id":"a","symbol":"","name":"","current_price":1}]"#)
    guard case .markets(let page) = markets, let quote = page.quotes.first else {
      Issue.record("not read as a markets page")
      return
    }
    #expect(notes.warnings.isEmpty)
    #expect(quote.marketCap == nil && quote.marketCapRank == nil && quote.sparkline7d == nil)
    let (global, _) = try read(#"{"data":{"total_market_cap":{}}}"#)
    #expect(global == .global(GlobalData()))
    let (farFuture, farNotes) = try read(
      #"{"data":{"total_market_cap":{},"updated_at":9223372036854775807}}"#)
    #expect(farFuture == .global(GlobalData()))
    #expect(
      farNotes.warnings == [
        "data: updated_at 9223372036854775807 is not a readable time; left empty"
      ])
    let (detail, _) = try read(
      #"{"id":"x","description":{"en":""},"links":{"homepage":[""],"subreddit_url":""}}"#)
    #expect(detail == .coinDetail(CoinDetail(id: "x")))
  }
}
