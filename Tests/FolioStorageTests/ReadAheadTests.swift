import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// A scan read ahead (`Statement.forEachRow(_:readingAhead:_:)`) gives the same rows, in the
/// same order, as one stepped on the reading thread; an error from either thread ends it with
/// the statement and the connection usable.
@Suite struct ReadAheadTests {
  let folder = TemporaryFolder()

  /// A table of `count` rows with every storage class, NULLs, empty and long text; more rows
  /// than one batch holds, and not a whole number of batches.
  func table(_ count: Int) throws -> Database {
    let db = try Database(path: folder.file("ahead.sqlite3"))
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
    try db.write {
      let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
      for i in 0..<count {
        let text = i % 7 == 0 ? "" : String(repeating: "é\(i)", count: i % 50)
        try insert.execute([
          Int64(i) - 1000, Double(i) / 8, text, SQLValue.blob(Array(text.utf8.prefix(9))),
          i % 3 == 0 ? SQLValue.null : .integer(Int64(i)),
        ])
      }
    }
    return db
  }

  /// Every row of `sql` as the values `Row.subscript(_:)` reads.
  func rows(_ db: Database, _ sql: String, readingAhead: Bool) throws -> [[SQLValue]] {
    var rows: [[SQLValue]] = []
    try db.prepare(sql).forEachRow(readingAhead: readingAhead) { row in
      rows.append((0..<row.count).map { row[$0] })
    }
    return rows
  }

  @Test func givesTheRowsSteppingGives() throws {
    let count = ReadAhead.batchRows * 3 + 17
    let db = try table(count)
    let sql = "SELECT i, r, s, b, n, 'x' || i AS k FROM t ORDER BY i"
    let ahead = try rows(db, sql, readingAhead: true)
    #expect(ahead.count == count)
    #expect(ahead == (try rows(db, sql, readingAhead: false)))
    #expect(
      ahead[14] == [
        .integer(-986), .real(1.75), .text(""), .blob([]), .integer(14), .text("x-986"),
      ])
    // No rows, and one row.
    #expect(try rows(db, "SELECT * FROM t WHERE i > 1e9", readingAhead: true).isEmpty)
    #expect(
      try rows(db, "SELECT i, s FROM t WHERE i = -999", readingAhead: true) == [
        [.integer(-999), .text("é1")]
      ])
  }

  @Test func decodesByNameAndTypeAsFromTheStatement() throws {
    let db = try table(ReadAhead.batchRows + 1)
    var sum: Int64 = 0
    var texts = 0
    try db.prepare("SELECT n, s, i FROM t").forEachRow(readingAhead: true) { row in
      let n: Int64? = try row["n"]
      sum += n ?? 0
      texts += (try row["s"] as String).count
      if n == nil { #expect(throws: SQLiteError.self) { try row["n"] as Int64 } }
    }
    let expected = try #require(
      try db.row("SELECT sum(n), sum(length(s)) FROM t") {
        (try $0.value(at: 0, named: "n") as Int64, try $0.value(at: 1, named: "s") as Int64)
      })
    #expect(sum == expected.0 && Int64(texts) == expected.1)
  }

  /// The reading thread throws: the scan stops, the error comes out, and the statement runs
  /// again from the start.
  @Test func anErrorFromTheBodyStopsTheScan() throws {
    let db = try table(ReadAhead.batchRows * 4)
    struct Stop: Error {}
    let statement = try db.prepare("SELECT i FROM t ORDER BY i")
    var seen = 0
    #expect(throws: Stop.self) {
      try statement.forEachRow(readingAhead: true) { _ in
        seen += 1
        if seen == 1500 { throw Stop() }
      }
    }
    #expect(seen == 1500)
    var first: Int64?
    try statement.forEachRow(readingAhead: true) { row in
      if first == nil { first = try row["i"] }
    }
    #expect(first == -1000)
    try db.execute("INSERT INTO t (i) VALUES (1)")
  }

  /// SQLite fails mid-way (an integer overflow at one row): the rows before it are read, then
  /// its error comes out.
  @Test func anErrorFromSteppingComesAfterTheRowsBeforeIt() throws {
    let db = try table(ReadAhead.batchRows * 2)
    var seen: [Int64] = []
    let error = #expect(throws: SQLiteError.self) {
      try db.prepare(
        // In rowid order, without a sort (which would compute every row before the first).
        "SELECT CASE WHEN i = 500 THEN abs(-9223372036854775807 - 1) ELSE i END AS v FROM t"
      ).forEachRow(readingAhead: true) { seen.append(try $0["v"]) }
    }
    #expect(error?.message.contains("integer overflow") == true)
    #expect(seen == Array(-1000..<500))
  }

  /// Huge values (typed in by hand) fill a batch by their bytes long before its rows: the
  /// batches waiting stay a few megabytes, and the rows read are the same.
  @Test func aBatchOfHugeValuesIsFullByItsBytes() throws {
    let db = try Database(path: folder.file("huge.sqlite3"))
    try db.execute(
      "CREATE TABLE t (i INTEGER, s TEXT, b BLOB);"
        + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
        + " INSERT INTO t SELECT i, printf('%.*c', 300000, char(64 + i % 26)), zeroblob(i) FROM n")
    let statement = try db.prepare("SELECT i, s, b FROM t ORDER BY i")
    let batch = try #require(RowBatch(width: 3))
    var copied = 0
    while !batch.isFull, try statement.step() {
      #expect(batch.append(statement.handle))
      copied += 1
    }
    // 300,000 bytes a row: the fourth passes a mebibyte.
    #expect(copied == 4 && batch.rows == 4)
    // A value of megabytes grows the buffer; emptied, it goes back to its first size.
    let huge = try db.prepare("SELECT 1, zeroblob(3000000), NULL")
    #expect(try huge.step() && batch.append(huge.handle))
    #expect(batch.capacity >= 3_000_000)
    batch.removeAll()
    #expect(batch.capacity == RowBatch.startBytes && batch.rows == 0)
    let sql = "SELECT i, s, b FROM t ORDER BY i"
    let ahead = try rows(db, sql, readingAhead: true)
    let stepped = try rows(db, sql, readingAhead: false)
    #expect(ahead.count == 40 && ahead == stepped)
    #expect(ahead[39][1] == .text(String(repeating: "N", count: 300_000)))
    #expect(ahead[39][2] == .blob(Array(repeating: 0, count: 40)))
  }

  @Test func storedTextIsRefusedOnACopiedRow() throws {
    let db = try table(3)
    #expect(throws: SQLiteError.self) {
      try db.prepare("SELECT s FROM t").forEachRow(readingAhead: true) {
        _ = try $0.storedText("s")
      }
    }
  }
}
