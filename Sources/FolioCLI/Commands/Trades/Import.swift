/// `folio import`: bring data in from files.
enum Import {
  static let spec = CommandSpec(
    name: "import",
    abstract: "Import trades from a CSV file.",
    subcommands: [ImportTrades.spec])
}
