import FolioService
import FolioStorage

/// `folio buy`.
typealias Buy = TradeCommand<Bought>
/// `folio sell`.
typealias Sell = TradeCommand<Sold>

/// The side a `TradeCommand` records.
protocol TradeDirection: Sendable {
  static var side: TradeSide { get }
  static var verb: String { get }
}

enum Bought: TradeDirection {
  static let side = TradeSide.buy
  static let verb = "bought"
}

enum Sold: TradeDirection {
  static let side = TradeSide.sell
  static let verb = "sold"
}

/// `folio buy|sell COIN QUANTITY --price PRICE`: what `buy` and `sell` share.
struct TradeCommand<Kind: TradeDirection>: FolioCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: Kind.side.rawValue,
      abstract: "Record a \(Kind.side.rawValue).",
      discussion: """
        COIN is a CoinGecko id such as 'bitcoin' or a symbol such as 'btc' (the coin of the best
        market-cap rank with it; a note says which when several coins share it). A coin the
        coin directory does not know is refused with the closest ones, unless --new-coin is given.
        Prices and fees are in the portfolio's currency;
        a buy's fee adds to its cost basis, a sell's fee reduces its proceeds. Prints the new trade's id.
        A --date more than a day in the future is refused unless --allow-future is given.
        """, createsDatabase: true)
  }

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "The CoinGecko coin id or symbol.") var coin: String
  @Argument(help: "How many units were \(Kind.verb) (a plain decimal).") var quantity: String
  @Option(help: "Price per unit (required).") var price: String
  @Option(help: "Fee paid (default: 0).") var fee: String?
  @Option(help: "YYYY-MM-DD or ISO-8601 with offset (default: now).") var date: String?
  @Flag(help: "Accept a --date more than a day in the future.") var allowFuture: Bool
  @Option(valueName: "text", help: "A free-text note.") var note: String?
  @Option(
    name: "id", valueName: "external-id",
    help: "Your own id for the trade, unique in the portfolio.")
  var externalID: String?
  @Option(valueName: "id|\"name, city\"", help: "Where the trade happened (a location record).")
  var location: String?
  @OptionGroup var newCoin: NewCoinOption
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let draft = TradeDraft(
      side: Kind.side, coin: coin, quantity: quantity, price: price, fee: fee, date: date,
      note: note, externalID: externalID)
    let trade = try TradeService(context.store()).record(
      draft, location: location, in: context.portfolio(), now: context.now,
      allowFuture: allowFuture, newCoin: newCoin.newCoin, note: context.note)
    switch format {
    case .json: context.print(try TradeRendering.json(trade, context).rendered())
    case .text: context.print(String(trade.id))
    }
  }
}

/// Shared rendering of trades. `location` is the `"NAME, CITY"` of the trade's location.
enum TradeRendering {
  static let csvHeader = [
    "id", "date", "side", "coin", "quantity", "price", "fee", "note", "location",
  ]

  static func json(_ trade: Trade) -> JSONValue {
    let base = JSONValue.object([
      ("id", .int(trade.id)), ("date", .string(trade.executedAt)),
      ("side", .string(trade.side.rawValue)), ("coin", .string(trade.coinID)),
      ("quantity", .decimal(trade.quantity)), ("price", .decimal(trade.price)),
      ("fee", .decimal(trade.fee)), ("note", .string(trade.note)),
      ("external_id", .string(trade.externalID)), ("location_id", .int(trade.locationID)),
    ])
    // A buy or sell for cash keeps the keys it always had; the other kinds say what they are.
    guard trade.kind != .trade else { return base }
    return base.appending([
      ("kind", .string(trade.kind.rawValue)), ("income_type", .string(trade.incomeType?.rawValue)),
      ("amount", trade.amount.map { .decimal($0) } ?? .null),
      ("acquired_at", .string(trade.acquiredAt)), ("link_id", .int(trade.linkID)),
    ])
  }

  /// What the row is, in one word for tables: `buy` or `sell` for cash, else the kind with
  /// its direction (`transfer-in`, `swap-out`, `income:staking`, `deposit`, `withdrawal`).
  static func label(_ trade: Trade) -> String {
    switch trade.kind {
    case .trade: return trade.side.rawValue
    case .transfer, .swap:
      return trade.kind.rawValue + (trade.side == .buy ? "-in" : "-out")
    case .income: return "income:" + (trade.incomeType?.rawValue ?? "other")
    case .deposit, .withdrawal: return trade.kind.rawValue
    }
  }

  /// The price as `tx list` and `tx show` write it: the market price of a row that has one
  /// (`TradeKind.hasPrice`); `cost $X` per unit (its cost ÷ its quantity) on a deposit or an
  /// arriving transfer piece, which enter at a cost, not a price; `none` on a withdrawal or a
  /// transfer's leaving row, which carry neither. `digits` as `Formatting.money` takes them.
  static func price(
    _ trade: Trade, _ digits: Formatting.Digits = .ledger, in currency: String
  ) -> String {
    if trade.kind.hasPrice { return Formatting.money(trade.price, digits, in: currency) }
    guard trade.side == .buy, let cost = trade.amount,
      let perUnit = try? ExactDecimal.scaled(cost, by: .one, dividedBy: trade.quantity)
    else { return "none" }
    return "cost " + Formatting.money(perUnit, digits, in: currency)
  }

  /// The fee as shown in tables: money, or units of the coin on a transfer or a swap.
  static func fee(_ trade: Trade, in currency: String) -> String {
    trade.kind == .transfer || trade.kind == .swap
      ? Formatting.quantity(trade.fee) : Formatting.money(trade.fee, in: currency)
  }

  /// The trade as JSON followed by its location's `"NAME, CITY"` (null without one), as
  /// `tx list`, `tx show`, `tx edit` and the report's trades give it.
  static func json(_ trade: Trade, location: String?) -> JSONValue {
    json(trade).appending([("location", .string(location))])
  }

  static func row(_ trade: Trade, location: String?) -> [String] {
    [
      String(trade.id), trade.executedAt, label(trade), trade.coinID,
      trade.quantity.description, trade.price.description, trade.fee.description,
      trade.note ?? "", location ?? "",
    ]
  }

  /// `json(_:location:)` for one trade, its location read from the database.
  static func json(_ trade: Trade, _ context: Context) throws -> JSONValue {
    let places = trade.locationID == nil ? [:] : try LocationBook(context.store()).references()
    return json(trade, location: location(trade, places))
  }

  /// The location `"NAME, CITY"` of the trade, from `LocationBook.references()`.
  static func location(_ trade: Trade, _ references: [Int64: String]) -> String? {
    trade.locationID.map { references[$0] ?? "#\($0)" }
  }
}
