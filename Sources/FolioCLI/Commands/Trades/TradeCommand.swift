import FolioService
import FolioStorage

/// What `buy` and `sell` share: options, validation and output.
struct TradeCommand: FolioCommand {
  var createsDatabase: Bool { true }

  static func spec(for side: TradeSide) -> CommandSpec {
    let verb = side == .buy ? "bought" : "sold"
    return CommandSpec(
      name: side.rawValue,
      abstract: "Record a \(side.rawValue).",
      discussion: """
        COIN is a CoinGecko id such as 'bitcoin'. Prices and fees are in the portfolio's currency;
        a buy's fee adds to its cost basis, a sell's fee reduces its proceeds. Prints the new trade's id.
        """,
      arguments: [
        ArgumentSpec(name: "coin", help: "The CoinGecko coin id."),
        ArgumentSpec(name: "quantity", help: "How many units were \(verb) (a plain decimal)."),
      ],
      options: [
        .value("price", "price", help: "Price per unit (required)."),
        .value("fee", "fee", help: "Fee paid (default: 0)."),
        .value("date", "date", help: "YYYY-MM-DD or ISO-8601 with offset (default: now)."),
        .value("note", "text", help: "A free-text note."),
        .value("id", "external-id", help: "Your own id for the trade, unique in the portfolio."),
        .value(
          "location", "id|\"name, city\"", help: "Where the trade happened (a location record)."),
        OutputFormat.option([.text, .json]),
      ],
      make: { try TradeCommand($0, side: side) })
  }

  let draft: TradeDraft
  let location: String?
  let format: OutputFormat

  init(_ values: ParsedValues, side: TradeSide) throws {
    guard let price = values.value("price") else {
      throw UsageError("missing --price", commandPath: values.path)
    }
    draft = TradeDraft(
      side: side, coin: values.argument(0), quantity: values.argument(1), price: price,
      fee: values.value("fee"), date: values.value("date"), note: values.value("note"),
      externalID: values.value("id"))
    location = values.value("location")
    format = try OutputFormat.parse(values, allowed: [.text, .json])
  }

  func run(_ context: Context) throws {
    let trade = try TradeService(context.store()).record(
      draft, location: location, in: context.portfolio(), now: context.now)
    if format == .json {
      context.print(TradeRendering.json(trade).rendered())
    } else {
      context.print(String(trade.id))
    }
  }
}

/// Shared rendering of trades.
enum TradeRendering {
  static let csvHeader = ["id", "date", "side", "coin", "quantity", "price", "fee", "note"]

  static func json(_ trade: Trade) -> JSONValue {
    .object([
      ("id", .int(trade.id)), ("date", .string(trade.executedAt)),
      ("side", .string(trade.side.rawValue)), ("coin", .string(trade.coinID)),
      ("quantity", .decimal(trade.quantity)), ("price", .decimal(trade.price)),
      ("fee", .decimal(trade.fee)), ("note", .string(trade.note)),
      ("external_id", .string(trade.externalID)), ("location_id", .int(trade.locationID)),
    ])
  }

  static func row(_ trade: Trade) -> [String] {
    [
      String(trade.id), trade.executedAt, trade.side.rawValue, trade.coinID,
      trade.quantity.description, trade.price.description, trade.fee.description,
      trade.note ?? "",
    ]
  }
}
