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
    #expect(bitcoin.sparkline7d?.points.count == 168)
    #expect(bitcoin.sparkline7d?.points.last == bitcoin.currentPrice)
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
    #expect(
      quote.sparkline7d?.points == [ExactDecimal(1), nil, nil, try ExactDecimal(parsing: "2.5")])
    #expect(quote.sparkline7d?.text == "[1,null,null,2.5]")
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

  /// The quote of a page whose one coin has `literals` for its sparkline.
  func sparkline(_ literals: [String]) throws -> (Sparkline?, PayloadNotes) {
    let (document, notes) = try read(
      #"[{"id":"x","symbol":"x","name":"X","current_price":1,"sparkline_in_7d":{"price":["#
        + literals.joined(separator: ",") + "]}}]")
    guard case .markets(let page) = document, let quote = page.quotes.first else {
      Issue.record("not read as a markets page")
      return (nil, notes)
    }
    return (quote.sparkline7d, notes)
  }

  /// What the sparkline text held before canonical numbers were passed through: each number
  /// converted to a decimal (nil when out of range) and written back.
  func convertedText(_ literals: [String]) -> String {
    "[" + literals.map { $0 == "null" ? "null" : converted($0) ?? "null" }.joined(separator: ",")
      + "]"
  }

  /// The canonical text of the decimal a literal converts to; nil when out of range.
  func converted(_ literal: String) -> String? {
    JSONDecimal.convert(literal).value?.description
  }

  @Test func canonicalSparklineNumbersAreStoredAsWritten() throws {
    let literals = [
      "40274.934", "0", "-0.5", "null", "0.000000000000000001", "99999999999999999999.5",
      "12345678901234567890", "-1",
    ]
    let (sparkline, notes) = try sparkline(literals)
    #expect(sparkline?.text == "[" + literals.joined(separator: ",") + "]")
    #expect(sparkline?.text == convertedText(literals))
    #expect(notes.allWarnings.isEmpty)
  }

  /// Every other way of writing a number gives the text the conversion gave, with the same
  /// rounding count and out-of-range warning.
  @Test func otherSparklineNumbersAreStoredAsTheirDecimals() throws {
    let literals = [
      "1e-5", "1E+3", "1.50", "0.0", "-0", "-0.0", "12.340e1", "-7.5E-1", "0e5",
      // More than 18 fractional digits: rounded half-to-even, counted.
      "0.1234567890123456789", "1.0000000000000000005", "2.5e-20",
      // Too large: nil, and one warning for both.
      "1e30", "170141183460469231732",
      // A whole part of 21 digits that is in range: converted, not passed through.
      "100000000000000000000",
    ]
    let (sparkline, notes) = try sparkline(literals)
    #expect(
      sparkline?.text
        == "[0.00001,1000,1.5,0,0,0,123.4,-0.75,0,0.123456789012345679,1,0,null,null,"
        + "100000000000000000000]")
    #expect(sparkline?.text == convertedText(literals))
    #expect(notes.roundedCount == 3)
    #expect(
      notes.warnings == [
        "coin 'x' (element 0): 2 sparkline point(s) too large to store; left empty"
      ])
  }

  /// Random literals of every JSON number form: the text is always what converting each one
  /// gave, and reads back as the converted points.
  @Test func randomSparklineNumbersGiveTheConvertedText() throws {
    var random = SplitMix64(seed: 168)
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(random.next(in: 0...9))) })
    }
    var literals: [String] = []
    for _ in 0..<2_000 {
      var literal = random.next(in: 0...3) == 0 ? "-" : ""
      let whole = random.next(in: 0...22)
      literal += whole == 0 ? "0" : String(random.next(in: 1...9)) + digits(whole - 1)
      if random.next(in: 0...3) > 0 { literal += "." + digits(random.next(in: 1...21)) }
      if random.next(in: 0...4) == 0 {
        literal += ["e", "E"][random.next(in: 0...1)] + ["", "+", "-"][random.next(in: 0...2)]
        literal += digits(random.next(in: 1...2))
      }
      literals.append(literal)
    }
    let (sparkline, notes) = try sparkline(literals)
    let conversions = literals.map(JSONDecimal.convert)
    #expect(sparkline?.text == convertedText(literals))
    #expect(sparkline?.points == conversions.map(\.value))
    let rounded = conversions.filter { if case .rounded = $0 { true } else { false } }
    #expect(notes.roundedCount == rounded.count)
    // Both kinds turned up: literals already canonical, and others.
    #expect(literals.contains { converted($0) == $0 })
    #expect(literals.contains { converted($0) != $0 })
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
