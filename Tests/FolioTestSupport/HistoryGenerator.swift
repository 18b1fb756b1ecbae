import FolioStorage
import Foundation

/// A deterministic synthetic trade history, written in folio's CSV import format and as the
/// journals of the peers it is compared with (hledger/ledger and beancount), so the tests and
/// the benchmarks can book the same history with each tool.
///
/// Its arithmetic is its own (whole numbers of 10⁻⁸), independent of folio's decimals, so
/// `expected.json` is a second opinion, not folio's answer read back. Sells never exceed what
/// is held at their date, so every peer accepts the history.
public struct HistoryGenerator {
  /// How the rows of `trades.csv` are ordered (the journals are always oldest first).
  public enum Order: String, CaseIterable, Sendable {
    /// Oldest first, as folio exports.
    case oldest
    /// Newest first, as most exchanges export.
    case newest
    /// A seeded shuffle.
    case shuffled
  }

  /// The coins a history draws from: CoinGecko id, symbol, name and starting price.
  public static let coins: [(id: String, symbol: String, name: String, price: String)] = [
    ("bitcoin", "btc", "Bitcoin", "30000"), ("ethereum", "eth", "Ethereum", "2000"),
    ("tether", "usdt", "Tether", "1"), ("binancecoin", "bnb", "BNB", "300"),
    ("solana", "sol", "Solana", "40"), ("ripple", "xrp", "XRP", "0.5"),
    ("usd-coin", "usdc", "USDC", "1"), ("cardano", "ada", "Cardano", "0.4"),
    ("dogecoin", "doge", "Dogecoin", "0.08"), ("tron", "trx", "TRON", "0.1"),
    ("chainlink", "link", "Chainlink", "8"), ("polkadot", "dot", "Polkadot", "6"),
    ("litecoin", "ltc", "Litecoin", "80"), ("shiba-inu", "shib", "Shiba Inu", "0.00001"),
    ("avalanche-2", "avax", "Avalanche", "15"), ("stellar", "xlm", "Stellar", "0.12"),
    ("monero", "xmr", "Monero", "150"), ("uniswap", "uni", "Uniswap", "6"),
    ("cosmos", "atom", "Cosmos Hub", "9"), ("near", "near", "NEAR Protocol", "2"),
  ]

  /// Number of trades.
  public var trades: Int
  /// How many of `coins` are traded (1 to 20).
  public var coinCount = 10
  /// The random seed: the same seed gives the same files.
  public var seed: UInt64 = 7
  /// Whether trades pay a fee of 0.1 % of their value (in cents, rounded down).
  public var fees = true
  /// The order of the CSV rows.
  public var order = Order.oldest
  /// Dollar-cost averaging: every trade is a buy of the first coin, so every lot stays open
  /// (the bot that buys every hour). Buys are an hour apart while they fit in the six years
  /// the history covers (52,560 of them), closer beyond, so that no trade and no market
  /// snapshot is dated after the history's end (`market import` refuses a snapshot from the
  /// future).
  public var dca = false

  public init(trades: Int) { self.trades = trades }

