import FolioStorage
import Foundation

/// What `folio db restore` did.
public struct RestoreOutcome: Sendable, Equatable {
  /// The file the database was restored from.
  public let source: String
  /// The live database that now holds the restored content.
  public let database: String
  /// The schema version of the file as it was.
  public let sourceVersion: Int
  /// The migrations applied to the restored copy to bring it to this folio's schema.
  public let migrated: [String]
  /// Where the content that was replaced is kept; nil when there was no database before.
  public let replacedPath: String?
}

/// Why a file cannot be restored. The live database is left as it was in every case.
public enum RestoreError: LocalizedError, ClassifiedError, Equatable {
  /// The file to restore does not exist.
  case fileMissing(String)
  /// The file to restore is the live database itself.
  case sameFile(String)
  /// The file is not an SQLite database.
  case notADatabase(String)
  /// The file is an SQLite database that fails the integrity or foreign-key check.
  case damaged(path: String, findings: [String])
  /// The file is an SQLite database but not one written by folio.
  case notFolio(String)
  /// The file's schema is not the one folio's migrations create for its version: it holds
  /// objects folio did not create (a trigger, a replaced view, extra tables), or lacks some.
  case foreignSchema(path: String, objects: [String])

  public var kind: FailureKind {
    switch self {
    case .fileMissing: return .inputMissing
    case .sameFile, .notADatabase, .damaged, .notFolio, .foreignSchema: return .badData
    }
  }

  public var errorDescription: String? {
    let notRestored = "; nothing was restored (the database was left as it was)"
    switch self {
    case .fileMissing(let path):
      return path.isEmpty
        ? "the path is empty; name a backup written by 'folio db backup'"
        : "\(path): no such file; name a backup written by 'folio db backup'"
    case .sameFile(let path):
      return
        "\(path) is the database in use itself; name a backup file (the database was left as it was)"
    case .notADatabase(let path):
      return "\(path) is not an SQLite database" + notRestored
    case .damaged(let path, let findings):
      return "\(path) is damaged (\(findings.prefix(3).joined(separator: "; ")))" + notRestored
    case .notFolio(let path):
      return "\(path) is an SQLite database but not a folio one (it has no schema_migrations)"
        + notRestored
    case .foreignSchema(let path, let objects):
      let listed = objects.prefix(5).joined(separator: "; ")
      let more = objects.count > 5 ? "; and \(objects.count - 5) more" : ""
      return "\(path) holds a schema folio did not create: \(listed)\(more)" + notRestored
        + ". Restore a backup written by 'folio db backup'"
    }
  }
}

/// Restores the database from a file: the file is checked (integrity, foreign keys, that it
/// is a folio database with a schema this folio knows, holding exactly the schema objects
/// folio's migrations create for its version), copied, migrated if it is older, and
/// only then put in place of the live database in one step. The content it replaces is kept
/// aside as `<database>.replaced-<UTC timestamp>`.
public struct DatabaseRestorer {
  let location: StoreLocation

  public init(_ location: StoreLocation) { self.location = location }

  /// The connection to the scratch copy, a file no one else opens: closing it puts its WAL
  /// into the file and removes it, so the copy is one file when it takes the database's name.
  private var scratchConfiguration: Database.Configuration {
    var configuration = Database.Configuration(mode: .readWrite, busyTimeout: location.busyTimeout)
    configuration.removesLogOnClose = true
    return configuration
  }

  /// Restores `file` into the database at the location.
  ///
  /// When the live database opens, its content is replaced through SQLite's backup API under
  /// its write lock (other processes see the old content or the new, never a mix, and their
  /// open connections keep working); the old content is copied aside under the same lock. A
  /// live file that is not a database at all is renamed aside instead.
  public func restore(from file: String, now: Date) throws -> RestoreOutcome {
    let live = location.path
    try checkNames(file, live)
    Database.removeLeftovers(of: live)
    let scratch = "\(live).restore-\(getpid())"
    Database.removeFiles(of: scratch)
    defer { Database.removeFiles(of: scratch) }

    let sourceVersion = try copyChecked(file, to: scratch)
    let migrated: [String]
    do {
      let copy = try Database(path: scratch, scratchConfiguration)
      migrated = try Migrator().migrate(
        copy, now: now, keepingBackup: false, completing: Store.completeMigration
      ).applied.map {
        String(format: "%04d_%@", $0.version, $0.name)
      }
    }
    guard FileManager.default.fileExists(atPath: live) else {
      try Database.publish(scratch, as: live)
      return RestoreOutcome(
        source: file, database: live, sourceVersion: sourceVersion, migrated: migrated,
        replacedPath: nil)
    }
    // `<database>.replaced-<UTC timestamp>`, with `-2`, `-3`… when that name is taken.
    let aside = PathName.unused("\(live).replaced-\(Timestamp.compact(now))")
    let target: Database
    do {
      target = try Database(path: live, mode: .readWrite, busyTimeout: location.busyTimeout)
    } catch let error as SQLiteError where error.category == .damaged {
      // The live file is not a database SQLite can open: nobody can be using it, so it is
      // renamed aside (with its WAL, which belongs to it) and the copy takes its name.
      try Self.renameAside(live, to: aside)
      try Database.publish(scratch, as: live)
      return RestoreOutcome(
        source: file, database: live, sourceVersion: sourceVersion, migrated: migrated,
        replacedPath: aside)
    }
    try replace(target, with: scratch, keepingAside: aside)
    return RestoreOutcome(
      source: file, database: live, sourceVersion: sourceVersion, migrated: migrated,
      replacedPath: aside)
  }

