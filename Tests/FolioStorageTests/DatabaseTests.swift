import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

@Suite struct DatabaseTests {
  let folder = TemporaryFolder()

  func open(_ name: String = "test.sqlite3", busyTimeout: Int32 = 5_000) throws -> Database {
    try Database(path: folder.file(name), busyTimeout: busyTimeout)
  }

  @Test func bindsAndReadsEveryType() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
    try db.execute(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
      [Int64.max, 2.5, "héllo 'quoted'", SQLValue.blob([0, 1, 255]), SQLValue.null])
    let row = try #require(
      try db.row("SELECT i, r, s, b, n FROM t") { ($0[0], $0[1], $0[2], $0[3], $0[4]) })
    #expect(row.0 == .integer(Int64.max))
    #expect(row.1 == .real(2.5))
    #expect(row.2 == .text("héllo 'quoted'"))
    #expect(row.3 == .blob([0, 1, 255]))
    #expect(row.4 == .null)
  }

  @Test func checkConstraintsAreSkippedOnlyInsideTheOutermostBody() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x TEXT CHECK (x GLOB '[0-9]*')) STRICT")
    try db.ignoringCheckConstraints {
      try db.ignoringCheckConstraints { try db.execute("INSERT INTO t VALUES ('inner')") }
      // The inner body ended: the constraints stay off until the outer one ends.
      try db.execute("INSERT INTO t VALUES ('outer')")
    }
    #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES ('after')") }
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 2)
    let failed = "CHECK constraint failed in t"
    #expect(try db.integrityProblems() == [failed, failed])
    // Beside other work, on a second connection: the same problems, and the work's result.
    let (problems, count) = db.onSecondConnection(
      { try $0.integrityProblems() }, while: { try db.scalarInt("SELECT count(*) FROM t") })
    #expect(try problems.get() == [failed, failed])
    #expect(try count.get() == 2)
  }

  /// `concurrently` runs both sides at once: each waits for the other to have started, which
  /// one after the other would not finish (each gives up after ten seconds). Each side's
  /// outcome comes back on its own, an error included.
  @Test func concurrentlyRunsBothSidesAtOnce() throws {
    let (toBody, toBackground) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let (background, body) = concurrently(
      {
        toBody.signal()
        return toBackground.wait(timeout: .now() + 10) == .success
      },
      while: {
        toBackground.signal()
        return toBody.wait(timeout: .now() + 10) == .success
      })
    #expect(try background.get())
    #expect(try body.get())

    let failure = SQLiteError(extendedCode: SQLITE_ERROR, message: "failed", sql: nil)
    let (failed, value) = concurrently({ () throws -> Int in throw failure }, while: { 2 })
    #expect(throws: SQLiteError.self) { try failed.get() }
    #expect(try value.get() == 2)
  }

  @Test func prepareFirstSplitsOffTheRestByBytesNotCharacters() throws {
    let db = try open()
    let first = try db.prepareFirst("SELECT 'héllo', 2; SELECT 3 -- more")
    let statement = try #require(first.statement)
    #expect(statement.sql == "SELECT 'héllo', 2;")
    #expect(first.rest == " SELECT 3 -- more")
    #expect(statement.columnCount == 2)
    #expect(try statement.rows { try $0["'héllo'"] as String } == ["héllo"])
    let second = try db.prepareFirst(first.rest)
    #expect(second.statement?.sql == " SELECT 3 -- more")
    #expect(second.rest.isEmpty)

    let comments = try db.prepareFirst("  -- nothing\n /* here */ ")
    #expect(comments.statement == nil)
    #expect(try db.prepareFirst("").statement == nil)
    let error = try #require(throws: SQLiteError.self) { try db.prepareFirst("SELEC 1") }
    #expect(error.message == "near \"SELEC\": syntax error")
  }

  @Test func configuresEveryConnection() throws {
    let db = try open()
    #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
    #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try db.scalarInt("PRAGMA synchronous") == 2)
  }

  /// A file folio makes (or finds empty) gets 16 KiB pages; a database made with another size,
  /// by an older folio or the sqlite3 CLI, keeps its own, and folio writes to it as before.
  @Test func newDatabasesGetLargerPagesAndOldOnesKeepTheirs() throws {
    #expect(try open("new.sqlite3").pageSize == 16_384)
    FileManager.default.createFile(atPath: folder.file("empty.sqlite3"), contents: Data())
    #expect(try open("empty.sqlite3").pageSize == 16_384)

    let old = folder.file("old.sqlite3")
    let made = try Database(path: old, .init(writeAheadLog: false))
    try made.execute("PRAGMA page_size = 4096; CREATE TABLE t (x INTEGER)")
    let reopened = try open("old.sqlite3")
    try reopened.execute("INSERT INTO t VALUES (1)")
    #expect(try reopened.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try reopened.pageSize == 4_096)
    #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 1)
  }

  /// A connection whose file was removed, or replaced by another, refuses to write, whether
  /// that happened before its transaction or while it ran (a long import): in WAL the rows
  /// would go to a file no path names any more, or, the file replaced, into the WAL the new
  /// file is read with.
  @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
  func aWriteToAFileRemovedOrReplacedMeanwhileIsRefused(replaced: Bool, whileWriting: Bool)
    throws
  {
    let path = folder.file("moved.sqlite3")
    do { try Database(path: path).execute("CREATE TABLE t (x INTEGER)") }
    do {
      let db = try Database(path: path)
      #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
      func move() throws {
        Database.removeFiles(of: path)
        if replaced { try Database(path: path).execute("CREATE TABLE t (x INTEGER)") }
      }
      if !whileWriting { try move() }
      let error = #expect(throws: FileError.self) {
        try db.write {
          try db.execute("INSERT INTO t VALUES (1)")
          if whileWriting { try move() }
        }
      }
      #expect(error == .moved(path: path))
      #expect(
        error?.localizedDescription
          == "the database file at \(path) was removed or replaced while this command had it "
          + "open; nothing was written")
      #expect(!db.isInTransaction)
    }
    if replaced {
      #expect(try Database(path: path).scalarInt("SELECT count(*) FROM t") == 0)
    } else {
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  /// SQLite counts the cache in pages, reckoned from the page size when the cache was set: a
  /// new file's larger pages must not make the cache four times the size asked for.
  @Test func theCacheKeepsItsSizeInBytesWhenANewFileGetsLargerPages() throws {
    var configuration = Database.Configuration(writeAheadLog: false)
    configuration.cacheKiB = 1_024
    let db = try Database(path: folder.file("cache.sqlite3"), configuration)
    try db.enableWriteAheadLog()
    #expect(try db.pageSize == 16_384)
    try db.execute("CREATE TABLE t (b BLOB)")
    try db.execute("BEGIN")
    for _ in 0..<512 { try db.execute("INSERT INTO t VALUES (zeroblob(16000))") }
    var (used, highest): (Int32, Int32) = (0, 0)
    #expect(sqlite3_db_status(db.handle, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0) == 0)
    try db.execute("COMMIT")
    #expect(used > 512 * 1_024, "\(used)")  // the cache filled…
    #expect(used < 1_280 * 1_024, "\(used)")  // …up to about the 1 MiB asked for
  }

  @Test func oneConfigurationHoldsEverySetting() throws {
    var configuration = Database.Configuration(busyTimeout: 1_234, writeAheadLog: false)
    (configuration.synchronous, configuration.foreignKeys) = (.normal, false)
    configuration.cacheKiB = 1_000
    let db = try Database(path: folder.file("configured.sqlite3"), configuration)
    #expect(db.configuration == configuration)
    #expect(db.busyTimeout == 1_234)
    #expect(try db.scalarInt("PRAGMA foreign_keys") == 0)
    #expect(try db.scalarText("PRAGMA journal_mode") == "delete")
    #expect(try db.scalarInt("PRAGMA synchronous") == 1)
    #expect(try db.scalarInt("PRAGMA cache_size") == -1_000)
    #expect(try db.scalarInt("PRAGMA query_only") == 0)
    let reader = try Database(
      path: folder.file("configured.sqlite3"), .init(mode: .readOnly, busyTimeout: 0))
    #expect(reader.configuration.readOnly)
    #expect(try reader.scalarInt("PRAGMA query_only") == 1)
  }

  @Test func newFileIsPrivate() throws {
    let path = folder.file("nested/deeper/private.sqlite3")
    _ = try Database(path: path)
    let file = try FileManager.default.attributesOfItem(atPath: path)
    let dir = try FileManager.default.attributesOfItem(atPath: folder.file("nested/deeper"))
    #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect((dir[.posixPermissions] as? NSNumber)?.intValue == 0o700)
  }

  @Test func constraintErrorCarriesExtendedCodeAndSQL() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER NOT NULL UNIQUE)")
    try db.execute("INSERT INTO t VALUES (1)")
    let error = try #require(throws: SQLiteError.self) {
      try db.execute("INSERT INTO t VALUES (?)", [1])
    }
    #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.category == .constraint)
    #expect(error.sql == "INSERT INTO t VALUES (?)")
    #expect(error.description.hasPrefix("SQLite error 2067 (constraint): UNIQUE constraint"))
  }

  @Test func throwingTransactionLeavesNoTraceAndRethrowsFirstError() throws {
    struct Boom: Error {}
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    #expect(throws: Boom.self) {
      try db.write {
        try db.execute("INSERT INTO t VALUES (1)")
        throw Boom()
      }
    }
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    #expect(!db.isInTransaction)
  }

  @Test func transactionReturningRollbackUndoesItsWorkWithoutAnError() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    let answer = try db.transaction {
      try db.execute("INSERT INTO t VALUES (1)")
      return (42, .rollback)
    }
    #expect(answer == 42)
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    #expect(!db.isInTransaction)
    try db.transaction {
      try db.execute("INSERT INTO t VALUES (2)")
      return ((), .commit)
    }
    #expect(try db.rows("SELECT x FROM t") { try $0["x"] as Int64 } == [2])
  }

  @Test func innerRollbackKeepsTheOuterWork() throws {
    struct Boom: Error {}
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    try db.write {
      try db.execute("INSERT INTO t VALUES (1)")
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (2)")
        return ((), .rollback)
      }
      #expect(throws: Boom.self) {
        try db.write {
          try db.execute("INSERT INTO t VALUES (3)")
          throw Boom()
        }
      }
      try db.write {
        try db.execute("INSERT INTO t VALUES (4)")
        try db.transaction {
          try db.execute("INSERT INTO t VALUES (5)")
          return ((), .rollback)
        }
      }
      #expect(db.isInTransaction)
    }
    #expect(try db.rows("SELECT x FROM t ORDER BY x") { try $0["x"] as Int64 } == [1, 4])
    #expect(!db.isInTransaction)
  }

  @Test func outerRollbackUndoesCommittedInnerWork() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    try db.transaction {
      try db.write { try db.execute("INSERT INTO t VALUES (1)") }
      return ((), .rollback)
    }
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
  }

  @Test func twoConnectionsWritingAtOnceBothSucceed() async throws {
    let path = folder.file("shared.sqlite3")
    let setup = try Database(path: path)
    try setup.execute("CREATE TABLE t (x INTEGER)")
    // Each task opens its own connection; the busy timeout makes the second writer wait.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<2 {
        group.addTask {
          let db = try Database(path: path)
          for index in 0..<50 {
            try db.write {
              try db.execute("INSERT INTO t VALUES (?)", [worker * 1000 + index])
              usleep(200)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try setup.scalarInt("SELECT count(*) FROM t") == 100)
  }

  @Test func busyWithoutTimeoutIsReportedAsBusy() throws {
    let path = folder.file("busy.sqlite3")
    let holder = try Database(path: path)
    try holder.execute("CREATE TABLE t (x INTEGER)")
    try holder.execute("BEGIN IMMEDIATE")
    defer { try? holder.execute("ROLLBACK") }
    let other = try Database(path: path, busyTimeout: 50)
    let error = try #require(throws: SQLiteError.self) {
      try other.write { try other.execute("INSERT INTO t VALUES (1)") }
    }
    #expect(error.isBusy)
  }

  @Test func readOnlyConnectionRefusesWrites() throws {
    let path = folder.file("ro.sqlite3")
    try Database(path: path).execute("CREATE TABLE t (x INTEGER)")
    let db = try Database(path: path, mode: .readOnly)
    #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
  }

  @Test func emptyBlobStaysAnEmptyBlob() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (b BLOB)")
    try db.execute("INSERT INTO t VALUES (?)", [SQLValue.blob([])])
    #expect(try db.scalarText("SELECT typeof(b) FROM t") == "blob")
    #expect(try db.row("SELECT b FROM t") { $0[0] } == .blob([]))
  }

  @Test func emptyTextStaysEmptyText() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (s TEXT)")
    try db.execute("INSERT INTO t VALUES (?)", [""])
    // Text given as a buffer without storage: a nil pointer would bind NULL.
    struct NoBytes: SQLBindable {
      var sqlValue: SQLValue { .text("") }
      func append(to arguments: inout Arguments) {
        arguments.append(text: UnsafeBufferPointer(start: nil, count: 0))
      }
    }
    try db.execute("INSERT INTO t VALUES (?)", [NoBytes()])
    try db.prepare("INSERT INTO t VALUES (?)").run(NoBytes())
    #expect(try db.scalarText("SELECT group_concat(typeof(s)) FROM t") == "text,text,text")
    #expect(try db.scalarInt("SELECT count(*) FROM t WHERE s = ''") == 3)
  }

  /// `run` writes its values' text into one buffer it keeps between runs and lets SQLite read
  /// them there: each row must hold its own values, whatever the lengths before it.
  @Test func runStoresEachRowsOwnValuesWhateverRanBefore() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (n INTEGER, s TEXT, d TEXT, b BLOB, o TEXT) STRICT")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
    // Longer than the buffer kept between runs (`Arguments.keptCapacity`).
    let long = String(repeating: "₿", count: 30_000)
    let rows: [(Int64, String, ExactDecimal, [UInt8], String?)] = [
      (
        1, long, try ExactDecimal(parsing: "-123456789012345678901.123456789012345678"), [1, 2, 3],
        nil
      ),
      (2, "a\u{0}b", .zero, [], "x"),
      (3, "", try ExactDecimal(parsing: "0.5"), [0], long),
      (4, "short", try ExactDecimal(parsing: "7"), [255], ""),
    ]
    for row in rows {
      try insert.run(row.0, row.1, row.2, SQLValue.blob(row.3), row.4)
    }
    let stored = try db.rows(
      "SELECT n, s, d, b, o, typeof(o), length(CAST(s AS BLOB)) FROM t ORDER BY n"
    ) { row in (0..<7).map { row[Int32($0)] } }
    #expect(
      stored
        == rows.map {
          [
            .integer($0.0), .text($0.1), .text($0.2.description), .blob($0.3),
            $0.4.map(SQLValue.text) ?? .null, .text($0.4 == nil ? "null" : "text"),
            .integer(Int64($0.1.utf8.count)),
          ]
        })
  }

  @Test func runWorksOnAStatementLeftMidWayByAStep() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
    let insert = try db.prepare("INSERT INTO t (s) VALUES (?) RETURNING id")
    try insert.bind(["first"])
    #expect(try insert.step())  // a row returned: the statement has not finished
    try insert.run("second")
    #expect(
      try db.rows("SELECT id, s FROM t ORDER BY id") { [$0[0], $0[1]] } == [
        [.integer(1), .text("first")], [.integer(2), .text("second")],
      ])
  }

  @Test func runRefusesTooFewOrTooManyValuesAndWritesNothing() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (a TEXT, b TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
    for attempt in [{ try insert.run("one") }, { try insert.run("one", "two", "three") }] {
      let error = try #require(throws: SQLiteError.self) { try attempt() }
      #expect(error.extendedCode == SQLITE_RANGE)
      #expect(error.message.contains("parameters"))
    }
    try insert.run("one", "two")
    #expect(
      try db.rows("SELECT a, b FROM t") { [$0[0], $0[1]] } == [[.text("one"), .text("two")]])
  }

  @Test func textWithQuotesAndUnicodeRoundTrips() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (s TEXT)")
    let text = "Robert'); DROP TABLE t;-- ₿ 🚀"
    try db.execute("INSERT INTO t VALUES (?)", [text])
    #expect(try db.scalarText("SELECT s FROM t") == text)
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
  }

  @Test func libraryVersionCheckNamesBothVersions() throws {
    try Database.checkLibraryVersion()  // the library the tests run on is new enough
    try Database.checkLibraryVersion(Database.minimumLibraryVersion)
    let error = try #require(throws: FileError.self) {
      try Database.checkLibraryVersion(3_036_000)
    }
    #expect(error == .libraryTooOld(found: "3.36.0", required: "3.37.0"))
    #expect(
      error.localizedDescription
        == "the SQLite library on this system is version 3.36.0, but folio needs 3.37.0 "
        + "or newer; install a newer libsqlite3")
    #expect(Database.versionString(3_040_001) == "3.40.1")
    #expect(Database.versionString(sqlite3_libversion_number()) == Database.libraryVersion)
  }

  @Test func pathUnderARegularFileCannotBeCreated() throws {
    let plain = folder.file("plain")
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: plain))
    for path in [plain + "/x.sqlite3", plain + "/deeper/x.sqlite3"] {
      let error = try #require(throws: FileError.self) { try Database(path: path) }
      #expect(error == .cannotCreate(path: path, reason: "\(plain) is not a folder"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == Data("not a folder".utf8))
  }

  @Test func readOnlyConnectionLeavesTheFileAsItWas() throws {
    // A file made by the sqlite3 shell keeps its rollback journal: inspecting it must not
    // switch it to WAL (that would rewrite its header).
    let path = folder.file("shell.sqlite3")
    _ = DatabaseProbe.run(path, "CREATE TABLE t (x); INSERT INTO t VALUES (7);", create: true)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    do {
      let db = try Database(path: path, mode: .readOnly)
      #expect(try db.scalarInt("SELECT x FROM t") == 7)
      #expect(try db.scalarText("PRAGMA journal_mode") == "delete")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    // A WAL file inspected read-only is left byte for byte as it was, its -wal empty.
    let wal = folder.file("wal.sqlite3")
    try Database(path: wal).execute("CREATE TABLE t (x INTEGER)")
    let written = try Data(contentsOf: URL(fileURLWithPath: wal))
    do { _ = try Database(path: wal, mode: .readOnly).scalarInt("SELECT count(*) FROM t") }
    #expect(try Data(contentsOf: URL(fileURLWithPath: wal)) == written)
    #expect(try Data(contentsOf: URL(fileURLWithPath: wal + "-wal")).isEmpty)
  }

  /// Closing never takes the EXCLUSIVE lock of SQLite's checkpoint-on-close, under which a
  /// reader without a busy handler fails (issue 50): the -wal and -shm stay, and the WAL is
  /// emptied into the file, so the file alone holds what was written.
  @Test func anEmptyWALLeftBesideNoDatabaseDoesNotStopANewOne() throws {
    let path = folder.file("again.sqlite3")
    do { try Database(path: path).execute("CREATE TABLE t (x INTEGER)") }
    unlink(path)  // removed without the empty -wal and the -shm kept beside it
    #expect(try Database(path: path).hasTable("t") == false)
  }

  @Test func closingEmptiesTheWALIntoTheFileAndKeepsTheSideFiles() throws {
    let path = folder.file("kept.sqlite3")
    do {
      let db = try Database(path: path)
      try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (42)")
      try db.execute("PRAGMA wal_autocheckpoint = 0")
      try db.execute("INSERT INTO t VALUES (43)")
      let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      #expect((size ?? 0) > 0)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).isEmpty)
    #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    // The file alone, copied without its side files, holds both rows.
    let copy = folder.file("copy.sqlite3")
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    #expect(DatabaseProbe.run(copy, "SELECT sum(x) FROM t").out == "85\n")
    // A scratch file's connection removes them, as SQLite does by default.
    let scratch = folder.file("scratch.sqlite3")
    do {
      var configuration = Database.Configuration()
      configuration.removesLogOnClose = true
      try Database(path: scratch, configuration).execute("CREATE TABLE t (x INTEGER)")
    }
    #expect(!FileManager.default.fileExists(atPath: scratch + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: scratch + "-shm"))
  }

  @Test func switchingToWALWaitsForAReaderOfTheOldJournal() throws {
    // Opening a rollback-journal file while another connection reads it waits for the reader
    // (busy timeout) before switching the file to WAL, instead of failing.
    let path = folder.file("switch.sqlite3")
    _ = DatabaseProbe.run(path, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", create: true)
    let locked = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      defer { released.signal() }
      guard let reader = try? Database(path: path, mode: .readOnly) else {
        locked.signal()
        return
      }
      try? reader.execute("BEGIN")
      _ = try? reader.scalarInt("SELECT count(*) FROM t")  // holds a shared lock
      locked.signal()
      usleep(300_000)
      try? reader.execute("COMMIT")
    }
    locked.wait()
    let db = try Database(path: path)
    #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try db.scalarInt("SELECT x FROM t") == 1)
    released.wait()
  }

  @Test func backupNeverOverwrites() throws {
    let db = try open()
    let existing = folder.file("taken.sqlite3")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: existing))
    #expect(throws: FileError.alreadyExists(existing)) { try db.backup(to: existing) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("mine".utf8))
  }

  @Test func notADatabaseFailsAtOpen() throws {
    let path = folder.file("junk.sqlite3")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: SQLiteError.self) { try Database(path: path) }
    #expect(error.code == 26)  // SQLITE_NOTADB
  }

  @Test func backupIsAConsistentCopy() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    try db.execute("INSERT INTO t VALUES (1), (2), (3)")
    let copy = folder.file("copy.sqlite3")
    try db.backup(to: copy)
    #expect(try Database(path: copy).scalarInt("SELECT sum(x) FROM t") == 6)
  }

  @Test func backupIsOneFileWithNothingLeftBeside() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    try db.execute("INSERT INTO t VALUES (1)")
    let copy = folder.file("copy.sqlite3")
    try db.backup(to: copy)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names.filter { $0.hasPrefix("copy") } == ["copy.sqlite3"])
    let attributes = try FileManager.default.attributesOfItem(atPath: copy)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func failedBackupLeavesNoFile() throws {
    let db = try open()
    try Data("plain".utf8).write(to: URL(fileURLWithPath: folder.file("plain")))
    #expect(throws: FileError.self) { try db.backup(to: folder.file("plain/copy.sqlite3")) }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!names.contains { $0.contains("copy") || $0.contains("partial") }, "\(names)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("plain"))) == Data("plain".utf8))
  }

  @Test func replacingTheContentIsOneStepForOtherConnections() throws {
    let live = try open("live.sqlite3")
    try live.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)")
    let source = try open("source.sqlite3")
    try source.execute(
      "CREATE TABLE t (x INTEGER); CREATE TABLE u (y TEXT); INSERT INTO t VALUES (7)")
    let reader = try open("live.sqlite3")
    var asideSum: Int64?
    try reader.read {
      #expect(try reader.scalarInt("SELECT sum(x) FROM t") == 3)
      try live.replaceContent(with: source) {
        // The write lock is held: nobody else can write, readers still read the old content.
        let other = try Database(path: live.path, busyTimeout: 0)
        #expect(throws: SQLiteError.self) { try other.execute("BEGIN IMMEDIATE") }
        asideSum = try other.scalarInt("SELECT sum(x) FROM t")
      }
      // A read transaction begun before keeps its snapshot.
      #expect(try reader.scalarInt("SELECT sum(x) FROM t") == 3)
    }
    #expect(asideSum == 3)
    #expect(try reader.scalarInt("SELECT sum(x) FROM t") == 7)
    #expect(try live.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'u'") == 1)
  }

  @Test func replacingTheContentStopsWhenTheCallbackThrows() throws {
    struct Refused: Error {}
    let live = try open("live.sqlite3")
    try live.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
    let source = try open("source.sqlite3")
    try source.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7)")
    #expect(throws: Refused.self) { try live.replaceContent(with: source) { throw Refused() } }
    #expect(try live.scalarInt("SELECT sum(x) FROM t") == 1)
    try live.execute("INSERT INTO t VALUES (2)")  // the write lock was released
    #expect(try live.scalarInt("SELECT sum(x) FROM t") == 3)
  }

  @Test func statementIsReusedInLoops() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (x INTEGER)")
    let insert = try db.prepare("INSERT INTO t VALUES (?)")
    for value in 1...100 { try insert.execute([value]) }
    #expect(try db.scalarInt("SELECT sum(x) FROM t") == 5050)
  }

  @Test func sha256MatchesKnownVectors() {
    #expect(
      SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA256.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}

