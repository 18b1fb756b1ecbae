/// `folio tx`: the recorded trades.
enum Tx {
  static let spec = CommandSpec(
    name: "tx",
    abstract: "List, show, edit and delete recorded trades.",
    subcommands: [TxList.spec, TxShow.spec, TxEdit.spec, TxDelete.spec])

  /// Parses a trade id argument.
  static func id(_ values: ParsedValues) throws -> Int64 {
    let text = values.argument(0)
    guard let id = Int64(text), id > 0 else {
      throw UsageError(
        "invalid trade id '\(text)': expected a positive whole number", commandPath: values.path)
    }
    return id
  }
}
