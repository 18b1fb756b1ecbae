import Foundation

/// One versioned schema change: `migrations/NNNN_description.sql`.
public struct Migration: Sendable, Equatable {
  /// The number at the start of the file name; versions increase by one from 1.
  public let version: Int
  /// The description part of the file name.
  public let name: String
  /// The SQL the file holds.
  public let sql: String
  /// The SHA-256 of the file's bytes, as 64 hexadecimal digits.
  public let checksum: String

  public init(version: Int, name: String, sql: String) {
    self.version = version
    self.name = name
    self.sql = sql
    self.checksum = SHA256.hex(Array(sql.utf8))
  }

  /// The migrations built into this binary from the package's `migrations/` folder. The
  /// build tool has already checked the file names (`NNNN_description.sql`, versions 1, 2, …)
  /// and that each file is UTF-8, so the checksum is the SHA-256 of the file's bytes.
  public static let embedded: [Migration] = embeddedMigrationFiles.compactMap { file in
    let parts = file.name.split(separator: "_", maxSplits: 1)
    guard parts.count == 2, let version = Int(parts[0]), let data = Data(base64Encoded: file.base64)
    else { return nil }
    let name = parts[1].hasSuffix(".sql") ? String(parts[1].dropLast(4)) : String(parts[1])
    return Migration(version: version, name: name, sql: String(decoding: data, as: UTF8.self))
  }

  /// The SQL that makes on a new database what all the embedded migrations make, in one go
  /// (written by the build tool, which checked that it gives the same schema and rows); nil
  /// when the tool found it could not.
  static let embeddedNewDatabaseSQL: String? = Data(base64Encoded: embeddedNewDatabaseBase64)
    .flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
}

/// A migration recorded in the `schema_migrations` table.
public struct AppliedMigration: Sendable, Equatable {
  public let version: Int
  public let name: String
  public let checksum: String
  /// When it was applied, UTC ISO-8601.
  public let appliedAt: String
}

/// Why a database cannot be brought to this binary's schema.
public enum MigrationError: LocalizedError, Equatable {
  /// The file was written by a newer Folio.
  case newerDatabase(path: String, version: Int, known: Int)
  /// An applied migration differs from the one this binary carries.
  case checksumMismatch(path: String, version: Int, name: String)
  /// The shipped migrations themselves are inconsistent (a gap or duplicate version).
  case invalidMigrationList(String)
  /// `schema_migrations` and `PRAGMA user_version` disagree, or versions are missing.
  case inconsistentHistory(path: String, reason: String)
  /// After the pending migrations, rows would point at parents that do not exist.
  case foreignKeysBroken(version: Int, rows: [String])

  public var errorDescription: String? {
    switch self {
    case .newerDatabase(let path, let version, let known):
      return
        "\(path) has schema version \(version), but this folio knows only up to \(known); "
        + "upgrade folio to use it (the file was left untouched)"
    case .checksumMismatch(let path, let version, let name):
      return
        "\(path): applied migration \(version) (\(name)) does not match the one this folio carries; "
        + "the schema was changed by hand or by another build (the file was left untouched)"
    case .invalidMigrationList(let reason):
      return "the built-in migrations are inconsistent: \(reason)"
    case .inconsistentHistory(let path, let reason):
      return
        "\(path): the schema history is inconsistent (\(reason)); the file was left untouched, "
        + "restore it from a backup"
    case .foreignKeysBroken(let version, let rows):
      let listed = rows.prefix(3).joined(separator: ", ")
      let more = rows.count > 3 ? " and \(rows.count - 3) more" : ""
      return
        "migrating to version \(version) would leave rows whose foreign keys point nowhere "
        + "(\(listed)\(more)); nothing was changed: fix those rows (`folio db check` lists "
        + "them) and run it again"
    }
  }
}

/// Where a database stands against a list of migrations.
public struct MigrationStatus: Sendable, Equatable {
  /// The highest applied version (0 for a new file); mirrored in `PRAGMA user_version`.
  public let version: Int
  /// Migrations recorded as applied, oldest first.
  public let applied: [AppliedMigration]
  /// Migrations not applied yet, oldest first.
  public let pending: [Migration]
}

