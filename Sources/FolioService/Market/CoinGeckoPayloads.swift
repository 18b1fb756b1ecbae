import FolioStorage
import Foundation

// MARK: - Values

/// One page of `GET /coins/markets`.
public struct MarketPage: Equatable, Sendable {
  public var quotes: [MarketQuote]
  /// How many elements were skipped (no price, or a repeated id).
  public var skipped: Int
  /// The newest `last_updated` of its coins.
  public var latestUpdate: String? {
    quotes.compactMap(\.lastUpdated).max()
  }
}

/// A CoinGecko response recognised by its shape.
public enum CoinGeckoDocument: Equatable, Sendable {
  case markets(MarketPage)
  case global(GlobalData)
  case coinDetail(CoinDetail)
  /// `/coins/list`: coins for the coin directory.
  case coinList([DirectoryCoin])

  /// A short name for messages: "markets page", "global", "coin detail".
  public var kindName: String {
    switch self {
    case .markets: return "/coins/markets page"
    case .global: return "/global"
    case .coinDetail: return "/coins/{id} detail"
    case .coinList: return "/coins/list"
    }
  }

  /// The data's own time: the newest `last_updated` of a page, `updated_at` of /global,
  /// `last_updated` of a coin detail.
  public var dataTime: String? {
    switch self {
    case .markets(let page): return page.latestUpdate
    case .global(let data): return data.updatedAt
    case .coinDetail(let detail): return detail.lastUpdated
    case .coinList: return nil
    }
  }
}

// MARK: - Reading

/// Why a CoinGecko response does not have the expected shape.
public struct PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  /// The line where the element of a /coins/markets array the problem is in starts.
  public let line: Int?
  public init(_ reason: String, line: Int? = nil) {
    self.reason = reason
    self.line = line
  }
  public var description: String { reason }
}

/// What reading a response noticed without refusing it: coins skipped, values left empty,
/// values rounded.
public struct PayloadNotes: Equatable, Sendable {
  /// One sentence each, such as "coin 'foo' (element 12) has no current_price; skipped".
  public var warnings: [String] = []
  /// How many numbers had more than 18 fractional digits and were rounded.
  public var roundedCount = 0

  public init() {}

  /// The warnings plus one line about rounding, if any.
  public var allWarnings: [String] {
    warnings
      + (roundedCount > 0
        ? ["\(roundedCount) number(s) had more than 18 fractional digits and were rounded"]
        : [])
  }
}

extension CoinGeckoDocument {
  /// Recognises a parsed response by its shape: an array is /coins/list when its first coin has
  /// an id, a symbol and a name but no market fields, else a /coins/markets page; an object
  /// with `data.total_market_cap` is /global, an object with an `id` and detail keys
  /// (`description`, `links`, `hashing_algorithm`, `block_time_in_minutes`) is /coins/{id}.
  public static func read(_ value: JSONValue, notes: inout PayloadNotes) throws(PayloadError)
    -> CoinGeckoDocument
  {
    switch value.kind {
    case .array(let items):
      if CoinListPayload.isCoinList(items) {
        return .coinList(try CoinListPayload.read(value, notes: &notes))
      }
      return .markets(try readMarkets(items, notes: &notes))
    case .object(let object):
      if let data = object["data"]?.objectValue, data["total_market_cap"] != nil {
        return .global(try readGlobal(data, notes: &notes))
      }
      if let message = errorMessage(object) {
        throw PayloadError("it holds a CoinGecko error response: \(message)")
      }
      let detailKeys = ["description", "links", "hashing_algorithm", "block_time_in_minutes"]
      if object["id"] != nil, detailKeys.contains(where: { object[$0] != nil }) {
        return .coinDetail(try readDetail(object, notes: &notes))
      }
      let keys = object.keys.prefix(6).joined(separator: ", ")
      throw PayloadError(
        "expected a /coins/markets array, a /global object or a /coins/{id} object, "
          + "found an object with keys \(keys.isEmpty ? "(none)" : keys)")
    default:
      throw PayloadError(
        "expected a /coins/markets array, a /global object or a /coins/{id} object, "
          + "found \(value.kindName)")
    }
  }

