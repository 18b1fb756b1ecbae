import FolioStorage
import Foundation

/// What `folio import exchange` did, or with `--dry-run` would do.
public struct ExchangeImportReport: Sendable, Equatable {
  public let exchange: ExchangeFormat
  /// Data rows of the export (the lines before and the header not counted).
  public let rows: Int
  /// The rows of folio's format the export maps onto, in the order they are booked.
  public let planned: [PlannedRow]
  /// Trades written (or that would be written).
  public let imported: Int
  /// Rows whose id the portfolio already holds: imported before.
  public let skipped: Int
  /// Events that moved only cash (fiat in and out, fiat conversions): nothing to store.
  public let cashEvents: Int
  /// Trades against another fiat currency than the portfolio's, by currency (`EUR`), booked
  /// as buys and sells at the coin's market value: folio holds no fiat currency.
  public let otherFiatTrades: [String: Int]
  /// Rows moving assets between the exchange's own accounts (or pending copies): nothing to
  /// store.
  public let internalRows: Int
  /// Rows repeating an earlier row of the file (its id and fields): left out.
  public let duplicateRows: Int
  /// Rows of operations folio does not know, skipped with `--skip-unknown`.
  public let unknownSkipped: Int
  public let dryRun: Bool
  /// Notes for the user, such as the coin chosen for a symbol of several coins.
  public let notes: [String]
}

/// An export `folio import exchange` refused before looking at its rows' meaning.
public enum ExchangeImportError: LocalizedError, ClassifiedError, Equatable, ListedProblems {
  /// No header of a known export in the first lines.
  case unrecognised(source: String)
  /// Nothing at all: no header, no rows (an empty file, /dev/null).
  case empty(source: String)
  /// Problems of which some are prices not cached, and the one command that fetches them all.
  case missingPrices(ImportError, fetch: String)
  /// `--exchange` names another export than the file is.
  case otherExchange(source: String, named: ExchangeFormat, found: ExchangeFormat?)
  /// Rows of operations folio does not know, each `FILE:LINE: operation`, and how many.
  case unknownOperations(listed: [String], total: Int)

  public var kind: FailureKind { .badData }

  public var messageLines: [String] {
    switch self {
    case .unrecognised(let source):
      return [
        "\(source): not an export folio knows: no Coinbase, Kraken or Binance header in its "
          + "first \(ExchangeImporter.headerSearch) lines (docs/import.md names the exports)"
      ]
    case .missingPrices(let refused, let fetch):
      return refused.messageLines + ["fetch every missing price at once with '\(fetch)'"]
    case .empty(let source):
      return [
        "\(source): is empty: an export starts with a Coinbase, Kraken or Binance header "
          + "(docs/import.md names the exports)"
      ]
    case .otherExchange(let source, let named, let found):
      return [
        "\(source): no \(named.rawValue) header in its first \(ExchangeImporter.headerSearch) "
          + "lines"
          + (found.map { "; it looks like a \($0.rawValue) export (--exchange \($0.rawValue))" }
            ?? "")
      ]
    case .unknownOperations(let listed, let total):
      let more = total - listed.count
      return [
        "nothing was imported: \(total) row(s) of operations folio does not know "
          + "(--skip-unknown imports the other rows and counts these)"
      ] + listed + (more > 0 ? ["… and \(more) more"] : [])
    }
  }

  public var errorDescription: String? { messageLines.joined(separator: "\n") }
}

/// An export read and checked by `ExchangeImporter.read`, ready to be mapped and stored.
public struct ExchangeExport {
  public let format: ExchangeFormat
  let headerLine: Int
  let source: String
  let parsed: ParsedExport
}

/// The planned rows as records of folio's import format, made one at a time as the importer
/// reads them (the header first, on the export's header line).
final class PlannedRecords: ImportRecordSource {
  private let rows: [PlannedRow]
  private let headerLine: Int
  private var position = -1
  var bytesRead: Int { 0 }

  init(_ rows: [PlannedRow], headerLine: Int) {
    self.rows = rows
    self.headerLine = headerLine
  }

  func next() throws -> CSVRecord? {
    defer { position += 1 }
    if position < 0 { return CSVRecord(fields: PlannedRow.header, line: headerLine) }
    guard position < rows.count else { return nil }
    return CSVRecord(fields: rows[position].fields, line: rows[position].line)
  }
}

/// `folio import exchange`: reads an exchange's export, maps its rows onto folio's kinds
/// (`ExchangePlanner`) and stores them through the one import path (`TradeImporter`), in one
/// transaction, with the exchange's ids (or ids made from the rows where it gives none) as
/// the trades' external ids, so importing again adds nothing.
public struct ExchangeImporter {
  /// How many records are searched for the header (Coinbase writes a few lines first).
  static let headerSearch = 10

