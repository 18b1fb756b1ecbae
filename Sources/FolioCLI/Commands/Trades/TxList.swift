import FolioService
import FolioStorage

/// `folio tx list`.
struct TxList: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List trades, oldest first.")

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(valueName: "id", help: "Only this coin.") var coin: String?
  @Option(help: "Only buys or only sells.") var side: TradeSide?
  @Option(valueName: "date", help: "Only trades at or after this date.") var since: String?
  @Option(valueName: "date", help: "Only trades up to this date (a whole day is included).")
  var until: String?
  @Option(help: "At most this many trades (the oldest).") var limit: Limit?
  @Option(help: "Only the newest N trades (still listed oldest first).") var last: Limit?
  @Option(valueName: "id|\"name, city\"", help: "Only trades made at this location.")
  var location: String?
  @Option var format = Format.text

  func validate() throws {
    if limit != nil && last != nil {
      throw ValidationError("give --limit (the oldest trades) or --last (the newest), not both")
    }
  }

  func run(_ context: Context) throws {
    let service = try TradeService(context.store())
    let filter = try service.filter(
      TradeQuery(
        coin: coin, side: side, since: since, until: until, limit: limit?.value,
        last: last?.value, location: location))
    let portfolio = try context.portfolio()
    let places = try LocationBook(context.store()).references()
    switch format {
    case .json:
      var items: [JSONValue] = []
      try service.eachTrade(in: portfolio, filter: filter) {
        items.append(TradeRendering.json($0, location: TradeRendering.location($0, places)))
      }
      context.print(JSONValue.array(items).rendered())
    case .csv:
      context.out.write(CSVWriter.line(TradeRendering.csvHeader))
      try service.eachTrade(in: portfolio, filter: filter) {
        context.out.write(
          CSVWriter.line(TradeRendering.row($0, location: TradeRendering.location($0, places))))
      }
    case .text:
      var table = TextTable(
        headers: ["ID", "DATE", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "LOCATION", "NOTE"],
        rightAligned: [0, 4, 5, 6], shortenable: [3: 12, 7: 10, 8: 12], dropOrder: [7, 8, 6, 5, 2])
      try service.eachTrade(in: portfolio, filter: filter) { trade in
        table.rows.append([
          String(trade.id), trade.executedAt, TradeRendering.label(trade), trade.coinID,
          Formatting.quantity(trade.quantity),
          TradeRendering.price(trade, in: portfolio.currency),
          TradeRendering.fee(trade, in: portfolio.currency),
          TradeRendering.location(trade, places) ?? "",
          trade.note ?? "",
        ])
      }
      context.out.write(table.rows.isEmpty ? "no trades\n" : table.rendered(width: context.width))
    }
  }
}
