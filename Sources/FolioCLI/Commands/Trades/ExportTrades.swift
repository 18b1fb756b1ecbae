import FolioService

/// `folio export trades [--out FILE]`.
struct ExportTrades: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "trades",
    abstract: "Write the portfolio's trades as CSV (the import format), oldest first.")

  @OptionGroup var output: OutputOption

  func run(_ context: Context) throws {
    let exporter = TradeExporter(try context.store())
    let portfolio = try context.portfolio()
    let file = try output.write(context) { sink in
      try exporter.forEachRow(
        of: portfolio, header: { sink.write(CSVWriter.line($0)) },
        { sink.write(CSVWriter.line($0)) })
    }
    if let file { context.err.write("wrote \(file)\n") }
  }
}