  /// The message of an error body such as `{"status": {"error_code": 429, "error_message": …}}`
  /// or `{"error": "coin not found"}`.
  static func errorMessage(_ object: JSONObject) -> String? {
    if let status = object["status"]?.objectValue,
      let message = status["error_message"]?.stringValue
    {
      return message
    }
    if let message = object["error"]?.stringValue { return message }
    // {"error": {"status": {"error_code": 10012, "error_message": …}}}, as the free API
    // answers a request for more than 365 days of history.
    if let inner = object["error"]?.objectValue { return errorMessage(inner) }
    return nil
  }

  static func readMarkets(_ items: [JSONValue], notes: inout PayloadNotes) throws(PayloadError)
    -> MarketPage
  {
    var decoder = MarketsDecoder()
    for item in items {
      decoder.add(item, notes: &notes)
      if let error = decoder.error { throw error }
    }
    return try decoder.page()
  }

  /// Decodes the elements of a /coins/markets array one at a time, in order, so a page can be
  /// read while it is parsed (`ArrayReader`) without holding the parsed array.
  struct MarketsDecoder {
    private var quotes: [MarketQuote] = []
    private var seen: Set<String> = []
    private var skipped = 0
    private var index = 0
    /// The first element's error; the elements after it are not read.
    private(set) var error: PayloadError?

    mutating func add(_ item: JSONValue, notes: inout PayloadNotes) {
      guard error == nil else { return }
      defer { index += 1 }
      do {
        if let quote = try readQuote(item, index: index, seen: &seen, notes: &notes) {
          quotes.append(quote)
        } else {
          skipped += 1
        }
      } catch {
        self.error = PayloadError(error.reason, line: item.line)
      }
    }

    /// The page, or the first element's error.
    func page() throws(PayloadError) -> MarketPage {
      if let error { throw error }
      return MarketPage(quotes: quotes, skipped: skipped)
    }
  }

  /// Reads a response while `JSONValue.parse(_:eachElement:)` parses it: the elements of a
  /// /coins/markets array are decoded as they come and let go, so a page of 20,000 coins never
  /// exists as a tree of JSON values. Give it every element, then `document(of:notes:)` the
  /// value the parse returned; the result and its errors are those of `read(_:notes:)` on the
  /// whole value.
  struct ArrayReader {
    /// The elements up to the first object, which tells a markets page from a /coins/list
    /// array; all of them for a /coins/list array (small: ids and names).
    private var pending: [JSONValue] = []
    private var isCoinList = false
    private var markets: MarketsDecoder?
    private var notes = PayloadNotes()

    mutating func add(_ element: JSONValue) {
      if markets != nil {
        // In place: never a copy of the decoder (and its quotes) per element.
        markets?.add(element, notes: &notes)
        return
      }
      pending.append(element)
      guard !isCoinList, element.objectValue != nil else { return }
      if CoinListPayload.isCoinList(pending) {
        isCoinList = true
        return
      }
      var decoder = MarketsDecoder()
      for item in pending { decoder.add(item, notes: &notes) }
      pending = []
      markets = decoder
    }

    /// The document `value` (what the parse returned, with this reader's elements) holds.
    func document(of value: JSONValue, notes: inout PayloadNotes) throws(PayloadError)
      -> CoinGeckoDocument
    {
      guard case .array = value.kind else { return try read(value, notes: &notes) }
      guard let markets else { return try read(.array(pending), notes: &notes) }
      let page = try markets.page()
      notes.warnings += self.notes.warnings
      notes.roundedCount += self.notes.roundedCount
      return .markets(page)
    }
  }

  /// Why an id from a file or the server was refused.
  static let badID =
    "the id is not a CoinGecko coin id (lowercase letters, digits, '-', '_' or '.', at most 100)"