/// Applies versioned migrations: each migration and its `schema_migrations` row commit in one
/// transaction, and `PRAGMA user_version` mirrors the latest applied version.
public struct Migrator: Sendable {
  /// The migrations this migrator knows, in version order.
  public let migrations: [Migration]
  /// For the embedded migrations, the SQL that makes a new database in one go
  /// (`Migration.embeddedNewDatabaseSQL`): their `ALTER TABLE`s make SQLite read the whole
  /// schema again each time, which took half of a new database's migration.
  let newDatabaseSQL: String?

  public init(migrations: [Migration] = Migration.embedded) throws {
    let sorted = migrations.sorted { $0.version < $1.version }
    for (index, migration) in sorted.enumerated() where migration.version != index + 1 {
      throw MigrationError.invalidMigrationList(
        "expected version \(index + 1), found \(migration.version) (\(migration.name))")
    }
    self.migrations = sorted
    newDatabaseSQL = sorted == Migration.embedded ? Migration.embeddedNewDatabaseSQL : nil
  }

  /// The newest version this migrator can bring a database to.
  public var latestVersion: Int { migrations.last?.version ?? 0 }

  /// Reads the state of `database` and checks it can be used with these migrations:
  /// not newer than known, and every applied migration unchanged.
  /// The reads run in one read transaction, so another process migrating meanwhile cannot
  /// make `schema_migrations` and `PRAGMA user_version` seem to disagree.
  public func status(of database: Database) throws -> MigrationStatus {
    try database.read { try readStatus(of: database) }
  }

  private func readStatus(of database: Database) throws -> MigrationStatus {
    let hasTable =
      try database.scalarInt(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
      == 1
    let applied =
      hasTable
      ? try database.rows(
        "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"
      ) {
        AppliedMigration(
          version: try $0["version"], name: try $0["name"], checksum: try $0["checksum"],
          appliedAt: try $0["applied_at"])
      } : []
    let userVersion = Int(try database.scalarInt("PRAGMA user_version") ?? 0)
    let version = max(applied.last?.version ?? 0, userVersion)
    if version > latestVersion {
      throw MigrationError.newerDatabase(
        path: database.path, version: version, known: latestVersion)
    }
    for (offset, record) in applied.enumerated() {
      guard record.version == offset + 1, offset < migrations.count else {
        throw MigrationError.inconsistentHistory(
          path: database.path,
          reason: "schema_migrations holds version \(record.version) where \(offset + 1) belongs")
      }
      if migrations[offset].checksum != record.checksum {
        throw MigrationError.checksumMismatch(
          path: database.path, version: record.version, name: record.name)
      }
    }
    if version > applied.count {
      throw MigrationError.inconsistentHistory(
        path: database.path,
        reason: "PRAGMA user_version is \(version) but schema_migrations records "
          + "\(applied.count) migration(s)")
    }
    return MigrationStatus(
      version: version, applied: applied, pending: Array(migrations.dropFirst(version)))
  }

  /// What `migrate` did.
  /// True when no table holds a row the migrations did not write (their history, the default
  /// portfolio, the bundled coin list): a database no one has used yet, which a command that
  /// created it and then failed may remove without taking anyone's records with it.
  public static func holdsOnlyMigratedRows(_ db: Database) throws -> Bool {
    // The seeds, as the migrations and the built-in coin list write them: a coin list fetched
    // or a portfolio's setting changed since is someone's work.
    guard
      try db.scalarInt("SELECT count(*) FROM coin_list_fetches") ?? 0 <= 1,
      try db.scalarInt(
        """
        SELECT count(*) FROM portfolios
        WHERE NOT (id = 1 AND name = 'main' AND currency = 'usd' AND method = 'fifo')
        """) == 0
    else { return false }
    let seeded: Set<String> = ["schema_migrations", "coins", "coin_list_fetches"]
    let tables = try db.rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ) { try $0["name"] as String }
    for table in tables where !seeded.contains(table) {
      let limit: Int64 = table == "portfolios" ? 1 : 0
      guard try db.scalarInt("SELECT count(*) FROM \"\(table)\"") ?? 0 <= limit else {
        return false
      }
    }
    return true
  }

