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

/// Maintenance of the database file: status, integrity check, backup.
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
  /// (https://sqlite.org/pragma.html#pragma_integrity_check) and returns the findings;
  /// an empty list means the file is sound.
  public func check() throws -> [String] {
    let database = store.database
    var findings = try database.rows("PRAGMA integrity_check") { $0.text(0) ?? "" }
      .filter { $0 != "ok" }
    findings += try database.rows("PRAGMA foreign_key_check") { row in
      "row \(row.int(1) ?? 0) of \(row.text(0) ?? "?") refers to a missing row of \(row.text(2) ?? "?")"
    }
    return findings
  }

  /// Writes a consistent copy of the database to `destination` with the online backup API,
  /// even while other processes write. Refuses to overwrite an existing file.
  public func backup(to destination: String) throws {
    guard !FileManager.default.fileExists(atPath: destination) else {
      throw StoreError.fileExists(destination)
    }
    try store.database.backup(to: destination)
  }
}