  /// Writes `trades.csv`, `journal.ledger`, `journal.beancount`, `markets.json` and
  /// `expected.json` into `folder`, which must exist.
  public func write(to folder: String) throws {
    var random = SplitMix64(seed: seed)
    let coins = Array(Self.coins.prefix(max(1, min(coinCount, Self.coins.count))))
    var price = coins.map { Units(parsing: $0.price) }
    var held = coins.map { _ in Units(0) }
    let symbol = coins.map { $0.symbol.uppercased() }
    let start: Int64 = 1_546_300_800  // 2019-01-01T00:00:00Z
    let spread = max(1, 6 * 365 * 86_400 / Int64(max(trades, 1)))
    let step: Int64 = dca ? min(3600, spread) : spread
    var time = start

    var rows: [String] = []
    rows.reserveCapacity(trades)
    let ledger = TextFile(folder + "/journal.ledger")
    let beancount = TextFile(folder + "/journal.beancount")
    beancount.append(
      """
      option "operating_currency" "USD"
      option "booking_method" "FIFO"
      2018-01-01 open Assets:Cash USD
      2018-01-01 open Expenses:Fees USD
      2018-01-01 open Income:Gains USD
      2018-01-01 open Equity:Opening

      """)
    for name in symbol { beancount.append("2018-01-01 commodity \(name)\n") }
    beancount.append("2018-01-01 open Assets:Crypto\n")

    for _ in 0..<trades {
      time += step
      let coin = dca ? 0 : Int(random.next() % UInt64(coins.count))
      // A random walk of −2 % to +2.05 % per trade, in millionths; stablecoins stay within
      // 1 % of their dollar.
      // Above 10,000 times its starting price a coin only falls, so a million steps of one
      // coin (hourly DCA) cannot overflow.
      var move = Int128(random.next() % 40_501) - 20_000
      if price[coin].value > Units(parsing: coins[coin].price).value * 10_000 { move = -abs(move) }
      let moved = Units(price[coin].value * (1_000_000 + move) / 1_000_000)
      price[coin] =
        coins[coin].price == "1"
        ? Units(min(max(moved.value, Units.one * 99 / 100), Units.one * 101 / 100))
        : max(Units(1), moved)
      let unitPrice = price[coin]
      var quantity = Units(0)
      var sell = false
      if !dca, held[coin].value > 0, random.next() % 10 < 3 {
        // 5 % to 100 % of what is held.
        let share = Int128(50_000 + random.next() % 950_001)
        quantity = Units(held[coin].value * share / 1_000_000)
        sell = quantity.value > 0
      }
      if !sell {
        let budget = Int128(10 + random.next() % 4_991)  // whole dollars
        quantity = Units(max(1, budget * Units.one * Units.one / unitPrice.value))
      }
      let value = quantity.value * unitPrice.value  // in 10⁻¹⁶
      let fee = fees ? Cents(value / 100_000_000_000_000_000) : Cents(0)  // 0.1 %, in cents
      held[coin] = Units(held[coin].value + (sell ? -quantity.value : quantity.value))

      let day = Self.day(time)
      let name = symbol[coin]
      rows.append(
        "\(Self.timestamp(time)),\(sell ? "sell" : "buy"),\(coins[coin].id),\(quantity),\(unitPrice),\(fee),"
      )
      let side = sell ? "sell" : "buy"
      let signed = sell ? "-\(quantity)" : "\(quantity)"
      ledger.append(
        """
        \(day) \(side) \(name)
            Assets:Crypto  \(signed) \(name) @ $\(unitPrice)
            Expenses:Fees  $\(fee)
            Assets:Cash


        """)
      if sell {
        let cash = Units(value / Units.one - fee.value * 1_000_000)
        beancount.append(
          """
          \(day) * "sell \(name)"
            Assets:Crypto  \(signed) \(name) {} @ \(unitPrice) USD
            Expenses:Fees  \(fee) USD
            Assets:Cash  \(cash) USD
            Income:Gains


          """)
      } else {
        beancount.append(
          """
          \(day) * "buy \(name)"
            Assets:Crypto  \(signed) \(name) {\(unitPrice) USD}
            Expenses:Fees  \(fee) USD
            Assets:Cash


          """)
      }
    }

    let priceDay = Self.day(time + 86_400)
    for index in coins.indices {
      ledger.append("P \(priceDay) \(symbol[index]) $\(price[index])\n")
      beancount.append("\(priceDay) price \(symbol[index]) \(price[index]) USD\n")
    }
    try ledger.close()
    try beancount.close()

    switch order {
    case .oldest: break
    case .newest: rows.reverse()
    case .shuffled: rows.shuffle(using: &random)
    }
    let csv = TextFile(folder + "/trades.csv")
    csv.append("date,side,coin,quantity,price,fee,note\n")
    for row in rows {
      csv.append(row)
      csv.append("\n")
    }
    try csv.close()

    let updated = Self.timestamp(time).replacingOccurrences(of: "Z", with: ".000Z")
    let markets = coins.indices.map { index in
      let coin = coins[index]
      return """
        {"id":"\(coin.id)","symbol":"\(coin.symbol)","name":"\(coin.name)",\
        "image":"https://example.invalid/\(coin.id).png","current_price":\(price[index]),\
        "market_cap":\(price[index].times(1_000_000_000)),"market_cap_rank":\(index + 1),\
        "total_volume":\(price[index].times(10_000_000)),"price_change_percentage_24h":1.5,\
        "price_change_percentage_24h_in_currency":1.5,"last_updated":"\(updated)"}
        """
    }
    let marketsFile = TextFile(folder + "/markets.json")
    marketsFile.append("[" + markets.joined(separator: ",") + "]\n")
    try marketsFile.close()

    // The value at the latest prices, rounded down to the cent.
    let total = coins.indices.reduce(Int128(0)) { $0 + held[$1].value * price[$1].value }
    let holdings = coins.indices.map { "    \"\(coins[$0].id)\": \"\(held[$0])\"" }
    let prices = coins.indices.map { "    \"\(coins[$0].id)\": \"\(price[$0])\"" }
    let expected = TextFile(folder + "/expected.json")
    expected.append(
      """
      {
        "holdings": {
      \(holdings.joined(separator: ",\n"))
        },
        "prices": {
      \(prices.joined(separator: ",\n"))
        },
        "value_usd": "\(Cents(total / 100_000_000_000_000))"
      }

      """)
    try expected.close()
  }

