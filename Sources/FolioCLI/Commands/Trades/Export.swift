/// `folio export`: write data out to files.
enum Export {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Export trades as CSV in the import format.",
    subcommands: [ExportTrades.spec])
}