  public struct Outcome: Sendable, Equatable {
    /// The migrations applied, oldest first (empty when the file was current).
    public let applied: [Migration]
    /// The copy of the file taken before migrating a database that already held data.
    public let backupPath: String?

    public init(applied: [Migration], backupPath: String?) {
      self.applied = applied
      self.backupPath = backupPath
    }
  }

  /// Brings `database` to the latest version. A database that already holds data is first
  /// copied to `<file>.bak-v<from>-<UTC timestamp>` (unless `keepingBackup` is false, for a
  /// scratch copy); a failing migration rolls back every pending migration and leaves the file
  /// as it was. A process killed part-way leaves the file as it was, and the next run applies
  /// everything.
  ///
  /// Safe to run from several processes at once: the state is read again under the write lock,
  /// so migrations another process applied meanwhile are skipped, and only the process that
  /// upgrades a file which held data writes the backup.
  ///
  /// `completing` runs in the same transaction after the SQL of the pending migrations, when
  /// there were any: it writes what SQL cannot, such as derived rows of exact decimals.
  @discardableResult
  public func migrate(
    _ database: Database, now: Date = Date(), keepingBackup: Bool = true,
    completing: (Database) throws -> Void = { _ in }
  ) throws -> Outcome {
    guard !(try status(of: database).pending.isEmpty) else {
      return Outcome(applied: [], backupPath: nil)
    }
    // SQLite's procedure for changing a table's schema
    // (https://sqlite.org/lang_altertable.html#otheralter): foreign keys off while the
    // migrations run, so rebuilding a parent table cascades nothing, then
    // `PRAGMA foreign_key_check` before the commit. The pragma is a no-op inside a
    // transaction, so it is set around it.
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    // All pending migrations run in one write transaction, with the state read under the lock:
    // another process migrating the same file at once sees it either before or after, never
    // half-way, and a failure anywhere leaves the file exactly as it was.
    return try database.write {
      let current = try status(of: database)
      guard !current.pending.isEmpty else { return Outcome(applied: [], backupPath: nil) }
      // Taken under the write lock, so the copy is exactly the file this process upgrades.
      let backupPath =
        keepingBackup && current.version > 0
        ? try backUp(database, fromVersion: current.version, now: now) : nil
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          checksum TEXT NOT NULL,
          applied_at TEXT NOT NULL
        ) STRICT
        """)
      let inOneGo = current.version == 0 ? newDatabaseSQL : nil
      if let inOneGo { try database.execute(inOneGo) }
      for migration in current.pending {
        if inOneGo == nil { try database.execute(migration.sql) }
        try database.execute(
          "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
          [migration.version, migration.name, migration.checksum, Timestamp.format(now)])
        try database.execute("PRAGMA user_version = \(migration.version)")
      }
      try completing(database)
      let broken = try database.foreignKeyViolations().map {
        "\($0.table) row \($0.rowID.map(String.init) ?? "?") → \($0.parent)"
      }
      guard broken.isEmpty else {
        throw MigrationError.foreignKeysBroken(
          version: current.pending.last?.version ?? 0, rows: broken)
      }
      return Outcome(applied: current.pending, backupPath: backupPath)
    }
  }

  private func backUp(_ database: Database, fromVersion: Int, now: Date) throws -> String {
    Database.removeLeftovers(of: database.path)
    let candidate = PathName.unused(
      "\(database.path).bak-v\(fromVersion)-\(Timestamp.compact(now))")
    // SQLite cannot back up from a connection inside a write transaction, so a second,
    // read-only connection copies the file; the write lock `database` holds keeps it unchanged.
    let source = try Database(
      path: database.path, mode: .readOnly, busyTimeout: database.busyTimeout)
    try source.backup(to: candidate)
    return candidate
  }
}
