/// `folio tx`: the recorded trades.
enum Tx: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "tx",
    abstract: "List, show, edit and delete recorded trades.",
    subcommands: [TxList.self, TxShow.self, TxEdit.self, TxDelete.self])
}

/// A trade id argument: a positive whole number.
struct TradeID: ExpressibleByArgument {
  let value: Int64

  init?(argument: String) {
    guard let id = Int64(argument), id > 0 else { return nil }
    value = id
  }

  static let expected = "a positive whole number"

  static func invalid(_ text: String, for name: String) -> String {
    "invalid trade id '\(text)': expected \(expected)"
  }
}
