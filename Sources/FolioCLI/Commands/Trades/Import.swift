/// `folio import`: bring data in from files.
enum Import: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "import", abstract: "Import trades from a CSV file or an exchange's export.",
    subcommands: [ImportTrades.self, ImportExchange.self])
}
