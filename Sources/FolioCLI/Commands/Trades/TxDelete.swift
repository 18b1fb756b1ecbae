import FolioService

/// `folio tx delete ID`.
struct TxDelete: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete a trade; refused if any later sell would oversell.")

  @Argument(help: "The trade id.") var id: TradeID

  func run(_ context: Context) throws {
    let trade = try TradeService(context.store()).delete(id: id.value, in: context.portfolio())
    context.print(
      "deleted trade #\(trade.id) (\(trade.side.rawValue) \(trade.quantity) \(trade.coinID))")
  }
}
