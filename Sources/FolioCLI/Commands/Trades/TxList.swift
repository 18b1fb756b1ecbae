import FolioService
import FolioStorage

/// `folio tx list`.
struct TxList: FolioCommand {
  static let spec = CommandSpec(
    name: "list",
    abstract: "List trades, oldest first.",
    options: [
      .value("coin", "id", help: "Only this coin."),
      .value("side", "buy|sell", help: "Only buys or only sells."),
      .value("since", "date", help: "Only trades at or after this date."),
      .value("until", "date", help: "Only trades up to this date (a whole day is included)."),
      .value("limit", "n", help: "At most this many trades."),
      .value("location", "id|\"name, city\"", help: "Only trades made at this location."),
      OutputFormat.option([.text, .json, .csv]),
    ],
    make: { try Self($0) })

  let coin: String?
  let side: TradeSide?
  let since: String?
  let until: String?
  let limit: Int?
  let location: String?
  let format: OutputFormat

  init(_ values: ParsedValues) throws {
    coin = values.value("coin")
    side = try values.value("side", expected: "buy or sell") { TradeSide(rawValue: $0) }
    since = values.value("since")
    until = values.value("until")
    limit = try values.value("limit", expected: "a positive whole number") {
      Int($0).flatMap { $0 > 0 ? $0 : nil }
    }
    location = values.value("location")
    format = try OutputFormat.parse(values, allowed: [.text, .json, .csv])
  }

  func run(_ context: Context) throws {
    let service = try TradeService(context.store())
    let filter = try service.filter(
      TradeQuery(
        coin: coin, side: side, since: since, until: until, limit: limit, location: location))
    let portfolio = try context.portfolio()
    switch format {
    case .json:
      var items: [JSONValue] = []
      try service.eachTrade(in: portfolio, filter: filter) { items.append(TradeRendering.json($0)) }
      context.print(JSONValue.array(items).rendered())
    case .csv:
      context.out.write(CSVWriter.line(TradeRendering.csvHeader))
      try service.eachTrade(in: portfolio, filter: filter) {
        context.out.write(CSVWriter.line(TradeRendering.row($0)))
      }
    default:
      var table = TextTable(
        headers: ["ID", "DATE", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "NOTE"],
        rightAligned: [0, 4, 5, 6])
      try service.eachTrade(in: portfolio, filter: filter) { trade in
        table.rows.append([
          String(trade.id), trade.executedAt, trade.side.rawValue, trade.coinID,
          Formatting.quantity(trade.quantity), Formatting.money(trade.price),
          Formatting.money(trade.fee), trade.note ?? "",
        ])
      }
      context.out.write(table.rendered())
    }
  }
}