  /// One element of a /coins/markets array; nil when it is skipped (no price, a price not above
  /// zero, a repeated id).
  private static func readQuote(
    _ item: JSONValue, index: Int, seen: inout Set<String>, notes: inout PayloadNotes
  ) throws(PayloadError) -> MarketQuote? {
    guard case .object(let object) = item.kind else {
      throw PayloadError("element \(index) is \(item.kindName), expected a coin object")
    }
    var reader = FieldReader(object: object, context: "element \(index)")
    let id = try reader.requiredString("id")
    reader.context = "coin '\(id)' (element \(index))"
    let symbol = try reader.requiredString(
      "symbol", allowEmpty: true, maxLength: MarketRecords.symbolLimit)
    let name = try reader.requiredString(
      "name", allowEmpty: true, maxLength: MarketRecords.nameLimit)
    guard TradeInput.isCoinID(id) else {
      throw PayloadError("\(reader.context): \(Self.badID)")
    }
    guard !seen.contains(id) else {
      notes.warnings.append("\(reader.context) appears twice; the later one was skipped")
      return nil
    }
    guard let price = try reader.decimal("current_price", notes: &notes) else {
      notes.warnings.append("\(reader.context) has no current_price; skipped")
      return nil
    }
    guard price.isPositive else {
      notes.warnings.append(
        "\(reader.context) has a current_price of \(price), not above zero; skipped")
      return nil
    }
    seen.insert(id)
    var quote = MarketQuote(id: id, symbol: symbol, name: name, currentPrice: price)
    quote.imageURL = try reader.string("image")
    quote.marketCap = try reader.decimal("market_cap", notes: &notes)
    quote.marketCapRank = try reader.integer("market_cap_rank")
    quote.fullyDilutedValuation = try reader.decimal("fully_diluted_valuation", notes: &notes)
    quote.totalVolume = try reader.decimal("total_volume", notes: &notes)
    quote.high24h = try reader.decimal("high_24h", notes: &notes)
    quote.low24h = try reader.decimal("low_24h", notes: &notes)
    quote.priceChange24h = try reader.decimal("price_change_24h", notes: &notes)
    quote.priceChangePercentage24h = try reader.decimal(
      "price_change_percentage_24h", notes: &notes)
    quote.marketCapChange24h = try reader.decimal("market_cap_change_24h", notes: &notes)
    quote.marketCapChangePercentage24h = try reader.decimal(
      "market_cap_change_percentage_24h", notes: &notes)
    quote.circulatingSupply = try reader.decimal("circulating_supply", notes: &notes)
    quote.totalSupply = try reader.decimal("total_supply", notes: &notes)
    quote.maxSupply = try reader.decimal("max_supply", notes: &notes)
    quote.ath = try reader.decimal("ath", notes: &notes)
    quote.athChangePercentage = try reader.decimal("ath_change_percentage", notes: &notes)
    quote.athDate = try reader.time("ath_date", notes: &notes)
    quote.atl = try reader.decimal("atl", notes: &notes)
    quote.atlChangePercentage = try reader.decimal("atl_change_percentage", notes: &notes)
    quote.atlDate = try reader.time("atl_date", notes: &notes)
    quote.lastUpdated = try reader.time("last_updated", notes: &notes)
    quote.priceChangePercentage24hInCurrency = try reader.decimal(
      "price_change_percentage_24h_in_currency", notes: &notes)
    if let roi = try reader.object("roi") {
      let roiReader = FieldReader(object: roi, context: reader.context + " roi")
      quote.roiTimes = try roiReader.decimal("times", notes: &notes)
      quote.roiCurrency = try roiReader.string("currency")
      quote.roiPercentage = try roiReader.decimal("percentage", notes: &notes)
    }
    if let sparkline = try reader.object("sparkline_in_7d") {
      quote.sparkline7d = try readSparkline(sparkline, context: reader.context, notes: &notes)
    }
    return quote
  }

  /// `sparkline_in_7d.price` as the text Folio stores. A number already written as a canonical
  /// decimal goes into the text as it is (most of the 168 of each coin); any other is converted
  /// as every number of a response is, rounded (and counted) or left empty when too large.
  private static func readSparkline(
    _ object: JSONObject, context: String, notes: inout PayloadNotes
  ) throws(PayloadError) -> Sparkline? {
    guard let value = object["price"], !value.isNull else { return nil }
    guard case .array(let points) = value.kind else {
      throw PayloadError(
        "\(context): sparkline_in_7d.price is \(value.kindName), expected an array")
    }
    var sparkline = Sparkline.Builder(capacity: points.count)
    var outOfRange = 0
    for point in points {
      switch point.kind {
      case .null: sparkline.append(nil)
      case .number(let literal):
        if sparkline.append(canonicalLiteral: literal) { continue }
        switch JSONDecimal.convert(literal) {
        case .exact(let value): sparkline.append(value)
        case .rounded(let value):
          notes.roundedCount += 1
          sparkline.append(value)
        case .outOfRange:
          outOfRange += 1
          sparkline.append(nil)
        }
      default:
        throw PayloadError(
          "\(context): sparkline_in_7d.price holds \(point.kindName), expected numbers")
      }
    }
    if outOfRange > 0 {
      notes.warnings.append(
        "\(context): \(outOfRange) sparkline point(s) too large to store; left empty")
    }
    return sparkline.finish()
  }

