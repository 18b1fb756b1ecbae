import FolioStorage
import Foundation

/// The facts `folio db status` reports.
public struct DatabaseStatus: Sendable, Equatable {
  public let path: String
  public let sizeBytes: Int64
  public let version: Int
  public let latestVersion: Int
  public let sqliteVersion: String
  public let applied: [AppliedMigration]
  public let pending: [String]
}

/// Maintenance of the database file: status, integrity and ledger check, backup.
public struct DatabaseAdmin {
  let store: Store

  public init(_ store: Store) { self.store = store }

  /// The file, its size, the schema version and the applied and pending migrations.
  public func status() throws -> DatabaseStatus {
    let migrator = try Migrator()
    let status = try migrator.status(of: store.database)
    let attributes = try? FileManager.default.attributesOfItem(atPath: store.database.path)
    return DatabaseStatus(
      path: store.database.path,
      sizeBytes: (attributes?[.size] as? NSNumber)?.int64Value ?? 0,
      version: status.version,
      latestVersion: migrator.latestVersion,
      sqliteVersion: Database.libraryVersion,
      applied: status.applied,
      pending: status.pending.map { String(format: "%04d_%@", $0.version, $0.name) }
    )
  }

  /// Runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check`
  /// (https://sqlite.org/pragma.html#pragma_integrity_check), then checks what SQL cannot:
  /// schema objects folio's migrations did not create (or that were changed or dropped),
  /// trades folio would have refused, positions that go negative, and derived tables that
  /// differ from a recomputation from the trades (see `LedgerAudit`). The ledger part needs the
  /// current schema; on an older file it is skipped and the report says so.
  ///
  /// The integrity check, then the checks of single trades, run on a second connection beside
  /// the rest (two cores take about the longer of the two). When the integrity check finds
  /// damage, that is reported alone: nothing read from a damaged file can be trusted. Damage so
  /// severe that SQLite stops a check itself is one finding.
  public func check() throws -> CheckReport {
    func report(_ findings: [CheckFinding], version: Int = 0) -> CheckReport {
      CheckReport(
        findings: findings, ledgerChecked: false, schemaVersion: version, tradesChecked: 0,
        positionsChecked: 0)
    }
    let (file, ledger) = store.database.onSecondConnection(
      { database in
        let integrity = try database.integrityProblems()
        guard integrity.isEmpty, try Migrator().status(of: database).pending.isEmpty else {
          return (integrity: integrity, rows: [CheckFinding]())
        }
        return (integrity: integrity, rows: try LedgerAudit(database).rowFindings())
      }, while: checkLedger)
    do {
      let (integrity, rows) = try file.get()
      guard integrity.isEmpty else {
        // The version the first connection read, when it could read one.
        return report(
          integrity.map { CheckFinding(kind: .integrity, message: $0) },
          version: (try? ledger.get())?.version ?? 0)
      }
      let checked = try ledger.get()
      guard let positions = checked.positions else {
        return report(checked.schema, version: checked.version)
      }
      return CheckReport(
        findings: checked.schema + rows + positions.findings, ledgerChecked: true,
        schemaVersion: checked.version, tradesChecked: positions.trades,
        positionsChecked: positions.positions)
    } catch let error as SQLiteError where error.category == .damaged {
      // SQLITE_CORRUPT, SQLITE_NOTADB: SQLite stopped the check itself.
      return report([
        CheckFinding(kind: .integrity, message: "SQLite stopped the check: \(error.message)")
      ])
    }
  }

  /// What `check()` finds on the first connection: foreign keys and schema objects, the
  /// schema version, and on the current schema every position (nil on an older one).
  private func checkLedger() throws -> (
    schema: [CheckFinding], version: Int,
    positions: (findings: [CheckFinding], trades: Int, positions: Int)?
  ) {
    let database = store.database
    let foreignKeys = try database.foreignKeyViolations().map {
      let which = $0.rowID.map { "row \($0)" } ?? "a row"
      return CheckFinding(
        kind: .foreignKey,
        message: "\(which) of \($0.table) refers to a missing row of \($0.parent)")
    }
    let migrator = try Migrator()
    let status = try migrator.status(of: database)
    let schema = try migrator.schemaDifferences(of: database, version: status.version).map {
      CheckFinding(
        kind: .schema,
        message: "schema: \($0.description); undo the change in 'folio db shell' or "
          + "restore a clean backup")
    }
    let positions = status.pending.isEmpty ? try LedgerAudit(database).positionFindings() : nil
    return (foreignKeys + schema, status.version, positions)
  }

  /// Writes a consistent copy of the database to `destination` with the online backup API,
  /// even while other processes write. Refuses to overwrite an existing file.
  public func backup(to destination: String) throws {
    try store.database.backup(to: destination)
  }
}
