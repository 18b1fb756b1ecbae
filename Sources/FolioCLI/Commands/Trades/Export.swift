/// `folio export`: write data out to files.
enum Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "export", abstract: "Export trades as CSV in the import format.",
    subcommands: [ExportTrades.self])
}