  static func readGlobal(_ data: JSONObject, notes: inout PayloadNotes) throws(PayloadError)
    -> GlobalData
  {
    let reader = FieldReader(object: data, context: "data")
    var global = GlobalData()
    let caps = try reader.object("total_market_cap") ?? JSONObject()
    let volumes = try reader.object("total_volume") ?? JSONObject()
    var currencies = caps.keys
    for key in volumes.keys where caps[key] == nil { currencies.append(key) }
    let capReader = FieldReader(object: caps, context: "data.total_market_cap")
    let volumeReader = FieldReader(object: volumes, context: "data.total_volume")
    for currency in currencies {
      guard !currency.isEmpty, currency.count <= 20 else { continue }
      let total = GlobalTotal(
        currency: currency,
        marketCap: try capReader.decimal(currency, notes: &notes),
        volume: try volumeReader.decimal(currency, notes: &notes))
      global.totals.append(total)
    }
    if let shares = try reader.object("market_cap_percentage") {
      let shareReader = FieldReader(object: shares, context: "data.market_cap_percentage")
      // At most 100 characters as the table's CHECK counts them (SQLite's `length`: scalars).
      for symbol in shares.keys where !symbol.isEmpty && symbol.unicodeScalars.count <= 100 {
        if let value = try shareReader.decimal(symbol, notes: &notes) {
          global.marketCapPercentages.append(MarketCapShare(symbol: symbol, percentage: value))
        }
      }
    }
    global.marketCapChangePercentage24hUSD = try reader.decimal(
      "market_cap_change_percentage_24h_usd", notes: &notes)
    if let seconds = try reader.integer("updated_at") {
      // Unix seconds from 1970 to the end of 9999; anything else is not a time.
      if (0...253_402_300_799).contains(seconds) {
        global.updatedAt = Timestamp.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
      } else {
        notes.warnings.append("data: updated_at \(seconds) is not a readable time; left empty")
      }
    }
    global.activeCryptocurrencies = try reader.integer("active_cryptocurrencies")
    global.markets = try reader.integer("markets")
    return global
  }

  static func readDetail(_ object: JSONObject, notes: inout PayloadNotes) throws(PayloadError)
    -> CoinDetail
  {
    var reader = FieldReader(object: object, context: "the coin")
    let id = try reader.requiredString("id")
    guard TradeInput.isCoinID(id) else { throw PayloadError("coin '\(id)': \(Self.badID)") }
    reader.context = "coin '\(id)'"
    var detail = CoinDetail(id: id)
    detail.symbol = try reader.string("symbol", maxLength: MarketRecords.symbolLimit)
    detail.name = try reader.string("name", maxLength: MarketRecords.nameLimit)
    switch object["image"]?.kind {
    case .string(let url): detail.imageURL = url
    case .object(let sizes):
      detail.imageURL = (sizes["large"] ?? sizes["small"] ?? sizes["thumb"])?.stringValue
    default: break
    }
    detail.blockTimeInMinutes = try reader.decimal("block_time_in_minutes", notes: &notes)
    detail.hashingAlgorithm = try reader.string("hashing_algorithm").flatMap(nonEmpty)
    if let description = try reader.object("description") {
      let descriptionReader = FieldReader(
        object: description, context: "\(reader.context) description")
      detail.description = try descriptionReader.string("en").map(HTMLText.plain).flatMap(nonEmpty)
    }
    if let links = try reader.object("links") {
      let linkReader = FieldReader(object: links, context: "\(reader.context) links")
      switch links["homepage"]?.kind {
      case .array(let pages):
        detail.homepage = pages.compactMap(\.stringValue).first { !$0.isEmpty }
      case .string(let page):
        detail.homepage = nonEmpty(page)
      case nil, .null: break
      case let other?:
        throw PayloadError(
          "\(reader.context): links.homepage is \(other.name), expected an array of strings")
      }
      detail.subredditURL = try linkReader.string("subreddit_url").flatMap(nonEmpty)
    }
    detail.lastUpdated = try reader.time("last_updated", notes: &notes)
    return detail
  }

  private static func nonEmpty(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
