import CSQLite
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioStorage

/// Rows added to a batch (`BatchedInsert`) are in the database for everything the connection
/// does next, whatever the number of rows; a rollback drops them; a refused row fails.
@Suite struct BatchedInsertTests {
  let folder = TemporaryFolder()

  func database() throws -> Database {
    let db = try Database(path: folder.file("batch.sqlite3"))
    try db.execute("CREATE TABLE t (i INTEGER PRIMARY KEY, s TEXT NOT NULL, d TEXT) STRICT")
    return db
  }

  func rows(_ db: Database) throws -> [[SQLValue]] {
    try db.rows("SELECT i, s, d FROM t ORDER BY i") { row in (0..<row.count).map { row[$0] } }
  }

  @Test(arguments: [
    0, 1, BatchedInsert.rowsPerRun - 1, BatchedInsert.rowsPerRun, 3 * BatchedInsert.rowsPerRun + 5,
  ])
  func aQueryAfterAddingSeesEveryRow(count: Int) throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    var expected: [[SQLValue]] = []
    try db.write {
      for i in 0..<count {
        let decimal = try ExactDecimal(parsing: "\(i).5")
        let note: String? = i % 3 == 0 ? nil : "é\(i)\u{0}x"
        try batch.add(Int64(i), note ?? "", decimal)
        expected.append([.integer(Int64(i)), .text(note ?? ""), .text("\(i).5")])
      }
      // Inside the transaction, before any commit: the rows are there for a query.
      #expect(try db.scalarInt("SELECT count(*) FROM t") == Int64(count))
    }
    #expect(try rows(db) == expected)
  }

  /// A scan read ahead on a second thread (`ReadAhead`) sees the rows added before it too: they
  /// are written before that thread starts stepping, by a batch writer or on this thread.
  @Test(arguments: [false, true])
  func aScanReadAheadAfterAddingSeesEveryRow(writingBehind: Bool) throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    let count = 3 * BatchedInsert.rowsPerRun + 5
    var scanned: [Int64] = []
    try db.write {
      func add() throws {
        for i in 0..<count { try batch.add(Int64(i), "s\(i)", "d") }
        try db.prepare("SELECT i FROM t ORDER BY i").forEachRow(readingAhead: true) {
          scanned.append(try $0["i"])
        }
      }
      if writingBehind { try db.writingBehind { try add() } } else { try add() }
    }
    #expect(scanned == Array(0..<Int64(count)))
  }

  /// While the checks are off (an import), texts are bound by their length: each is stored
  /// byte for byte, a NUL and what follows it included, on the batch writer's thread or not.
  /// Once they are back on, a CHECK refuses a text again.
  @Test(arguments: [false, true])
  func textsBoundWhileChecksAreOffAreStoredWhole(writingBehind: Bool) throws {
    let db = try Database(path: folder.file("checks.sqlite3"))
    try db.execute(
      "CREATE TABLE t (i INTEGER PRIMARY KEY, s TEXT NOT NULL CHECK (s NOT GLOB '*[*]*')) STRICT")
    let batch = try db.prepareBatch("INSERT INTO t (i, s)", columns: 2)
    let texts = ["plain", "a\u{0}b*", "é\u{0}", "", "*"]
    try db.write {
      try db.ignoringCheckConstraints {
        func add() throws {
          for round in 0..<BatchedInsert.rowsPerRun {
            for (index, text) in texts.enumerated() {
              try batch.add(Int64(round * texts.count + index), text)
            }
          }
        }
        if writingBehind { try db.writingBehind(add) } else { try add() }
      }
    }
    let stored = try db.rows(
      "SELECT s, length(CAST(s AS BLOB)) FROM t WHERE i < ? ORDER BY i",
      [
        Int64(texts.count)
      ]
    ) { row -> [SQLValue] in [row[0], row[1]] }
    #expect(stored == texts.map { [.text($0), .integer(Int64($0.utf8.count))] })
    #expect(
      try db.scalarInt("SELECT count(*) FROM t") == Int64(texts.count * BatchedInsert.rowsPerRun))
    // The checks are back (a function such as GLOB reads a text up to its first NUL).
    #expect(throws: SQLiteError.self) {
      try db.write { try db.execute("INSERT INTO t (i, s) VALUES (?, ?)", [Int64(-1), "*\u{0}x"]) }
    }
    try db.write { try db.execute("INSERT INTO t (i, s) VALUES (?, ?)", [Int64(-2), "x\u{0}y"]) }
    #expect(try db.scalarInt("SELECT length(CAST(s AS BLOB)) FROM t WHERE i = -2") == 3)
  }

  @Test func theCommitWritesTheRowsNoQueryAsked() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    try db.write {
      for i in 0..<5 { try batch.add(Int64(i), "x", "y") }
    }
    // Another connection sees what was committed.
    let other = try Database(path: db.path)
    #expect(try other.scalarInt("SELECT count(*) FROM t") == 5)
  }

  @Test func aRollbackDropsTheRowsOfItsLevelOnly() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    try db.write {
      try batch.add(Int64(1), "kept", "a")
      try db.transaction {
        try batch.add(Int64(2), "dropped", "b")
        return ((), .rollback)
      }
      try batch.add(Int64(3), "kept", "c")
    }
    #expect(try db.rows("SELECT i FROM t ORDER BY i") { try $0["i"] as Int64 } == [1, 3])
    // A whole transaction rolled back leaves nothing, and the batch is usable after it.
    try db.transaction {
      for i in 10..<(10 + BatchedInsert.rowsPerRun + 2) { try batch.add(Int64(i), "no", "no") }
      return ((), .rollback)
    }
    try db.write { try batch.add(Int64(4), "kept", "d") }
    #expect(try db.rows("SELECT i FROM t ORDER BY i") { try $0["i"] as Int64 } == [1, 3, 4])
  }

  @Test func aRefusedRowFailsAndTheTransactionWritesNothing() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT OR ROLLBACK INTO t (i, s, d)", columns: 3)
    try db.write { try batch.add(Int64(1), "first", "a") }
    // The same key again, among fewer rows than a run: refused when the next query runs.
    #expect(throws: SQLiteError.self) {
      try db.write {
        try batch.add(Int64(2), "new", "b")
        try batch.add(Int64(1), "again", "c")
        _ = try db.scalarInt("SELECT count(*) FROM t")
      }
    }
    // A whole run of rows with a repeated key: refused by the add that fills it.
    #expect(throws: SQLiteError.self) {
      try db.write {
        for i in 0..<BatchedInsert.rowsPerRun { try batch.add(Int64(100 + i % 2), "x", "y") }
      }
    }
    #expect(try rows(db) == [[.integer(1), .text("first"), .text("a")]])
    #expect(!db.isInTransaction)
  }

  @Test func tooFewOrTooManyValuesAreRefusedAndNotAdded() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    try db.write {
      #expect(throws: SQLiteError.self) { try batch.add(Int64(1), "x") }
      #expect(throws: SQLiteError.self) { try batch.add(Int64(1), "x", "y", "z") }
      try batch.add(Int64(2), "ok", "ok")
    }
    #expect(try rows(db) == [[.integer(2), .text("ok"), .text("ok")]])
  }

  /// The writer's thread calls back every `runsBetweenCalls` runs it wrote (an import into a
  /// new file sends its pages on to the disk then), and the writer is freed when it stops: it
  /// once stayed alive, and with it the new file of a refused import, whose end removes what
  /// the import made.
  @Test func theWriterCallsBackEveryFewRunsAndIsFreedWhenItStops() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    let calls = Mutex(0)
    let runs = 2 * BatchWriter.runsBetweenCalls + 1
    try db.write {
      try db.pending.writingBehind(written: { calls.withLock { $0 += 1 } }) {
        for i in 0..<(runs * BatchedInsert.rowsPerRun + 5) {
          try batch.add(Int64(i), "x", "y")
        }
      }
    }
    #expect(calls.withLock { $0 } == 2)
    #expect(
      try db.scalarInt("SELECT count(*) FROM t") == Int64(runs * BatchedInsert.rowsPerRun + 5))

    weak var stopped: BatchWriter?
    do {
      let writer = try #require(BatchWriter.start())
      stopped = writer
      writer.stop()
    }
    #expect(stopped == nil)
  }

  @Test func writingBehindGivesTheSameRowsAndQueriesWaitForThem() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    let count = 40 * BatchedInsert.rowsPerRun + 7
    try db.write {
      try db.writingBehind {
        for i in 0..<count {
          try batch.add(Int64(i), "row \(i)", String(repeating: "x", count: i % 40))
          // Now and then a query, which must see every row added before it.
          if i % 333 == 0 {
            #expect(try db.scalarInt("SELECT count(*) FROM t") == Int64(i + 1))
          }
        }
      }
    }
    let stored = try rows(db)
    #expect(stored.count == count)
    #expect(
      stored[count - 1] == [
        .integer(Int64(count - 1)), .text("row \(count - 1)"),
        .text(String(repeating: "x", count: (count - 1) % 40)),
      ])
  }

  /// The writer thread writes the decimals' text itself, into buffers the batches reuse: each
  /// row gets its own decimal, exactly, whatever was in the buffer before (a long text, more
  /// than a buffer keeps, then short ones).
  @Test func decimalsWrittenBehindAreEachRowsOwn() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT INTO t (i, s, d)", columns: 3)
    let count = 20 * BatchedInsert.rowsPerRun + 3
    func decimal(_ i: Int) throws -> ExactDecimal {
      let texts = ["-0.000000000000000001", "170141183460469231731.687303715884105727", "0"]
      return try ExactDecimal(parsing: i % 4 < 3 ? texts[i % 4] : "-\(i).\(i)")
    }
    try db.write {
      try db.writingBehind {
        for i in 0..<count {
          let note = i == 5 ? String(repeating: "n", count: 100_000) : "\(i)"
          try batch.add(Int64(i), note, try decimal(i))
        }
      }
    }
    let stored = try db.rows("SELECT i, d FROM t ORDER BY i") {
      (try $0["i"] as Int64, try $0["d"] as String)
    }
    #expect(stored.count == count)
    for (i, text) in stored {
      #expect(text == (try decimal(Int(i)).description), "row \(i)")
    }
  }

  @Test func aRunTheWriterFailsFailsTheTransactionAndTheConnectionStaysUsable() throws {
    let db = try database()
    let batch = try db.prepareBatch("INSERT OR ROLLBACK INTO t (i, s, d)", columns: 3)
    try db.write { try batch.add(Int64(5), "kept", "a") }
    // A full run with key 5 again, written by the writer: the adds after it, or the commit,
    // fail; nothing of the transaction stays.
    #expect(throws: SQLiteError.self) {
      try db.write {
        try db.writingBehind {
          for i in 0..<(20 * BatchedInsert.rowsPerRun) { try batch.add(Int64(i), "x", "y") }
        }
      }
    }
    #expect(try rows(db) == [[.integer(5), .text("kept"), .text("a")]])
    #expect(!db.isInTransaction)
    // Rows added while writing behind in a transaction rolled back are dropped too.
    try db.transaction {
      try db.writingBehind {
        for i in 100..<(100 + 3 * BatchedInsert.rowsPerRun + 1) {
          try batch.add(Int64(i), "no", "no")
        }
      }
      return ((), .rollback)
    }
    try db.write { try batch.add(Int64(6), "after", "b") }
    #expect(try db.rows("SELECT i FROM t ORDER BY i") { try $0["i"] as Int64 } == [5, 6])
  }

  @Test func aLastRunThatFailsWritesNothingElseOnItsOwn() throws {
    let db = try database()
    try db.execute("CREATE TABLE u (i INTEGER PRIMARY KEY) STRICT")
    let batch = try db.prepareBatch("INSERT OR ROLLBACK INTO t (i, s, d)", columns: 3)
    let other = try db.prepareBatch("INSERT INTO u (i)", columns: 1)
    try db.write { try batch.add(Int64(0), "kept", "a") }
    // The body ends with a full run that conflicts (handed to the writer) and rows of another
    // batch not written yet; SQLite ends the transaction with the conflict.
    #expect(throws: SQLiteError.self) {
      try db.write {
        try db.ignoringCheckConstraints {
          try db.writingBehind {
            for i in 0..<3 { try other.add(Int64(i)) }
            for i in 0..<BatchedInsert.rowsPerRun { try batch.add(Int64(i), "x", "y") }
          }
        }
      }
    }
    #expect(try rows(db) == [[.integer(0), .text("kept"), .text("a")]])
    #expect(try db.scalarInt("SELECT count(*) FROM u") == 0)
    #expect(try db.scalarInt("PRAGMA ignore_check_constraints") == 0)
    try db.write { try other.add(Int64(7)) }
    #expect(try db.scalarInt("SELECT count(*) FROM u") == 1)
  }
}
