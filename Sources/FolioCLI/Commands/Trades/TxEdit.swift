import FolioService

/// `folio tx edit ID`.
struct TxEdit: FolioCommand {
  static let spec = CommandSpec(
    name: "edit",
    abstract: "Change fields of a trade; refused if any later sell would oversell.",
    arguments: [ArgumentSpec(name: "id", help: "The trade id.")],
    options: [
      .value("quantity", "quantity", help: "New quantity."),
      .value("price", "price", help: "New price per unit."),
      .value("fee", "fee", help: "New fee."),
      .value("date", "date", help: "New date."),
      .value("note", "text", help: "New note (an empty text removes it)."),
      OutputFormat.option([.text, .json]),
    ],
    make: { try Self($0) })

  let id: Int64
  let changes: TradeChanges
  let format: OutputFormat

  init(_ values: ParsedValues) throws {
    id = try Tx.id(values)
    changes = TradeChanges(
      quantity: values.value("quantity"), price: values.value("price"), fee: values.value("fee"),
      date: values.value("date"), note: values.value("note"))
    format = try OutputFormat.parse(values, allowed: [.text, .json])
  }

  func run(_ context: Context) throws {
    let trade = try TradeService(context.store()).edit(id: id, changes, in: context.portfolio())
    if format == .json {
      context.print(TradeRendering.json(trade).rendered())
    } else {
      context.print("updated trade #\(trade.id)")
    }
  }
}