  // MARK: - Dates

  /// `YYYY-MM-DD` of a Unix time (UTC).
  static func day(_ time: Int64) -> String {
    // Days to civil date (H. Hinnant's algorithm, proleptic Gregorian).
    let z = time / 86_400 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * shifted + 2) / 5 + 1
    let month = shifted < 10 ? shifted + 3 : shifted - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return "\(year)-\(Self.two(month))-\(Self.two(dayOfMonth))"
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time.
  static func timestamp(_ time: Int64) -> String {
    let seconds = time % 86_400
    return
      "\(day(time))T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
  }

  private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

// MARK: - Fixed-point numbers

/// A non-negative amount in whole 10⁻⁸, printed with eight decimals.
private struct Units: CustomStringConvertible, Comparable {
  static let one: Int128 = 100_000_000
  var value: Int128

  init(_ value: Int128) { self.value = value }

  /// Parses a plain decimal with at most eight fractional digits.
  init(parsing text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let whole = Int128(parts[0]) ?? 0
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let padded = fraction + String(repeating: "0", count: max(0, 8 - fraction.count))
    value = whole * Self.one + (Int128(padded.prefix(8)) ?? 0)
  }

  /// This amount times a whole number, as text.
  func times(_ factor: Int128) -> Units { Units(value * factor) }

  var description: String { Self.text(value, places: 8) }

  static func < (lhs: Units, rhs: Units) -> Bool { lhs.value < rhs.value }

  /// `value` / 10^places as plain decimal text.
  static func text(_ value: Int128, places: Int) -> String {
    var scale: Int128 = 1
    for _ in 0..<places { scale *= 10 }
    let magnitude = value < 0 ? -value : value
    let fraction = String(magnitude % scale)
    let padded = String(repeating: "0", count: places - fraction.count) + fraction
    return (value < 0 ? "-" : "") + "\(magnitude / scale).\(padded)"
  }
}

/// An amount in whole cents, printed with two decimals.
private struct Cents: CustomStringConvertible {
  var value: Int128
  init(_ value: Int128) { self.value = value }
  var description: String { Units.text(value, places: 2) }
}

/// A text file written through a buffer: the generator writes a million rows.
private final class TextFile {
  let path: String
  var buffer: [UInt8] = []
  var failure: Error?
  let handle: FileHandle?

  init(_ path: String) {
    self.path = path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    handle = FileHandle(forWritingAtPath: path)
    buffer.reserveCapacity(1 << 20)
  }

  func append(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 20 { flush() }
  }

  private func flush() {
    guard failure == nil else { return }
    do {
      guard let handle else { throw CocoaError(.fileWriteUnknown, userInfo: ["path": path]) }
      try handle.write(contentsOf: buffer)
    } catch {
      failure = error
    }
    buffer.removeAll(keepingCapacity: true)
  }

  func close() throws {
    flush()
    try handle?.close()
    if let failure { throw failure }
  }
}
