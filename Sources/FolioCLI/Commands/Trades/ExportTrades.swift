import FolioService

/// `folio export trades [--out FILE]`.
struct ExportTrades: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "trades",
    abstract: "Write the portfolio's trades as CSV (the import format), oldest first.",
    portfolioHelp:
      "The portfolio to export, or 'all' for every portfolio in one file, each row naming its "
      + "portfolio in a last column 'portfolio' (transfers between them import in either "
      + "direction).")

  @OptionGroup var output: OutputOption

  func run(_ context: Context) throws {
    let exporter = TradeExporter(try context.store())
    let portfolios = try context.portfolios(oneCurrency: false)
    let file = try output.write(context) { sink in
      try exporter.forEachRow(
        of: portfolios, header: { sink.write(CSVWriter.line($0)) },
        { sink.write(CSVWriter.line($0)) })
    }
    if let file { context.err.write("wrote \(file)\n") }
  }
}
