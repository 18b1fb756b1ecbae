import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// `folio db restore FILE` end to end through the built binary: a checked backup replaces the
/// database in one step and the replaced content is kept aside; a bad file is refused (65) and
/// the database is left exactly as it was.
@Suite struct DBRestoreTests {
  let sandbox = Sandbox()

  func folio(_ arguments: String..., db: String? = nil) throws -> RunResult {
    try Binary.run(arguments, environment: ["FOLIO_DB": db ?? sandbox.database])
  }

  func buy(_ count: Int, note: String, db: String? = nil) throws {
    for index in 0..<count {
      let result = try folio(
        "buy", "bitcoin", "1", "--price", "100", "--note", "\(note) \(index)", db: db)
      try #require(result.code == 0, "\(result.err)")
    }
  }

  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted()
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// The `<db>.replaced-…` files in the sandbox.
  func replaced() throws -> [String] {
    try files().filter { $0.hasPrefix("folio.sqlite3.replaced-") && !$0.hasSuffix("-wal") }
  }

  // MARK: - Restoring

  @Test func restoresABackupAndKeepsTheReplacedContentAside() throws {
    try buy(3, note: "kept")
    let backup = sandbox.file("backup.sqlite3")
    #expect(try folio("db", "backup", backup).code == 0)
    try buy(2, note: "later")

    let result = try folio("db", "restore", backup)
    #expect(result.code == 0, "\(result.err)")
    let latest = try Migrator().latestVersion
    let aside = try #require(try replaced().first)
    #expect(
      result.out
        == "checked \(backup): sound, schema version \(latest)\n"
        + "restored \(backup) into \(sandbox.database)\n"
        + "the replaced database was kept as \(sandbox.file(aside))\n")
    #expect(result.err.isEmpty)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "3\n")
    #expect(try folio("db", "check").out == "ok\n")
    // The aside copy is the content that was replaced, whole and private.
    let asidePath = sandbox.file(aside)
    #expect(
      DatabaseProbe.run(asidePath, "SELECT count(*) FROM trades").out
        == "5\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: asidePath)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    // Nothing else is left behind: no scratch copy, no partial file.
    let others = try files().filter { !$0.hasPrefix("folio.sqlite3") && $0 != "backup.sqlite3" }
    #expect(others.isEmpty, "\(others)")
    #expect(!(try files()).contains { $0.contains(".restore-") || $0.contains(".partial-") })
    // The holdings are derived again from the restored journal.
    let holdings = try folio("holdings", "--format", "csv")
    #expect(holdings.out.contains("\nbitcoin,3,"))
  }

  func restoresWhileOtherProcessesUseTheDatabase() throws {
    try buy(2, note: "kept")
    let backup = sandbox.file("backup.sqlite3")
    #expect(try folio("db", "backup", backup).code == 0)
    try buy(3, note: "later")
    // A shell holding a read transaction and a writer recording buys while the restore runs.
    let reader = try Spawned(
      "/usr/bin/stdbuf", ["-o0", Binary.sqlite3, sandbox.database],
      environment: Binary.environment(), folder: sandbox.path, name: "reader")
    reader.send("BEGIN; SELECT count(*) FROM trades;\n")
    #expect(reader.waitForOutput(lines: 1) == "5\n")
    let writer = try Binary.spawnShell(
      "for i in $(seq 10 29); do \"$FOLIO\" buy bitcoin 1 --price 100 --note \"w $i\" || exit $?; done",
      environment: ["FOLIO_DB": sandbox.database], folder: sandbox.path, name: "writer")
    let restored = try folio("db", "restore", backup)
    let written = writer.wait()
    reader.send("SELECT count(*) FROM trades; COMMIT;\n")
    let counts = reader.wait().out

    #expect(restored.code == 0, "\(restored.err)")
    #expect(written.code == 0, "\(written.err)")
    #expect(counts == "5\n5\n")  // the reader's snapshot was never disturbed
    #expect(try folio("db", "check").out == "ok\n")
    // Every buy is either in the restored database (it came after) or in the aside copy.
    let aside = sandbox.file(try #require(try replaced().first))
    let live = try sandbox.sqlite("SELECT count(*) FROM trades WHERE note LIKE 'w %'")
    let before = DatabaseProbe.run(aside, "SELECT count(*) FROM trades WHERE note LIKE 'w %'").out
    #expect((Int(live.dropLast()) ?? -1) + (Int(before.dropLast()) ?? -1) == 20)
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM trades WHERE note NOT LIKE 'w %'") == "2\n")
  }

  @Test func migratesAnOlderBackupAndLeavesTheFileAsItWas() throws {
    let latest = try Migrator().latestVersion
    guard latest >= 2 else { return }
    let old = sandbox.file("old.sqlite3")
    do {
      let db = try Database(path: old)
      try Migrator(migrations: Array(Migration.embedded.prefix(1))).migrate(db)
      try db.execute("INSERT INTO settings (key, value) VALUES ('owner', 'ada')")
    }
    let before = bytes(old)
    try buy(1, note: "current")

    let result = try folio("db", "restore", old)
    #expect(result.code == 0, "\(result.err)")
    let stems = Migration.embedded.dropFirst().map {
      String(format: "%04d_%@", $0.version, $0.name)
    }
    #expect(result.out.hasPrefix("checked \(old): sound, schema version 1\n"))
    #expect(
      result.out.contains("migrated the restored copy: applied \(stems.joined(separator: ", "))\n"))
    #expect(try sandbox.sqlite("PRAGMA user_version") == "\(latest)\n")
    #expect(try sandbox.sqlite("SELECT value FROM settings") == "ada\n")
    #expect(bytes(old) == before)
    #expect(!(try files()).contains { $0.contains(".bak-") })
  }

  @Test func restoresABackupWithAnotherPageSize() throws {
    try buy(2, note: "kept")
    let backup = sandbox.file("backup.sqlite3")
    #expect(try folio("db", "backup", backup).code == 0)
    _ = DatabaseProbe.run(backup, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM;")
    #expect(DatabaseProbe.run(backup, "PRAGMA page_size").out == "1024\n")
    try buy(1, note: "later")
    let result = try folio("db", "restore", backup)
    #expect(result.code == 0, "\(result.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "2\n")
    #expect(try folio("db", "check").out == "ok\n")
  }

  @Test func restoresIntoAMissingDatabaseOrOverAFileThatIsNotOne() throws {
    let source = sandbox.file("source.sqlite3")
    try buy(2, note: "kept", db: source)
    let fresh = sandbox.file("new/folio.sqlite3")
    let created = try folio("db", "restore", source, db: fresh)
    #expect(created.code == 0, "\(created.err)")
    #expect(!created.out.contains("kept as"))
    #expect(
      DatabaseProbe.run(fresh, "SELECT count(*) FROM trades").out == "2\n")

    let junk = Data("not a database at all, just some text\n".utf8)
    FileManager.default.createFile(atPath: sandbox.database, contents: junk)
    let over = try folio("db", "restore", source)
    #expect(over.code == 0, "\(over.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "2\n")
    let aside = try #require(try replaced().first)
    #expect(over.out.hasSuffix("the replaced database was kept as \(sandbox.file(aside))\n"))
    #expect(bytes(sandbox.file(aside)) == junk)
  }

  // MARK: - Refusals

  @Test func badFilesAreRefusedAndTheDatabaseIsLeftAsItWas() throws {
    try buy(2, note: "kept")
    let liveBytes = bytes(sandbox.database)
    let dump = try sandbox.dump()

    let text = sandbox.write("notes.txt", "hello\n")
    let plain = sandbox.file("plain.sqlite3")
    _ = DatabaseProbe.run(plain, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", create: true)
    let newer = sandbox.file("newer.sqlite3")
    #expect(try folio("db", "backup", newer).code == 0)
    _ = DatabaseProbe.run(newer, "PRAGMA user_version = 999")
    let damaged = sandbox.file("damaged.sqlite3")
    try buy(400, note: "bulk", db: damaged)
    let size = try #require(bytes(damaged)).count
    let handle = try #require(FileHandle(forWritingAtPath: damaged))
    try handle.seek(toOffset: UInt64(size / 3))
    handle.write(Data(repeating: 0x5A, count: size / 3))
    try handle.close()

    let cases: [(String, Int32, String)] = [
      (sandbox.file("missing.sqlite3"), 66, "missing.sqlite3: no such file"),
      ("", 66, "the path is empty; name a backup written by 'folio db backup'"),
      (text, 65, "\(text) is not an SQLite database; nothing was restored"),
      (sandbox.path, 74, "\(sandbox.path) is a directory, not a database file"),
      (plain, 65, "\(plain) is an SQLite database but not a folio one"),
      (newer, 65, "\(newer) has schema version 999, but this folio knows only up to"),
      (damaged, 65, "\(damaged) is damaged ("),
      (sandbox.database, 65, "is the database in use itself"),
    ]
    for (file, code, message) in cases {
      let result = try folio("db", "restore", file)
      #expect(result.code == code, "\(file): \(result.err)")
      #expect(
        result.err.hasPrefix("folio: error: ") && result.err.contains(message), "\(result.err)")
      #expect(result.err.split(separator: "\n").count == 1)
      #expect(result.out.isEmpty)
      #expect(bytes(sandbox.database) == liveBytes, "\(file)")
    }
    #expect(try sandbox.dump() == dump)
    #expect(try replaced().isEmpty)
    #expect(!(try files()).contains { $0.contains(".restore-") || $0.contains(".partial-") })
  }

  /// A backup whose schema is not exactly what folio's migrations create for its version is
  /// refused (65) naming the objects, and the live database stays byte for byte as it was: a
  /// trigger that rewrites every new trade, a replaced v_holdings, extra tables and indexes.
  @Test func aBackupWithASchemaFolioDidNotCreateIsRefused() throws {
    try buy(2, note: "kept")
    let liveBytes = bytes(sandbox.database)
    let tampering: [(String, String)] = [
      (
        "CREATE TRIGGER rewrite AFTER INSERT ON trades BEGIN "
          + "UPDATE trades SET note = 'owned' WHERE id = new.id; END",
        "trigger 'rewrite' on trades, which folio did not create"
      ),
      (
        "DROP VIEW v_holdings; CREATE VIEW v_holdings AS SELECT 'main' AS portfolio, "
          + "'bitcoin' AS coin_id, '0' AS quantity",
        "view 'v_holdings', which differs from the one folio creates"
      ),
      ("CREATE TABLE stash (x)", "table 'stash', which folio did not create"),
      (
        "CREATE INDEX trades_by_note ON trades (note)",
        "index 'trades_by_note' on trades, which folio did not create"
      ),
      ("DROP INDEX \(try firstIndex())", "which folio creates, is missing"),
    ]
    for (index, (sql, message)) in tampering.enumerated() {
      let backup = sandbox.file("tampered-\(index).sqlite3")
      #expect(try folio("db", "backup", backup).code == 0)
      do {
        let db = try Database(
          path: backup, .init(mode: .readWrite, busyTimeout: 1_000, writeAheadLog: false))
        try db.execute(sql)
      }
      let result = try folio("db", "restore", backup)
      #expect(result.code == 65, "\(sql): \(result.err)")
      #expect(
        result.err.hasPrefix("folio: error: \(backup) holds a schema folio did not create: ")
          && result.err.contains(message) && result.err.contains("nothing was restored"),
        "\(result.err)")
      #expect(result.out.isEmpty)
      #expect(bytes(sandbox.database) == liveBytes, "\(sql)")
    }
    #expect(try replaced().isEmpty)
    #expect(!(try files()).contains { $0.contains(".restore-") || $0.contains(".partial-") })
    // SQLite's own statistics (ANALYZE) are not a foreign schema.
    let analyzed = sandbox.file("analyzed.sqlite3")
    #expect(try folio("db", "backup", analyzed).code == 0)
    do {
      let db = try Database(
        path: analyzed, .init(mode: .readWrite, busyTimeout: 1_000, writeAheadLog: false))
      try db.execute("ANALYZE")
    }
    let restored = try folio("db", "restore", analyzed)
    #expect(restored.code == 0, "\(restored.err)")
  }

  /// The name of one index folio's migrations create.
  func firstIndex() throws -> String {
    let db = try Database(path: sandbox.database, mode: .readOnly, busyTimeout: 1_000)
    return try #require(
      try db.scalarText(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"))
  }
}

extension DBRestoreTests {
  /// The tests that run the sqlite3 shell: skipped, saying why, where it is not installed.
  @Suite(.requires(.sqlite3)) struct NeedsSQLite3 {
    @Test func restoresWhileOtherProcessesUseTheDatabase() throws {
      try DBRestoreTests().restoresWhileOtherProcessesUseTheDatabase()
    }
  }
}
