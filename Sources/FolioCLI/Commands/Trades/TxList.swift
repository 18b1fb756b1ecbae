import FolioService
import FolioStorage

/// `folio tx list`.
struct TxList: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List trades, oldest first.",
    discussion: """
      With --portfolio all, the trades of every portfolio in one time order, each naming its
      portfolio (a PORTFOLIO column; 'portfolio' in JSON and a last CSV column).
      """)

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
    let portfolios = try context.portfolios(oneCurrency: false)
    let several = portfolios.count > 1
    var byID: [Int64: Portfolio] = [:]
    for portfolio in portfolios { byID[portfolio.id] = portfolio }
    func currency(_ trade: Trade) -> String { byID[trade.portfolioID]?.currency ?? "usd" }
    func name(_ trade: Trade) -> String { byID[trade.portfolioID]?.name ?? "" }
    let places = try LocationBook(context.store()).references()
    let each = { (body: (Trade) throws -> Void) in
      try service.eachTrade(in: portfolios, filter: filter) {
        try context.stopIfOutputFailed()
        try body($0)
      }
    }
    switch format {
    case .json:
      var array = JSONArrayWriter(context.out)
      try each {
        let trade = TradeRendering.json($0, location: TradeRendering.location($0, places))
        array.append(several ? trade.appending([("portfolio", .string(name($0)))]) : trade)
      }
      array.finish()
    case .csv:
      context.out.write(CSVWriter.line(TradeRendering.csvHeader + (several ? ["portfolio"] : [])))
      try each {
        let row = TradeRendering.row($0, location: TradeRendering.location($0, places))
        context.out.write(CSVWriter.line(row + (several ? [name($0)] : [])))
      }
    case .text:
      var table = TextTable(
        headers: ["ID", "DATE", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "LOCATION", "NOTE"],
        rightAligned: [0, 4, 5, 6], shortenable: [3: 12, 7: 10, 8: 12], dropOrder: [7, 8, 6, 5, 2])
      if several {
        table = TextTable(
          headers: [
            "ID", "PORTFOLIO", "DATE", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "LOCATION",
            "NOTE",
          ], rightAligned: [0, 5, 6, 7], shortenable: [1: 10, 4: 12, 8: 10, 9: 12],
          dropOrder: [8, 9, 7, 6, 3])
      }
      func cells(_ trade: Trade) -> [String] {
        [String(trade.id)] + (several ? [name(trade)] : []) + [
          trade.executedAt, TradeRendering.label(trade), trade.coinID,
          Formatting.quantity(trade.quantity),
          TradeRendering.price(trade, in: currency(trade)),
          TradeRendering.fee(trade, in: currency(trade)),
          TradeRendering.location(trade, places) ?? "",
          trade.note ?? "",
        ]
      }
      // Measured in one pass and written in a second, in one snapshot: a million trades are
      // never held.
      try service.inOneSnapshot {
        var measure = TextTable.Measure(headers: table.headers)
        var count = 0
        try each {
          measure.add(cells($0))
          count += 1
        }
        guard count > 0 else { return context.out.write("no trades\n") }
        let layout = table.layout(measure, width: context.width)
        context.out.write(layout.header)
        try each { context.out.write(layout.line(cells($0))) }
        context.out.write(layout.footer)
      }
    }
  }
}