  // MARK: - Steps

  /// Refuses a missing file, a folder, or the live database itself.
  private func checkNames(_ file: String, _ live: String) throws {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
      throw RestoreError.fileMissing(file)
    }
    guard !isFolder.boolValue else {
      throw FileError.notADatabaseFile(path: file, kind: "a directory")
    }
    if FileIdentity(at: file)?.isAt(live) == true {
      throw RestoreError.sameFile(file)
    }
  }

  /// Checks `file` through a read-only connection, then copies it to `scratch` with the
  /// backup API; returns its schema version.
  private func copyChecked(_ file: String, to scratch: String) throws -> Int {
    let source: Database
    do {
      // A copy, not a database in use: closing the connection removes the -wal and -shm its
      // reading made, so FILE is left as it was.
      var configuration = Database.Configuration(mode: .readOnly, busyTimeout: location.busyTimeout)
      configuration.removesLogOnClose = true
      source = try Database(path: file, configuration)
    } catch let error as SQLiteError where error.category == .damaged {
      throw RestoreError.notADatabase(file)  // SQLITE_CORRUPT, SQLITE_NOTADB
    }
    let findings: [String]
    do {
      findings =
        try source.integrityProblems()
        + source.foreignKeyViolations().map {
          "row \($0.rowID ?? 0) of \($0.table) refers to a missing row"
        }
    } catch let error as SQLiteError where error.category == .damaged {
      throw RestoreError.damaged(path: file, findings: [error.message])
    }
    guard findings.isEmpty else { throw RestoreError.damaged(path: file, findings: findings) }
    guard try source.hasTable("schema_migrations") else { throw RestoreError.notFolio(file) }
    let status = try Migrator().status(of: source)
    guard status.version > 0 else { throw RestoreError.notFolio(file) }
    // Only the schema folio's own migrations create for that version comes in: a trigger that
    // rewrites new trades or a replaced view would otherwise run in every later command.
    let differences = try Migrator().schemaDifferences(of: source, version: status.version)
    guard differences.isEmpty else {
      throw RestoreError.foreignSchema(path: file, objects: differences.map(\.description))
    }
    try source.backup(to: scratch)
    return status.version
  }

  /// Replaces the content of `target` (the live database) with the copy at `scratch`, after
  /// keeping the old content at `aside`, all under the live database's write lock.
  private func replace(_ target: Database, with scratch: String, keepingAside aside: String)
    throws
  {
    let copy = try Database(path: scratch, scratchConfiguration)
    let pageSize = try target.pageSize
    if try copy.pageSize != pageSize {
      // The backup API cannot change the page size of a WAL database: convert the copy.
      try copy.rebuild(pageSize: pageSize)
    }
    try target.replaceContent(with: copy) {
      do {
        let old = try Database(path: target.path, mode: .readOnly, busyTimeout: 0)
        try old.backup(to: aside)
      } catch let error as SQLiteError where error.category == .damaged {
        // The old content is damaged: keep its bytes as they are (no one can commit meanwhile).
        try Self.copyBytes(target.path, to: aside)
      }
    }
  }

  /// Renames a file that is not an SQLite database out of the way, with its -wal file.
  private static func renameAside(_ live: String, to aside: String) throws {
    guard rename(live, aside) == 0 else {
      throw FileError.cannotCreate(
        path: aside, reason: FileError.describe(errno: errno))
    }
    if FileManager.default.fileExists(atPath: live + "-wal") {
      _ = rename(live + "-wal", aside + "-wal")
    }
    unlink(live + "-shm")
    Database.syncFolder(of: live)
  }

  /// Copies a damaged database file and its -wal byte for byte.
  private static func copyBytes(_ live: String, to aside: String) throws {
    try FileManager.default.copyItem(atPath: live, toPath: aside)
    if FileManager.default.fileExists(atPath: live + "-wal") {
      try FileManager.default.copyItem(atPath: live + "-wal", toPath: aside + "-wal")
    }
    try Database.syncFile(aside)
    Database.syncFolder(of: aside)
  }
}
