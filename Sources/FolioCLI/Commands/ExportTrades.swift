import FolioService
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
    try AtomicFile.write(to: out) { sink in
      sink.write(CSVWriter.line(TradeExporter.header))
      try exporter.forEachRow(of: portfolio) { sink.write(CSVWriter.line($0)) }
    }
    context.err.write("wrote \(out)\n")
  }
}

/// Writes a file through a temporary sibling renamed into place, so readers never see half a file.
enum AtomicFile {
  static func write(to path: String, _ body: (TextSink) throws -> Void) throws {
    let temporary = path + ".tmp-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary)
    else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    let sink = FileSink(handle)
    do {
      try body(sink)
      sink.flush()
      try handle.synchronize()
      try handle.close()
      if FileManager.default.fileExists(atPath: path) {
        _ = try FileManager.default.replaceItemAt(
          URL(fileURLWithPath: path), withItemAt: URL(fileURLWithPath: temporary))
      } else {
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
      }
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
  }
}
