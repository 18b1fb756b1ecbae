import FolioService
import FolioStorage
import Foundation

/// `folio export trades [--out FILE]`.
struct ExportTrades: FolioCommand {
  static let spec = CommandSpec(
    name: "trades",
    abstract: "Write the portfolio's trades as CSV (the import format), oldest first.",
    options: [.value("out", "file", help: "Write to this file instead of standard output.")],
    make: { try Self($0) })

  let out: String?

  init(_ values: ParsedValues) throws { out = values.value("out") }

  func run(_ context: Context) throws {
    let exporter = TradeExporter(try context.store())
    let portfolio = try context.portfolio()
    guard let out else {
      context.out.write(CSVWriter.line(TradeExporter.header))
      try exporter.forEachRow(of: portfolio) { context.out.write(CSVWriter.line($0)) }
      return
    }
    try context.writeOutput(to: out) { sink in
      sink.write(CSVWriter.line(TradeExporter.header))
      try exporter.forEachRow(of: portfolio) { sink.write(CSVWriter.line($0)) }
    }
    context.err.write("wrote \(FolioCLI.visible(out))\n")
  }
}
