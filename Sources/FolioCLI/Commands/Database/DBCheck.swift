import FolioService

/// `folio db check`: SQLite's integrity and foreign-key checks, then what SQL cannot guard:
/// trades folio would have refused, positions that go negative, out-of-date derived tables.
struct DBCheck: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "check",
    abstract: "Check the file and the derived tables; exit 65 naming each problem found.",
    discussion: """
      Runs PRAGMA integrity_check and foreign_key_check, then recomputes every position from the
      trades in memory and compares the result with the stored lots, lot consumptions,
      disposals, positions and position days. Reads only: the file is neither changed nor migrated (on an
      older schema the derived tables are not checked). 'folio db rebuild' repairs derived
      tables that are out of date.
      """)

  enum Format: String, OutputFormat { case text, json }

  @Option var format = Format.text

  func run(_ context: Context) throws {
    let report = try DatabaseAdmin(context.inspectedStore()).check()
    switch format {
    case .json: context.print(json(report).rendered())
    case .text:
      for finding in report.findings { context.print(finding.message.shown) }
      if report.isSound {
        context.print("ok")
      }
      // On a damaged file the findings say why the ledger was not read.
      if !report.ledgerChecked && report.isSound {
        context.warn(
          "the derived tables were not checked: the schema is at version "
            + "\(report.schemaVersion); run 'folio db migrate' first")
      }
    }
    guard report.isSound else { throw StoreError.checkFailed(report.findings.map(\.message)) }
  }

  func json(_ report: CheckReport) -> JSONValue {
    .object([
      ("ok", .bool(report.isSound)),
      ("schema_version", .int(report.schemaVersion)),
      ("ledger_checked", .bool(report.ledgerChecked)),
      ("trades_checked", .int(report.tradesChecked)),
      ("positions_checked", .int(report.positionsChecked)),
      (
        "findings",
        .array(
          report.findings.map {
            .object([
              ("kind", .string($0.kind.rawValue)), ("portfolio", .string($0.portfolio)),
              ("coin", .string($0.coinID)), ("trade_id", .int($0.tradeID)),
              ("message", .string($0.message)),
            ])
          })
      ),
    ])
  }
}
