import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// `folio db …` end to end through the built binary: stdout, stderr, exit codes and files.
@Suite struct DBCommandTests {
  let sandbox = Sandbox()
  /// A fixed clock for databases built in-process: 2024-11-30T12:00:00Z.
  let now = Date(timeIntervalSince1970: 1_732_968_000)

  var latest: Int { Migration.embedded.count }

  /// Runs the built `folio` with `--db` (after the command, as a user may type it).
  func folio(
    _ arguments: String..., db: String? = nil, environment: [String: String] = [:]
  ) throws -> RunResult {
    try Binary.run(arguments + ["--db", db ?? sandbox.database], environment: environment)
  }

  func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }

  func mode(_ path: String) throws -> Int? {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue
  }

  /// The files in the sandbox, but for the -wal and -shm SQLite keeps beside a database, its
  /// -wal empty.
  func files() throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted()
    for name in names where name.hasSuffix("-wal") {
      #expect(DatabaseProbe.walIsEmpty(beside: sandbox.file(String(name.dropLast(4)))), "\(name)")
    }
    return names.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
  }

  /// "0002_trades" for migration 2.
  func stem(_ migration: Migration) -> String {
    let digits = String(migration.version)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + migration.name
  }

  /// A database at schema `version` holding one setting, built as an older folio would.
  func databaseAtVersion(_ version: Int, path: String? = nil) throws {
    let db = try Database(path: path ?? sandbox.database)
    try Migrator(migrations: Array(Migration.embedded.prefix(version))).migrate(db, now: now)
    try db.execute("INSERT INTO settings (key, value) VALUES ('owner', 'ada')")
  }

  // MARK: - path and migrate

  @Test func pathPrintsTheResolvedFileWithoutCreatingIt() throws {
    let target = sandbox.file("somewhere/else.sqlite3")
    let result = try folio("db", "path", db: target)
    #expect(result.code == 0)
    #expect(result.out == target + "\n")
    #expect(result.err.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("somewhere")))
    let fromEnvironment = try Binary.run(["db", "path"], environment: ["FOLIO_DB": target])
    #expect(fromEnvironment.out == target + "\n")
    let fromXDG = try Binary.run(["db", "path"], environment: ["XDG_DATA_HOME": sandbox.path])
    #expect(fromXDG.out == sandbox.file("folio/folio.sqlite3") + "\n")
  }

  @Test func migrateCreatesAPrivateFileInPrivateFolders() throws {
    let target = sandbox.file("new/nested/folio.sqlite3")
    let result = try folio("db", "migrate", db: target)
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    #expect(result.out == Migration.embedded.map { "applied \(stem($0))\n" }.joined())
    #expect(try mode(target) == 0o600)
    #expect(try mode(sandbox.file("new")) == 0o700)
    #expect(try mode(sandbox.file("new/nested")) == 0o700)
    #expect(
      DatabaseProbe.run(target, "PRAGMA user_version").out
        == "\(latest)\n")
    // The pages of a new database (Database.newFilePageSize), as the sqlite3 CLI reads them.
    #expect(DatabaseProbe.run(target, "PRAGMA page_size").out == "16384\n")

    let again = try folio("db", "migrate", db: target)
    #expect(again.code == 0)
    #expect(again.out == "\(target) is up to date\n")
  }

  @Test func migrateUpgradesAnOlderFileAndNamesTheBackup() throws {
    guard latest >= 2 else { return }
    try databaseAtVersion(1)
    let result = try folio("db", "migrate")
    #expect(result.code == 0)
    #expect(
      result.out == Migration.embedded.dropFirst().map { "applied \(stem($0))\n" }.joined())
    let backups = try files().filter { $0.hasPrefix("folio.sqlite3.bak-v1-") }
    #expect(backups.count == 1)
    let backup = sandbox.file(try #require(backups.first))
    #expect(
      result.err
        == "folio: note: upgraded the database schema; the previous file was saved as \(backup)\n"
    )
    #expect(try mode(backup) == 0o600)
    let old = DatabaseProbe.run(backup, "PRAGMA user_version; SELECT value FROM settings")
    #expect(old.out == "1\nada\n")
    #expect(try sandbox.sqlite("SELECT value FROM settings") == "ada\n")
  }

  // MARK: - status

  @Test func statusAsTextAndJSON() throws {
    #expect(try folio("db", "migrate").code == 0)
    let text = try folio("db", "status")
    #expect(text.code == 0)
    #expect(text.out.hasPrefix("file:           \(sandbox.database)\n"))
    #expect(text.out.contains("schema version: \(latest) (this folio knows \(latest))\n"))
    for migration in Migration.embedded {
      #expect(text.out.contains("  \(stem(migration))  "))
    }
    #expect(text.out.hasSuffix("pending: none\n"))

    let json = try folio("db", "status", "--format", "json")
    #expect(json.code == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect(object["path"] as? String == sandbox.database)
    let size = try FileManager.default.attributesOfItem(atPath: sandbox.database)[.size]
    #expect((object["size_bytes"] as? NSNumber)?.int64Value == (size as? NSNumber)?.int64Value)
    #expect((object["schema_version"] as? NSNumber)?.intValue == latest)
    #expect((object["latest_version"] as? NSNumber)?.intValue == latest)
    #expect(object["sqlite_version"] as? String == Database.libraryVersion)
    let applied = try #require(object["applied"] as? [[String: Any]])
    #expect(applied.compactMap { $0["name"] as? String } == Migration.embedded.map(\.name))
    #expect(applied.compactMap { $0["checksum"] as? String } == Migration.embedded.map(\.checksum))
    #expect((object["pending"] as? [Any])?.isEmpty == true)
  }

  @Test func statusListsPendingMigrationsAndChangesNothing() throws {
    guard latest >= 2 else { return }
    try databaseAtVersion(1)
    let before = bytes(sandbox.database)
    let result = try folio("db", "status", "--format", "json")
    #expect(result.code == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect((object["schema_version"] as? NSNumber)?.intValue == 1)
    #expect(object["pending"] as? [String] == Migration.embedded.dropFirst().map(stem))
    #expect(bytes(sandbox.database) == before)
    #expect(try files() == ["folio.sqlite3"])  // no backup
  }

  @Test func commandsOnAMissingDatabaseExit66AndCreateNothing() throws {
    for command in [["db", "status"], ["db", "check"], ["db", "backup", sandbox.file("c")]] {
      let result = try Binary.run(command + ["--db", sandbox.database])
      #expect(result.code == 66, "\(command)")
      #expect(
        result.err
          == "folio: error: no database at \(sandbox.database); record a trade or run "
          + "'folio db migrate' to create one\n")
      #expect(result.out.isEmpty)
    }
    #expect(try files().isEmpty)
  }

  // MARK: - check

  @Test func checkPassesOnASoundFileAndReportsAForeignKeyViolation() throws {
    #expect(try folio("db", "migrate").code == 0)
    let sound = try folio("db", "check")
    #expect(sound.code == 0)
    #expect(sound.out == "ok\n")

    _ = try sandbox.sqlite(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent_id INTEGER REFERENCES parent (id));
      PRAGMA foreign_keys = OFF;
      INSERT INTO child VALUES (5);
      """)
    let dump = try sandbox.dump()
    let broken = try folio("db", "check")
    #expect(broken.code == 65)
    // The two tables folio did not create are findings too.
    let advice = "undo the change in 'folio db shell' or restore a clean backup"
    #expect(
      broken.out
        == "row 1 of child refers to a missing row of parent\n"
        + "schema: table 'child', which folio did not create; \(advice)\n"
        + "schema: table 'parent', which folio did not create; \(advice)\n")
    #expect(
      broken.err
        == "folio: error: the database check found 3 problem(s): "
        + "row 1 of child refers to a missing row of parent (and 2 more, all listed in the "
        + "output)\n")
    #expect(try sandbox.dump() == dump)
  }

  // MARK: - backup

  @Test func backupWritesAValidCopyAndNeverOverwrites() throws {
    #expect(try folio("db", "migrate").code == 0)
    _ = try sandbox.sqlite("INSERT INTO settings (key, value) VALUES ('owner', 'ada')")
    let copy = sandbox.file("copies/copy.sqlite3")
    let result = try folio("db", "backup", copy)
    #expect(result.code == 0)
    #expect(result.out == "backed up to \(copy)\n")
    #expect(try mode(copy) == 0o600)
    let check = DatabaseProbe.run(
      copy, "PRAGMA integrity_check; PRAGMA user_version; SELECT value FROM settings")
    #expect(check.out == "ok\n\(latest)\nada\n")

    let original = bytes(copy)
    let again = try folio("db", "backup", copy)
    #expect(again.code == 74)
    #expect(
      again.err
        == "folio: error: \(copy) already exists; choose a new file name (nothing was overwritten)\n"
    )
    #expect(bytes(copy) == original)
  }

  @Test func backupIsConsistentWhileAnotherConnectionWrites() throws {
    #expect(try folio("db", "migrate").code == 0)
    let writer = try Database(path: sandbox.database)
    try writer.execute("BEGIN IMMEDIATE")
    try writer.execute("INSERT INTO settings (key, value) VALUES ('uncommitted', 'x')")
    let copy = sandbox.file("copy.sqlite3")
    let result = try folio("db", "backup", copy)
    try writer.execute("COMMIT")
    #expect(result.code == 0)
    let rows = DatabaseProbe.run(copy, "SELECT count(*) FROM settings")
    #expect(rows.out == "0\n")  // the copy holds the last committed state only
    #expect(try sandbox.sqlite("SELECT count(*) FROM settings") == "1\n")
  }

  // MARK: - Refusals and errors

  @Test func unwritableLocationExits74WithTheReason() throws {
    let plain = sandbox.write("plain", "just a file")
    let target = plain + "/folio.sqlite3"
    let result = try folio("db", "migrate", db: target)
    #expect(result.code == 74)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "folio: error: cannot create the database at \(target): \(plain) is not a folder\n")
    #expect(bytes(plain) == Data("just a file".utf8))
  }

  @Test func fileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
    let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    #expect(FileManager.default.createFile(atPath: sandbox.database, contents: junk))
    for command in [["db", "migrate"], ["db", "status"], ["db", "check"]] {
      let result = try Binary.run(command + ["--db", sandbox.database])
      #expect(result.code == 65, "\(command)")
      #expect(
        result.err
          == "folio: error: \(sandbox.database) is not an SQLite database or it is damaged; "
          + "check the path (the file was left untouched)\n")
    }
    #expect(bytes(sandbox.database) == junk)
    #expect(try files() == ["folio.sqlite3"])
  }

  @Test func newerDatabaseExits65AndStaysByteIdentical() throws {
    // One written by a newer folio (WAL), one made in the sqlite3 shell (rollback journal,
    // which a careless open would switch to WAL and so rewrite).
    #expect(try folio("db", "migrate").code == 0)
    _ = try sandbox.sqlite("PRAGMA user_version = \(latest + 1)")
    let shell = sandbox.file("shell.sqlite3")
    _ = DatabaseProbe.run(
      shell, "CREATE TABLE t (x); PRAGMA user_version = \(latest + 5)", create: true)
    for (path, version) in [(sandbox.database, latest + 1), (shell, latest + 5)] {
      let original = bytes(path)
      for command in [["db", "migrate"], ["db", "status"]] {
        let result = try Binary.run(command + ["--db", path])
        #expect(result.code == 65, "\(command) \(path)")
        #expect(
          result.err
            == "folio: error: \(path) has schema version \(version), but this folio knows only "
            + "up to \(latest); upgrade folio to use it (the file was left untouched)\n")
      }
      #expect(bytes(path) == original, "\(path)")
    }
    #expect(try files() == ["folio.sqlite3", "shell.sqlite3"])
  }

  @Test func tamperedChecksumExits65AndChangesNothing() throws {
    #expect(try folio("db", "migrate").code == 0)
    _ = try sandbox.sqlite("UPDATE schema_migrations SET checksum = 'abc' WHERE version = 1")
    let dump = try sandbox.dump()
    let result = try folio("db", "migrate")
    #expect(result.code == 65)
    #expect(result.err.hasPrefix("folio: error: \(sandbox.database): applied migration 1 "))
    #expect(result.err.contains("does not match the one this folio carries"))
    #expect(try sandbox.dump() == dump)
  }

  @Test func lockedDatabaseExits75AfterTheBusyTimeout() throws {
    guard latest >= 2 else { return }
    try databaseAtVersion(1)
    let holder = try Database(path: sandbox.database)
    try holder.execute("BEGIN IMMEDIATE")
    let result = try folio("db", "migrate", environment: ["FOLIO_BUSY_TIMEOUT_MS": "100"])
    try holder.execute("ROLLBACK")
    #expect(result.code == 75)
    #expect(
      result.err
        == "folio: error: the database stayed locked by another process for longer than the "
        + "busy timeout (FOLIO_BUSY_TIMEOUT_MS); try again\n")
    #expect(try holder.scalarInt("PRAGMA user_version") == 1)
    #expect(try files().filter { $0.contains(".bak-") }.isEmpty)
  }

  @Test func usageErrorsGoToStderrWithExit64() throws {
    let result = try Binary.run(["db", "sttus"])
    #expect(result.code == 64)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "folio: error: unknown command 'sttus'; did you mean 'status'?\n"
        + "Usage: folio db <subcommand>\n  See 'folio db --help' for more information.\n")
    let version = try Binary.run(["--version"])
    #expect(version.code == 0)
    #expect(version.out.hasPrefix("folio "))
  }

  // MARK: - The binary itself

  @Test func relocatedBinaryCarriesItsMigrations() throws {
    let folder = sandbox.file("elsewhere")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let copy = try Binary.copy(into: folder)
    let migrate = try Binary.run(
      ["db", "migrate", "--db", "data/folio.sqlite3"], executable: copy, directory: folder)
    #expect(migrate.code == 0)
    #expect(migrate.out == Migration.embedded.map { "applied \(stem($0))\n" }.joined())
    let status = try Binary.run(
      ["--db", "data/folio.sqlite3", "db", "status"], executable: copy, directory: folder)
    #expect(status.code == 0)
    #expect(status.out.contains("schema version: \(latest) (this folio knows \(latest))"))
    #expect(status.out.hasSuffix("pending: none\n"))
    #expect(FileManager.default.fileExists(atPath: folder + "/data/folio.sqlite3"))
  }

  @Test func processesMigratingANewFileAtOnceAllSucceed() throws {
    for round in 0..<4 {
      let target = sandbox.file("race-\(round).sqlite3")
      let results = try Binary.runConcurrently(3, ["db", "migrate", "--db", target])
      #expect(results.map(\.code) == [0, 0, 0], "\(results.map(\.err))")
      // Every migration was applied once, by one of them.
      let lines = results.flatMap { $0.out.split(separator: "\n") }
        .filter { $0.hasPrefix("applied ") }
      #expect(lines.count == latest)
      #expect(
        DatabaseProbe.run(target, "SELECT count(*) FROM schema_migrations")
          .out == "\(latest)\n")
    }
    #expect(try files().filter { $0.contains(".bak-") }.isEmpty)
  }
}
