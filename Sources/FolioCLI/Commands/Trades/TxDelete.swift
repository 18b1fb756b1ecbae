import FolioService
import FolioStorage

/// `folio tx delete ID`.
struct TxDelete: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete a trade; refused if any later sell would oversell.")

  @Argument(help: "The trade id.") var id: TradeID

  func run(_ context: Context) throws {
    var others: [Trade] = []
    let trade = try TradeService(context.store()).delete(
      id: id.value, in: context.portfolio(), deletedWith: { others = $0 })
    for row in [trade] + others {
      context.print(
        "deleted trade #\(row.id) (\(TradeRendering.label(row)) \(row.quantity) \(row.coinID))")
    }
  }
}
