import FolioService
import FolioStorage
import Foundation

/// `folio import exchange FILE|-`.
struct ImportExchange: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "exchange",
    abstract: "Import an exchange's export (Coinbase, Kraken, Binance), all or nothing.",
    discussion: """
      Reads Coinbase's transaction history CSV, Kraken's ledgers.csv or Binance's transaction
      history statement, recognised from its header unless --exchange names it, and maps its
      rows onto buys, sells, swaps, income, deposits and withdrawals (docs/import.md has the
      table for each exchange). Cash in the portfolio's currency is the cash leg of a buy or a
      sell; a trade against another fiat currency is a buy or sell at the coin's market value;
      one coin for another is a swap; a fee in a third coin (BNB) is a disposal of that coin.
      Values the export does not give come from cached prices ('folio market history').
      Rows of operations folio does not know are listed as FILE:LINE: operation and nothing
      is imported (exit 65), unless --skip-unknown is given; then they are counted. Any
      problem and nothing is imported. The exchange's ids are stored with the trades, so
      importing the same export again adds nothing.
      """, createsDatabase: true)

  enum Format: String, OutputFormat { case text, json }

  /// A dry run writes nothing, so it never creates the database (without one it looks at a
  /// new one in a temporary folder).
  var createsDatabase: Bool { !dryRun }

  @Argument(name: "file", help: "The export, or - for standard input.") var path: String
  @Option(help: "The export's exchange (default: recognised from the header).")
  var exchange: ExchangeFormat?
  @Flag(help: "Import the rows folio understands and count the others.") var skipUnknown: Bool
  @Flag(help: "Show what would be stored without writing anything.") var dryRun: Bool
  @Flag(help: "Accept dates more than a day in the future.") var allowFuture: Bool
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let (handle, source, _) = try InputFile.open(path)
    defer { try? handle.close() }
    // The file is read and checked before the database is opened: a refused file leaves no
    // new database behind.
    let export = try ExchangeImporter.read(
      from: CSVReader(handle: handle, source: source), source: source, exchange: exchange,
      skipUnknown: skipUnknown)
    let report = try context.withStore(dryRun: dryRun) { store in
      try ExchangeImporter(store).importExport(
        export, into: context.portfolio(), dryRun: dryRun, allowFuture: allowFuture,
        now: context.now)
    }
    report.notes.forEach(context.note)
    switch format {
    case .json:
      var pairs: [(String, JSONValue)] = [
        ("exchange", .string(report.exchange.rawValue)), ("rows", .int(report.rows)),
        ("imported", .int(report.imported)), ("skipped", .int(report.skipped)),
        ("cash_rows", .int(report.cashEvents)),
        (
          "other_fiat_trades",
          .object(
            report.otherFiatTrades.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        ), ("internal_rows", .int(report.internalRows)),
        ("duplicate_rows", .int(report.duplicateRows)),
        ("unknown_skipped", .int(report.unknownSkipped)), ("dry_run", .bool(report.dryRun)),
      ]
      if report.dryRun { pairs.append(("trades", .array(report.planned.map(Self.json)))) }
      context.print(JSONValue.object(pairs).rendered())
    case .text:
      if report.dryRun && !report.planned.isEmpty {
        var table = TextTable(
          headers: [
            "line", "date", "kind", "side", "coin", "quantity", "price", "fee", "amount", "id",
          ], shortenable: [4: 8, 2: 8], dropOrder: [9, 8, 7, 0, 6])
        table.rightAligned = [0, 5, 6, 7, 8]
        for row in report.planned {
          table.append([
            String(row.line), row.date,
            row.kind.rawValue + (row.incomeType.map { " (\($0))" } ?? ""),
            row.side.rawValue, row.coin, row.quantity.description, row.price.description,
            row.fee.description, row.amount?.description ?? "", row.id,
          ])
        }
        context.out.write(table.rendered(width: context.width))
      }
      context.say(Self.summary(report))
    }
  }

  /// The summary line: what was (or would be) stored, skipped and left out.
  static func summary(_ report: ExchangeImportReport) -> String {
    let (verb, skip) = report.dryRun ? ("would import", "would skip") : ("imported", "skipped")
    var text =
      "\(verb) \(report.imported) trade(s) from \(report.rows) row(s) of a "
      + "\(report.exchange.rawValue) export; \(skip) \(report.skipped) already present"
    if report.imported == 0 && report.skipped > 0 { text += " (nothing new)" }
    for (currency, trades) in report.otherFiatTrades.sorted(by: { $0.key < $1.key }) {
      text += "; \(trades) trade(s) for \(currency) valued at market (folio holds no \(currency))"
    }
    if report.cashEvents > 0 { text += "; \(report.cashEvents) cash movement(s) not stored" }
    if report.internalRows > 0 {
      text += "; \(report.internalRows) internal move(s) not stored"
    }
    if report.duplicateRows > 0 {
      text += "; \(report.duplicateRows) repeated row(s) left out"
    }
    if report.unknownSkipped > 0 {
      text += "; \(report.unknownSkipped) row(s) of unknown operations skipped"
    }
    return text
  }

  static func json(_ row: PlannedRow) -> JSONValue {
    .object([
      ("line", .int(row.line)), ("date", .string(row.date)), ("kind", .string(row.kind.rawValue)),
      ("income_type", row.incomeType.map { .string($0.rawValue) } ?? .null),
      ("side", .string(row.side.rawValue)), ("coin", .string(row.coin)),
      ("quantity", .decimal(row.quantity)), ("price", .decimal(row.price)),
      ("fee", .decimal(row.fee)), ("amount", .decimal(row.amount)), ("id", .string(row.id)),
      ("link", row.link.map { .string($0) } ?? .null), ("note", .string(row.note)),
    ])
  }
}

extension ExchangeFormat: ExpressibleByArgument {
  static var expected: String { "coinbase, kraken or binance" }
}
