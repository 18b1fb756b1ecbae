import FolioService

/// `folio tx edit ID`.
struct TxEdit: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "edit", abstract: "Change fields of a trade; refused if any later sell would oversell.")

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "The trade id.") var id: TradeID
  @Option(help: "New quantity.") var quantity: String?
  @Option(help: "New price per unit.") var price: String?
  @Option(help: "New fee.") var fee: String?
  @Option(help: "New date.") var date: String?
  @Flag(help: "Accept a --date more than a day in the future.") var allowFuture: Bool
  @Option(valueName: "text", help: "New note (an empty text removes it).") var note: String?
  @Option(valueName: "id|\"name, city\"", help: "Where the trade happened (a location record).")
  var location: String?
  @Flag(help: "Remove the trade's location.") var noLocation: Bool
  @Option(
    valueName: "coin",
    help: "Another coin (id or symbol): moves the trade, both positions are recomputed.")
  var coin: String?
  @OptionGroup var newCoin: NewCoinOption
  @Option var format = Format.text

  func validate() throws {
    if location != nil && noLocation {
      throw ValidationError("give either --location or --no-location, not both")
    }
    if newCoin.newCoin && coin == nil {
      throw ValidationError("--new-coin goes with --coin")
    }
  }

  func run(_ context: Context) throws {
    var changes = TradeChanges(
      quantity: quantity, price: price, fee: fee, date: date, note: note, location: location,
      removeLocation: noLocation, allowFuture: allowFuture)
    changes.coin = coin
    changes.newCoin = newCoin.newCoin
    let trade = try TradeService(context.store()).edit(
      id: id.value, changes, in: context.portfolio(), now: context.now, note: context.note)
    switch format {
    case .json: context.print(try TradeRendering.json(trade, context).rendered())
    case .text: context.print("updated trade #\(trade.id)")
    }
  }
}
