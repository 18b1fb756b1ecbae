import FolioService

/// `folio tx delete ID`.
struct TxDelete: FolioCommand {
  static let spec = CommandSpec(
    name: "delete",
    abstract: "Delete a trade; refused if any later sell would oversell.",
    arguments: [ArgumentSpec(name: "id", help: "The trade id.")],
    make: { try Self($0) })

  let id: Int64

  init(_ values: ParsedValues) throws { id = try Tx.id(values) }

  func run(_ context: Context) throws {
    let trade = try TradeService(context.store()).delete(id: id, in: context.portfolio())
    context.print(
      "deleted trade #\(trade.id) (\(trade.side.rawValue) \(trade.quantity) \(trade.coinID))")
  }
}
