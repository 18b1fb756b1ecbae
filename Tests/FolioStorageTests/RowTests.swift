import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// Columns are read by name and a NULL or a value of another type in a non-optional column
/// throws, naming the column and the SQL.
@Suite struct RowTests {
  /// What every error about a column folio cannot read ends with.
  static let fix = " ('folio db check' names the rows to fix)"

  let folder = TemporaryFolder()

  func open() throws -> Database {
    let db = try Database(path: folder.file("rows.sqlite3"))
    _ = try Migrator().migrate(db, keepingBackup: false)
    return db
  }

  /// The error `read` throws, or nil when it throws none.
  func failure<T>(_ read: () throws -> T) -> SQLiteError? {
    do {
      _ = try read()
      return nil
    } catch {
      return error as? SQLiteError
    }
  }

  /// `difference` compares values exactly as folio stores them: a decimal by its canonical
  /// text (1.50 is not 1.5), an integer by value, a Bool as 0 or 1, NULL as NULL; the first
  /// column that differs is named with both texts.
  @Test func differenceNamesTheFirstColumnNotStoredAsFolioWouldStoreIt() throws {
    let db = try Database(path: folder.file("difference.sqlite3"))
    try db.execute(
      "CREATE TABLE t (k INTEGER, d TEXT, i INTEGER, b INTEGER, n TEXT, s TEXT) STRICT")
    try db.execute("INSERT INTO t VALUES (7, '1.50', 42, 1, NULL, 'héllo')")
    func difference(_ body: (Row) -> StoredDifference?) throws -> StoredDifference? {
      try db.row("SELECT * FROM t", [], body) ?? nil
    }
    let (none, oneAndAHalf): (String?, ExactDecimal) = (nil, try ExactDecimal(parsing: "1.5"))
    #expect(try difference { $0.difference(from: 1, "1.50", 42, true, none, "héllo") } == nil)
    #expect(
      try difference { $0.difference(from: 1, oneAndAHalf, 42, true, none, "héllo") }
        == StoredDifference(column: "d", stored: "1.50", expected: "1.5"))
    #expect(
      try difference { $0.difference(from: 2, Int64(42), false) }
        == StoredDifference(column: "b", stored: "1", expected: "0"))
    #expect(
      try difference { $0.difference(from: 4, "NULL") }
        == StoredDifference(column: "n", stored: "NULL", expected: "NULL"))
    #expect(
      try difference { $0.difference(from: 5, "hello") }
        == StoredDifference(column: "s", stored: "héllo", expected: "hello"))
    try db.execute("UPDATE t SET d = '1.5'")
    #expect(try difference { $0.difference(from: 1, oneAndAHalf) } == nil)
  }

  @Test func readsEveryTypeByNameAndOptionalNULLAsNil() throws {
    let db = try open()
    let row = try #require(
      try db.row("SELECT 7 AS i, 2.5 AS r, 'text' AS s, '1.50' AS d, NULL AS n, 1 AS b") {
        (
          try $0["i"] as Int64, try $0["i"] as Int, try $0["r"] as Double, try $0["s"] as String,
          try $0["d"] as ExactDecimal, try $0["n"] as String?, try $0["b"] as Bool,
          try $0["s"] as String?
        )
      })
    #expect(row.0 == 7 && row.1 == 7 && row.2 == 2.5 && row.3 == "text")
    #expect(row.4 == (try ExactDecimal(parsing: "1.5")) && row.5 == nil && row.6 && row.7 == "text")
  }

  /// Text is bound as a C string when it holds no NUL (so SQLite's copy is terminated), and
  /// with its length when it does: every text comes back whole, byte for byte, as TEXT.
  @Test func boundTextIsStoredWhole() throws {
    let db = try open()
    try db.execute("CREATE TABLE t (v)")
    let texts = [
      "abc", "", "a\u{0}b", "\u{0}", "é€😀", String(repeating: "long text ", count: 500),
      "2024-01-03T10:00:00Z (more than fifteen bytes)",
    ]
    for text in texts {
      try db.execute("DELETE FROM t")
      try db.execute("INSERT INTO t VALUES (?)", [text])
      let stored = try #require(
        try db.row("SELECT v, length(CAST(v AS BLOB)) AS bytes, typeof(v) AS type FROM t") {
          (try $0["v"] as String, try $0["bytes"] as Int, try $0["type"] as String)
        })
      #expect(stored.0 == text && stored.1 == text.utf8.count && stored.2 == "text", "\(text)")
    }
    for (decimal, text) in [
      ("-12.50", "-12.5"), ("0", "0"),
      ("123456789012345678.000000000000000001", "123456789012345678.000000000000000001"),
    ] {
      try db.execute("DELETE FROM t")
      try db.execute("INSERT INTO t VALUES (?)", [try ExactDecimal(parsing: decimal)])
      #expect(try db.scalar("SELECT v || '|' || length(v) FROM t") == "\(text)|\(text.count)")
    }
  }

  /// An enum column decodes only from the exact text of one of its cases.
  @Test func anEnumDecodesOnlyFromTheExactTextOfACase() throws {
    let db = try open()
    let sides = try #require(
      try db.row("SELECT 'buy' AS a, 'sell' AS b, 'withdrawal' AS c") {
        (try $0["a"] as TradeSide, try $0["b"] as TradeSide, try $0["c"] as TradeKind)
      })
    #expect(sides.0 == .buy && sides.1 == .sell && sides.2 == .withdrawal)
    for text in ["bu", "buyer", "Buy", "", "buy\u{0}"] {
      #expect(
        failure { try db.row("SELECT ? AS s", [text]) { try $0["s"] as TradeSide } } != nil,
        "\(text)")
    }
  }

  @Test func nullInANonOptionalColumnThrowsNamingTheColumnAndTheSQL() throws {
    let db = try open()
    let error = try #require(
      failure { try db.row("SELECT NULL AS quantity") { try $0["quantity"] as ExactDecimal } })
    #expect(error.extendedCode == SQLITE_MISMATCH)
    #expect(error.message == "column quantity holds NULL, not a decimal as TEXT" + Self.fix)
    #expect(error.description.contains("while executing `SELECT NULL AS quantity`"))
  }

  @Test func aValueOfAnotherTypeThrowsEvenForAnOptional() throws {
    let db = try open()
    #expect(
      failure { try db.row("SELECT 5 AS name") { try $0["name"] as String } }?.message
        == "column name holds an INTEGER, not TEXT" + Self.fix)
    #expect(
      failure { try db.row("SELECT 'x' AS id") { try $0["id"] as Int64? } }?.message
        == "column id holds TEXT, not an INTEGER or NULL" + Self.fix)
    #expect(
      failure { try db.row("SELECT 'abc' AS price") { try $0["price"] as ExactDecimal } }?
        .message.hasPrefix("column price holds a value folio cannot read: 'abc' is not a valid")
        == true)
    #expect(
      failure { try db.row("SELECT 'short' AS side") { try $0["side"] as TradeSide } }?.message
        == "column side holds TEXT, not one of buy, sell" + Self.fix)
    #expect(
      failure { try db.row("SELECT 1 AS a") { try $0["b"] as Int } }?.message
        == "no result column named b")
  }

  /// A record no longer fills a NULL with a default ("usd", .fifo, 0, ""): a temporary table
  /// shadowing `portfolios` stands in for a damaged file.
  @Test func aRecordWithANullColumnThrowsInsteadOfDefaulting() throws {
    let db = try open()
    try db.execute(
      """
      CREATE TEMP TABLE portfolios (id, name, currency, method, created_at);
      INSERT INTO temp.portfolios VALUES (1, 'main', NULL, 'fifo', '2024-01-01T00:00:00Z');
      """)
    let error = try #require(failure { try Portfolio.all(db) })
    #expect(error.message == "column currency holds NULL, not TEXT" + Self.fix)
    try db.execute("UPDATE temp.portfolios SET currency = 'usd', method = 'fifth'")
    #expect(
      failure { try Portfolio.all(db) }?.message
        == "column method holds TEXT, not one of fifo, lifo, hifo, average" + Self.fix)
  }

  @Test func scalarsRefuseAnotherType() throws {
    let db = try open()
    #expect(try db.scalarInt("SELECT NULL") == nil)
    #expect(try db.scalarInt("SELECT 1 WHERE 0") == nil)
    #expect(failure { try db.scalarInt("SELECT 'seven'") }?.extendedCode == SQLITE_MISMATCH)
  }
}