  let store: Store

  public init(_ store: Store) { self.store = store }

  /// Reads and checks an export (no database needed): its format, from the header among the
  /// first `headerSearch` records, and its events. A file without a known header is refused
  /// after those records, without reading the rest; the rows are read one at a time (only
  /// their events are kept). A problem in any row, or an unknown operation without
  /// `skipUnknown`, refuses it.
  public static func read(
    from reader: CSVReader, source: String, exchange: ExchangeFormat?, skipUnknown: Bool
  ) throws -> ExchangeExport {
    var searched: [CSVRecord] = []
    while searched.count < headerSearch, let record = try reader.next() {
      searched.append(record)
    }
    if searched.allSatisfy(\.isBlank) && searched.count < headerSearch {
      throw ExchangeImportError.empty(source: source)
    }
    func headerIndex(_ format: ExchangeFormat) -> Int? {
      searched.firstIndex { format.isHeader($0.fields) }
    }
    let found = ExchangeFormat.allCases.compactMap { format in
      headerIndex(format).map { (format, $0) }
    }
    .min { $0.1 < $1.1 }
    let format: ExchangeFormat
    let index: Int
    if let exchange {
      guard let at = headerIndex(exchange) else {
        throw ExchangeImportError.otherExchange(source: source, named: exchange, found: found?.0)
      }
      (format, index) = (exchange, at)
    } else {
      guard let found else { throw ExchangeImportError.unrecognised(source: source) }
      (format, index) = found
    }
    let header = searched[index]
    // The records searched after the header, then the rest of the file.
    var pending = searched[(index + 1)...]
    let next: () throws -> CSVRecord? = {
      if let record = pending.popFirst() { return record }
      return try reader.next()
    }
    var parsed =
      switch format {
      case .coinbase: try CoinbaseHistory.parse(next, header: header, source: source)
      case .kraken: try KrakenLedger.parse(next, header: header, source: source)
      case .binance: try BinanceStatement.parse(next, header: header, source: source)
      }
    if !parsed.problems.isEmpty {
      throw ImportError(
        problems: Array(parsed.problems.prefix(ImportError.limit)), total: parsed.problems.count)
    }
    if !parsed.unknown.isEmpty && !skipUnknown {
      throw ExchangeImportError.unknownOperations(
        listed: parsed.unknown.prefix(ImportError.limit).map {
          "\(source):\($0.line): \($0.operation)"
        },
        total: parsed.unknown.count)
    }
    parsed.order()
    return ExchangeExport(format: format, headerLine: header.line, source: source, parsed: parsed)
  }

  /// Maps `export`'s events onto folio's kinds and stores them in `portfolio` (or with
  /// `dryRun` only says what would be stored).
  public func importExport(
    _ export: ExchangeExport, into portfolio: Portfolio, dryRun: Bool, allowFuture: Bool,
    now: Date
  ) throws -> ExchangeImportReport {
    let format = export.format
    let source = export.source
    let parsed = export.parsed
    let current = try Portfolio.current(portfolio, store.database)
    var planner = ExchangePlanner(
      store: store, currency: current.currency, exchange: format, source: source)
    // An event whose rows the portfolio holds was imported before: its rows are counted as
    // skipped without being mapped again (so the prices it needed need not be cached still).
    var stored = 0
    var planned: [PlannedRow] = []
    for event in parsed.events {
      let count = try Trade.countExternalIDs(
        derivedFrom: event.id, portfolioID: current.id, store.database)
      if count > 0 {
        stored += count
      } else {
        planned += planner.plan(event)
      }
    }
    if !planner.problems.isEmpty {
      let refused = ImportError(
        problems: Array(planner.problems.prefix(ImportError.limit)),
        total: planner.problems.count)
      if let fetch = planner.fetchMissing {
        throw ExchangeImportError.missingPrices(refused, fetch: fetch)
      }
      throw refused
    }
    let report = try TradeImporter(store).importRecords(
      from: PlannedRecords(planned, headerLine: export.headerLine), source: source, into: current,
      dryRun: dryRun,
      allowFuture: allowFuture, newestFirst: false, now: now)
    return ExchangeImportReport(
      exchange: format, rows: parsed.rows, planned: planned, imported: report.imported,
      skipped: report.skipped + stored, cashEvents: planner.cashEvents,
      otherFiatTrades: planner.otherFiatTrades,
      internalRows: parsed.internalRows, duplicateRows: parsed.duplicateRows,
      unknownSkipped: parsed.unknown.count, dryRun: dryRun, notes: planner.notes + report.notes)
  }
}