extension DatabaseTests {
  /// A statement given fewer or more values than it has parameters throws instead of binding
  /// NULL to the rest or ignoring the extra ones.
  @Test func bindingTheWrongNumberOfValuesThrows() throws {
    let db = try open("bind-count.sqlite3")
    try db.execute("CREATE TABLE t (a TEXT, b TEXT)")
    for values: [any SQLBindable] in [["only one"], ["one", "two", "three"], []] {
      #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?, ?)", values) }
    }
    do {
      try db.execute("INSERT INTO t VALUES (?, ?)", ["one"])
    } catch let error as SQLiteError {
      #expect(error.extendedCode == SQLITE_RANGE)
      #expect(error.message == "1 values bound to a statement with 2 parameters")
    }
    try db.execute("INSERT INTO t VALUES (?, ?)", ["one", "two"])
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
  }

  /// Result codes are told apart by name.
  @Test func resultCodesHaveNames() {
    let cases: [(Int32, SQLiteError.Category)] = [
      (SQLITE_BUSY, .busy), (SQLITE_LOCKED, .busy), (SQLITE_READONLY, .readOnly),
      (SQLITE_IOERR | 3 << 8, .ioError), (SQLITE_FULL, .full), (SQLITE_CANTOPEN, .cannotOpen),
      (SQLITE_CORRUPT, .damaged), (SQLITE_NOTADB, .damaged),
      (SQLITE_CONSTRAINT | 1 << 8, .constraint), (SQLITE_AUTH, .denied), (SQLITE_ERROR, .other),
    ]
    for (code, category) in cases {
      #expect(SQLiteError(extendedCode: code, message: "").category == category, "\(code)")
    }
  }
}

@Suite struct LeftoverTests {
  let folder = TemporaryFolder()

  /// A command killed while it copied the database before a migration leaves the copy, its
  /// journal and the copy's creation lock file; the next command opening the database removes
  /// them all. A copy of a live process stays.
  @Test func aKilledCopysFilesAreRemovedWithItsCreationLock() throws {
    let database = folder.file("folio.sqlite3")
    FileManager.default.createFile(atPath: database, contents: Data())
    // No process has this id: above the kernel's largest (4,194,304).
    let dead = "folio.sqlite3.bak-v2-20240101T000000Z.partial-4194305"
    let live = "folio.sqlite3.bak-v2-20240101T000000Z.partial-\(getpid())"
    for name in [dead, dead + "-journal", dead + ".creating", live, live + ".creating"] {
      FileManager.default.createFile(atPath: folder.file(name), contents: Data("x".utf8))
    }
    Database.removeLeftovers(of: database)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["folio.sqlite3", live, live + ".creating"])
  }
}
