import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

@Suite struct MigratorTests {
  let folder = TemporaryFolder()
  /// A fixed clock: 2024-11-30T12:00:00Z.
  let now = Date(timeIntervalSince1970: 1_732_968_000)

  /// The package's `migrations/` folder, found from this file's path.
  static let migrationsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("migrations")

  /// A migrator that knows only the first `count` embedded migrations: a binary of that age.
  func migrator(upTo count: Int) throws -> Migrator {
    try Migrator(migrations: Array(Migration.embedded.prefix(count)))
  }

  func tables(_ db: Database) throws -> [String] {
    try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
      try $0["name"] as String
    }
  }

  func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  // MARK: - Fresh database

  @Test func freshDatabaseGetsEveryEmbeddedMigration() throws {
    let migrator = try Migrator()
    let db = try Database(path: folder.file("fresh.sqlite3"))
    let outcome = try migrator.migrate(db, now: now)
    #expect(outcome.applied == Migration.embedded)
    #expect(outcome.backupPath == nil)  // nothing to lose in a new file
    #expect(migrator.latestVersion == Migration.embedded.count)
    #expect(try db.scalarInt("PRAGMA user_version") == Int64(migrator.latestVersion))

    let rows = try db.rows(
      "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"
    ) {
      (
        try $0["version"] as Int64, try $0["name"] as String, try $0["checksum"] as String,
        try $0["applied_at"] as String
      )
    }
    #expect(rows.count == migrator.latestVersion)
    for (offset, row) in rows.enumerated() {
      let migration = Migration.embedded[offset]
      #expect(row.0 == Int64(offset + 1))
      #expect(row.1 == migration.name)
      #expect(row.2 == migration.checksum)
      #expect(row.3 == "2024-11-30T12:00:00Z")
    }
    #expect(try tables(db).contains("settings"))  // the first migration's table
    #expect(try migrator.status(of: db).pending.isEmpty)
    // A second run finds nothing to do and writes no backup.
    #expect(try migrator.migrate(db, now: now) == Migrator.Outcome(applied: [], backupPath: nil))
  }

  /// A freshly migrated database holds only what the migrations wrote; one record more (a
  /// second portfolio, a location) and it is someone's database, which nothing may remove.
  /// A new database is made in one go from the SQL the build tool wrote
  /// (`Migration.embeddedNewDatabaseSQL`): it holds the very schema, seed rows and history a
  /// database migrated one file at a time holds (`db check` compares files with the former).
  @Test func aNewDatabaseMadeInOneGoIsTheOneTheMigrationsMakeStepByStep() throws {
    let inOneGo = try #require(Migration.embeddedNewDatabaseSQL)
    #expect(try Migrator().newDatabaseSQL == inOneGo)
    #expect(try migrator(upTo: Migration.embedded.count - 1).newDatabaseSQL == nil)
    let before = Timestamp.format(Date())
    let made = try Database(path: folder.file("one-go.sqlite3"))
    try Migrator().migrate(made, now: now)
    // Step by step: the first migration, then the rest on a database that is no longer new.
    let stepped = try Database(path: folder.file("step-by-step.sqlite3"))
    try migrator(upTo: 1).migrate(stepped, now: now)
    try Migrator().migrate(stepped, now: now, keepingBackup: false)
    func contents(_ db: Database) throws -> [String] {
      // The seed portfolio was made now (SQLite's clock): the same second or not, made now.
      #expect(
        try db.scalarInt("SELECT count(*) FROM portfolios WHERE created_at >= ?", [before]) == 1)
      try db.execute("UPDATE portfolios SET created_at = ?", [before])
      let objects = try db.rows(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
      ) { row in (0..<row.count).map { "\(row[$0])" }.joined(separator: "|") }
      var rows: [String] = []
      for table in try tables(db) {
        // Every column, as text.
        rows += try db.rows("SELECT * FROM \"\(table)\" ORDER BY 1") { row in
          "\(table): " + (0..<row.count).map { "\(row[$0])" }.joined(separator: "|")
        }
      }
      return objects + rows + ["user_version \(try db.scalarInt("PRAGMA user_version") ?? -1)"]
    }
    let expected = try contents(stepped)
    #expect(expected.contains { $0.hasPrefix(#"text("index")|text("trades_by_time")"#) })
    #expect(expected.contains { $0.hasPrefix(#"portfolios: integer(1)|text("main")"#) })
    #expect(try contents(made) == expected)
    #expect(
      try Migrator().schemaDifferences(of: stepped, version: Migration.embedded.count).isEmpty)
  }

  @Test func aDatabaseWithARecordIsNoLongerOnlyMigrated() throws {
    let db = try Database(path: folder.file("new.sqlite3"))
    _ = try Migrator().migrate(db, now: now)
    #expect(try Migrator.holdsOnlyMigratedRows(db))
    try db.execute(
      "INSERT INTO portfolios (name, currency, method, created_at) "
        + "VALUES ('second', 'usd', 'fifo', '2024-11-30T12:00:00Z')")
    #expect(try !Migrator.holdsOnlyMigratedRows(db))
  }

  /// A setting of the seeded portfolio changed, or a coin list fetched, is someone's work too.
  @Test func aChangedSeedIsNoLongerOnlyMigrated() throws {
    let db = try Database(path: folder.file("seed.sqlite3"))
    _ = try Migrator().migrate(db, now: now)
    try db.execute("UPDATE portfolios SET method = 'hifo'")
    #expect(try !Migrator.holdsOnlyMigratedRows(db))
    try db.execute("UPDATE portfolios SET method = 'fifo'")
    #expect(try Migrator.holdsOnlyMigratedRows(db))
    for _ in 0..<2 {
      try db.execute(
        "INSERT INTO coin_list_fetches (fetched_at, source, coin_count) "
          + "VALUES ('2024-11-30T12:00:00Z', 'import:list.json', 1)")
    }
    #expect(try !Migrator.holdsOnlyMigratedRows(db))
  }

  @Test func everyFileInMigrationsIsEmbeddedWithItsSHA256() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
      .filter { $0.hasSuffix(".sql") }.sorted()
    #expect(!files.isEmpty)
    #expect(
      files
        == Migration.embedded.map {
          String(repeating: "0", count: max(0, 4 - String($0.version).count))
            + "\($0.version)_\($0.name).sql"
        })
    // The reference digest comes from coreutils, not from Folio's own SHA-256.
    let output = try runTool(
      "/usr/bin/sha256sum", files.map { Self.migrationsFolder.appendingPathComponent($0).path })
    let digests = output.split(separator: "\n").map { String($0.prefix(64)) }
    #expect(digests.count == Migration.embedded.count)
    for (migration, digest) in zip(Migration.embedded, digests) {
      #expect(migration.checksum == digest)
      #expect(migration.checksum.count == 64)
      #expect(migration.checksum.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }
  }

  @Test func migrationListMustRunOneTwoThree() throws {
    let first = Migration(version: 1, name: "a", sql: "CREATE TABLE a (x INTEGER) STRICT;")
    let third = Migration(version: 3, name: "c", sql: "CREATE TABLE c (x INTEGER) STRICT;")
    #expect(throws: MigrationError.self) { try Migrator(migrations: [first, third]) }
    #expect(throws: MigrationError.self) { try Migrator(migrations: [first, first]) }
  }

  // MARK: - Upgrades

  @Test func upgradeFromEveryEarlierVersionPreservesDataAndWritesABackup() throws {
    let latest = try Migrator().latestVersion
    for version in 1..<latest {
      let path = folder.file("v\(version).sqlite3")
      do {
        let old = try Database(path: path)
        try migrator(upTo: version).migrate(old, now: now)
        try old.execute(
          "INSERT INTO settings (key, value) VALUES (?, ?)", ["upgrade-test", "from v\(version)"])
      }
      let before = try Database(path: path, mode: .readOnly)
      let tablesBefore = try tables(before).filter { !$0.hasPrefix("sqlite_") }
      let countsBefore = try tablesBefore.map {
        try before.scalarInt("SELECT count(*) FROM \"\($0)\"")
      }

      let db = try Database(path: path)
      let outcome = try Migrator().migrate(db, now: now)
      #expect(outcome.applied == Array(Migration.embedded.dropFirst(version)))
      #expect(try db.scalarInt("PRAGMA user_version") == Int64(latest))
      #expect(try db.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(latest))
      #expect(
        try db.scalarText("SELECT value FROM settings WHERE key = 'upgrade-test'")
          == "from v\(version)")
      for (table, count) in zip(tablesBefore, countsBefore) where table != "schema_migrations" {
        #expect(
          try db.scalarInt("SELECT count(*) FROM \"\(table)\"") == count,
          "table \(table) after upgrading from v\(version)")
      }

      // The backup is the file as it was: version k, with the data.
      let backup = "\(path).bak-v\(version)-20241130T120000Z"
      #expect(outcome.backupPath == backup)
      let attributes = try FileManager.default.attributesOfItem(atPath: backup)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      let copy = try Database(path: backup, mode: .readOnly)
      #expect(try copy.scalarInt("PRAGMA user_version") == Int64(version))
      #expect(try copy.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(version))
      #expect(
        try copy.scalarText("SELECT value FROM settings WHERE key = 'upgrade-test'")
          == "from v\(version)")
      #expect(try tables(copy).filter { !$0.hasPrefix("sqlite_") } == tablesBefore)
    }
  }

  @Test func copyLeftByAnInterruptedMigrationIsRemovedByTheNextOne() throws {
    let path = folder.file("interrupted.sqlite3")
    // A process id that is not running: above the default pid_max of 4194304 (a small one such
    // as 4242 can belong to a live process on a busy machine, and its copy is then kept).
    let dead = 4_194_999
    #expect(kill(Int32(dead), 0) != 0)
    let partial = "\(path).bak-v1-20241130T115900Z.partial-\(dead)"
    FileManager.default.createFile(atPath: partial, contents: Data("half a copy".utf8))
    FileManager.default.createFile(atPath: partial + "-journal", contents: Data("journal".utf8))
    let db = try Database(path: path)
    try migrator(upTo: 1).migrate(db, now: now)
    let outcome = try Migrator().migrate(db, now: now)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!names.contains { $0.contains(".partial-") })
    #expect(outcome.backupPath == "\(path).bak-v1-20241130T120000Z")
  }

  @Test func scratchCopyCanBeMigratedWithoutABackup() throws {
    let path = folder.file("scratch.sqlite3")
    let db = try Database(path: path)
    try migrator(upTo: 1).migrate(db, now: now)
    let outcome = try Migrator().migrate(db, now: now, keepingBackup: false)
    #expect(outcome.backupPath == nil)
    #expect(!outcome.applied.isEmpty || Migration.embedded.count == 1)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy {
        !$0.contains(".bak-")
      })
  }

  @Test func secondBackupInTheSameSecondGetsANewName() throws {
    let path = folder.file("twice.sqlite3")
    let taken = "\(path).bak-v1-20241130T120000Z"
    FileManager.default.createFile(atPath: taken, contents: Data("keep me".utf8))
    let db = try Database(path: path)
    try migrator(upTo: 1).migrate(db, now: now)
    let outcome = try Migrator().migrate(db, now: now)
    #expect(outcome.backupPath == taken + "-2")
    #expect(try bytes(taken) == Data("keep me".utf8))
  }

  @Test func statusListsPendingMigrationsWithoutApplyingThem() throws {
    let db = try Database(path: folder.file("pending.sqlite3"))
    try migrator(upTo: 1).migrate(db, now: now)
    let status = try Migrator().status(of: db)
    #expect(status.version == 1)
    #expect(status.applied.map(\.version) == [1])
    #expect(status.applied.first?.appliedAt == "2024-11-30T12:00:00Z")
    #expect(status.pending == Array(Migration.embedded.dropFirst(1)))
    #expect(try db.scalarInt("PRAGMA user_version") == 1)
  }

  // MARK: - Refusals

  @Test func newerDatabaseIsRefusedAndLeftByteForByteUntouched() throws {
    let latest = try Migrator().latestVersion
    let path = folder.file("newer.sqlite3")
    do {
      let db = try Database(path: path)
      try Migrator().migrate(db, now: now)
      try db.execute("PRAGMA user_version = \(latest + 1)")
    }
    let original = try bytes(path)
    do {
      let db = try Database(path: path)
      let error = try #require(throws: MigrationError.self) { try Migrator().migrate(db) }
      #expect(error == .newerDatabase(path: path, version: latest + 1, known: latest))
      #expect(error.localizedDescription.contains("upgrade folio"))
    }
    #expect(try bytes(path) == original)

    // A binary that knows fewer migrations than the file holds refuses it too.
    let older = try migrator(upTo: latest - 1)
    let current = folder.file("current.sqlite3")
    try Migrator().migrate(try Database(path: current), now: now)
    let error = try #require(throws: MigrationError.self) {
      try older.migrate(try Database(path: current))
    }
    #expect(error == .newerDatabase(path: current, version: latest, known: latest - 1))
  }

  @Test func tamperedChecksumIsRefusedBeforeAnythingIsApplied() throws {
    let path = folder.file("tampered.sqlite3")
    let db = try Database(path: path)
    try migrator(upTo: 1).migrate(db, now: now)
    try db.execute(
      "UPDATE schema_migrations SET checksum = ? WHERE version = 1",
      [String(repeating: "0", count: 64)])
    let error = try #require(throws: MigrationError.self) { try Migrator().migrate(db, now: now) }
    #expect(error == .checksumMismatch(path: path, version: 1, name: Migration.embedded[0].name))
    #expect(error.localizedDescription.contains("does not match"))
    #expect(try db.scalarInt("PRAGMA user_version") == 1)
    #expect(try db.scalarInt("SELECT count(*) FROM schema_migrations") == 1)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(leftovers.filter { $0.contains(".bak-") }.isEmpty)
  }

  @Test func inconsistentHistoryIsRefusedWithoutTrapping() throws {
    let db = try Database(path: folder.file("history.sqlite3"))
    try Migrator().migrate(db, now: now)
    try db.execute("UPDATE schema_migrations SET version = 0 WHERE version = 1")
    #expect(throws: MigrationError.self) { try Migrator().status(of: db) }
    try db.execute("UPDATE schema_migrations SET version = 1 WHERE version = 0")
    try db.execute("DELETE FROM schema_migrations WHERE version = 1")
    let error = try #require(throws: MigrationError.self) { try Migrator().status(of: db) }
    guard case .inconsistentHistory = error else {
      Issue.record("expected inconsistentHistory, got \(error)")
      return
    }
  }

  // MARK: - Failure and concurrency

  @Test func failingMigrationRollsBackCompletely() throws {
    let first = Migration(
      version: 1, name: "first", sql: "CREATE TABLE first (x INTEGER NOT NULL) STRICT;")
    let broken = Migration(
      version: 2, name: "broken",
      sql: "CREATE TABLE second (y INTEGER) STRICT;\nINSERT INTO no_such_table VALUES (1);")
    let path = folder.file("broken.sqlite3")
    let db = try Database(path: path)
    try Migrator(migrations: [first]).migrate(db, now: now)
    try db.execute("INSERT INTO first (x) VALUES (42)")

    let error = try #require(throws: SQLiteError.self) {
      try Migrator(migrations: [first, broken]).migrate(db, now: now)
    }
    #expect(error.message.contains("no_such_table"))
    #expect(!db.isInTransaction)
    #expect(try !tables(db).contains("second"))
    #expect(try db.scalarInt("SELECT count(*) FROM schema_migrations WHERE version = 2") == 0)
    #expect(try db.scalarInt("PRAGMA user_version") == 1)
    #expect(try db.scalarInt("SELECT x FROM first") == 42)
  }

  @Test func failingFirstMigrationLeavesANewFileEmpty() throws {
    let broken = Migration(
      version: 1, name: "broken", sql: "CREATE TABLE a (x INTEGER) STRICT;\nSELECT nonsense(;")
    let db = try Database(path: folder.file("empty.sqlite3"))
    #expect(throws: SQLiteError.self) { try Migrator(migrations: [broken]).migrate(db) }
    #expect(try tables(db).isEmpty)  // not even schema_migrations
    #expect(try db.scalarInt("PRAGMA user_version") == 0)
  }

  @Test func connectionsMigratingANewFileAtOnceAllSucceed() async throws {
    let latest = try Migrator().latestVersion
    for round in 0..<5 {
      let path = folder.file("race-\(round).sqlite3")
      let outcomes = try await withThrowingTaskGroup(of: Migrator.Outcome.self) { group in
        for _ in 0..<3 {
          group.addTask { try Migrator().migrate(try Database(path: path)) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      // Each migration ran exactly once, and nobody backed up the new file.
      #expect(outcomes.map(\.applied.count).reduce(0, +) == latest)
      #expect(outcomes.allSatisfy { $0.backupPath == nil })
      let db = try Database(path: path)
      #expect(try db.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(latest))
      #expect(try db.scalarInt("PRAGMA user_version") == Int64(latest))
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.filter { $0.contains(".bak-") }.isEmpty)
  }
}

/// Runs a program and returns its standard output.
func runTool(_ path: String, _ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

// MARK: - Foreign keys during migrations

extension MigratorTests {
  /// A parent table with children that cascade, as market_snapshots and its quotes.
  static let parentAndChildren = Migration(
    version: 1, name: "parent_and_children",
    sql: """
      CREATE TABLE parent (id INTEGER PRIMARY KEY, label TEXT NOT NULL) STRICT;
      CREATE TABLE child (
        id INTEGER PRIMARY KEY,
        parent_id INTEGER NOT NULL REFERENCES parent (id) ON DELETE CASCADE
      ) STRICT;
      """)

  func databaseWithChildren() throws -> Database {
    let db = try Database(path: folder.file("cascade.sqlite3"))
    try Migrator(migrations: [Self.parentAndChildren]).migrate(db, now: now)
    try db.execute("INSERT INTO parent VALUES (1, 'a'), (2, 'b')")
    try db.execute("INSERT INTO child VALUES (10, 1), (11, 1), (12, 2)")
    return db
  }

  /// SQLite's documented way to change a table (create, copy, drop, rename) must not
  /// cascade-delete the rows that point at it: migrations run with foreign keys off.
  @Test func rebuildingAParentTableKeepsItsChildren() throws {
    let db = try databaseWithChildren()
    let rebuild = Migration(
      version: 2, name: "rebuild_parent",
      sql: """
        CREATE TABLE parent_new (id INTEGER PRIMARY KEY, label TEXT NOT NULL, note TEXT) STRICT;
        INSERT INTO parent_new (id, label) SELECT id, label FROM parent;
        DROP TABLE parent;
        ALTER TABLE parent_new RENAME TO parent;
        """)
    try Migrator(migrations: [Self.parentAndChildren, rebuild]).migrate(
      db, now: now, keepingBackup: false)
    #expect(try db.scalarInt("SELECT count(*) FROM child") == 3)
    #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)  // on again afterwards
    #expect(try db.scalarInt("PRAGMA user_version") == 2)
  }

  /// A migration that would leave rows pointing nowhere is refused before it commits.
  @Test func aMigrationThatBreaksForeignKeysIsRolledBack() throws {
    let db = try databaseWithChildren()
    let breaking = Migration(
      version: 2, name: "drop_a_parent", sql: "DELETE FROM parent WHERE id = 2;")
    #expect(
      throws: MigrationError.foreignKeysBroken(version: 2, rows: ["child row 12 → parent"])
    ) {
      try Migrator(migrations: [Self.parentAndChildren, breaking]).migrate(
        db, now: now, keepingBackup: false)
    }
    #expect(try db.scalarInt("SELECT count(*) FROM parent") == 2)
    #expect(try db.scalarInt("SELECT count(*) FROM child") == 3)
    #expect(try db.scalarInt("PRAGMA user_version") == 1)
    #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
  }
}
