import FolioService

/// `folio export trades [--out FILE]`.
struct ExportTrades: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "trades",
    abstract: "Write the portfolio's trades as CSV (the import format), oldest first.",
    discussion: """
      The file holds the text of notes, ids and locations exactly as stored, so importing it
      again restores every trade. A note beginning with =, +, - or @ (as exchange files hold)
      is a formula to a spreadsheet that opens the file: --spreadsheet-safe writes such cells
      with a leading ' instead, for opening in a spreadsheet (that file no longer imports back
      exactly).
      """,
    portfolioHelp:
      "The portfolio to export, or 'all' for every portfolio in one file, each row naming its "
      + "portfolio in a last column 'portfolio' (transfers between them import in either "
      + "direction).")

  @OptionGroup var output: OutputOption
  @Flag(help: "Write cells a spreadsheet would run as formulas with a leading ' (not exact).")
  var spreadsheetSafe: Bool

  func run(_ context: Context) throws {
    let exporter = TradeExporter(try context.store())
    let portfolios = try context.portfolios(oneCurrency: false)
    let file = try output.write(context) { sink in
      try exporter.forEachRow(
        of: portfolios, header: { sink.write(CSVWriter.line($0)) },
        { sink.write(CSVWriter.line($0, spreadsheetSafe: spreadsheetSafe)) })
    }
    if let file { context.err.write("wrote \(file)\n") }
  }
}
