import Foundation
import Testing

@testable import FolioCLI
@testable import FolioStorage

/// `folio sql`: one read-only statement on a read-only connection, in three formats.
@Suite struct SQLCommandTests {
  let sandbox = Sandbox()

  static let typed =
    "SELECT 1 AS i, 2.5 AS r, 'a,\"b\"' AS t, NULL AS n, x'00ff10' AS b, 1e999 AS inf"

  /// Runs `folio sql ARGS`, expects exit `code` with `message`, and proves nothing changed.
  func expectRefusal(
    _ arguments: [String], code: Int32 = 65, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try sandbox.dump()
    let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted()
    let result = sandbox.run(["sql"] + arguments)
    #expect(result.code == code, "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    #expect(
      result.err.hasPrefix("folio: error: ") && result.err.contains(message),
      "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    #expect(result.out.isEmpty, sourceLocation: sourceLocation)
    #expect(try sandbox.dump() == before, sourceLocation: sourceLocation)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted() == files,
      sourceLocation: sourceLocation)
  }

  @Test func jsonIsAnArrayOfObjectsWithTypedValues() throws {
    try sandbox.buildDemo()
    let result = sandbox.run("sql", Self.typed, "--format", "json")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out
        == """
        [
          {
            "i": 1,
            "r": 2.5,
            "t": "a,\\"b\\"",
            "n": null,
            "b": "AP8Q",
            "inf": 9e999
          }
        ]

        """)
    let empty = sandbox.run("sql", "SELECT * FROM trades WHERE id < 0", "--format", "json")
    #expect(empty.code == 0)
    #expect(empty.out == "[]\n")
  }

  @Test func jsonKeepsExactDecimalsAsStrings() throws {
    try sandbox.buildDemo()
    let result = sandbox.run(
      "sql",
      "SELECT coin_id, quantity, quantity_real FROM v_holdings WHERE portfolio = 'main' "
        + "ORDER BY coin_id", "--format", "json")
    #expect(result.code == 0, "\(result.err)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["quantity"] as? String } == ["0.45", "2", "0"])
    #expect(rows.map { ($0["quantity_real"] as? NSNumber)?.doubleValue } == [0.45, 2, 0])
  }

  @Test func csvAndTextFormats() throws {
    try sandbox.buildDemo()
    let csv = sandbox.run("sql", Self.typed, "--format", "csv")
    #expect(csv.code == 0)
    #expect(csv.out == "i,r,t,n,b,inf\n1,2.5,\"a,\"\"b\"\"\",,00FF10,9e999\n")
    let text = sandbox.run(
      "sql", "SELECT trade_id, side, quantity FROM v_trades WHERE trade_id < 3")
    #expect(text.code == 0)
    #expect(
      text.out
        == """
        trade_id  side  quantity
               1  buy   0.5
               2  buy   0.25

        """)
    let typed = sandbox.run("sql", "SELECT NULL AS n, x'0a' AS b, 'two\nlines' AS t")
    #expect(typed.out == "n     b      t\nNULL  X'0A'  two\\nlines\n")
  }

  @Test func writesAreRefusedBeforeTheyRun() throws {
    try sandbox.buildDemo()
    try expectRefusal(
      ["DELETE FROM trades"],
      message: "'DELETE FROM trades' would write, and folio sql only reads")
    try expectRefusal(["UPDATE settings SET value = 'x'"], message: "would write")
    try expectRefusal(["CREATE TABLE t (x)"], message: "would write")
    try expectRefusal(["PRAGMA user_version = 99"], message: "would write")
    try expectRefusal(["PRAGMA journal_mode = DELETE"], message: "would write")
    try expectRefusal(["VACUUM INTO '\(sandbox.file("copy.sqlite3"))'"], message: "would write")
    try expectRefusal(["/* a comment */ vacuum"], message: "would write")
    try expectRefusal(
      ["ATTACH '\(sandbox.file("other.sqlite3"))' AS other"], message: "would write")
    try expectRefusal(["BEGIN"], message: "folio sql does not allow a transaction")
    try expectRefusal(["PRAGMA wal_checkpoint"], message: "does not allow PRAGMA wal_checkpoint")
    try expectRefusal(["PRAGMA optimize"], message: "does not allow PRAGMA optimize")
    try expectRefusal(["PRAGMA foreign_keys = OFF"], message: "would write")
  }

  /// SQLite's authorizer denies every function not known to be a plain read: fts3_tokenizer
  /// hands out a pointer (and with two arguments would take one), load_extension runs code.
  @Test func functionsThatAreNotPlainReadsAreDenied() throws {
    try sandbox.buildDemo()
    try expectRefusal(
      ["SELECT hex(fts3_tokenizer('simple'))"],
      message: "folio sql does not allow the function fts3_tokenizer()")
    try expectRefusal(
      ["SELECT fts3_tokenizer('simple', x'0000000000000000')"],
      message: "does not allow the function fts3_tokenizer()")
    try expectRefusal(
      ["SELECT load_extension('/tmp/x.so')"],
      message: "does not allow the function load_extension()")
    try expectRefusal(
      ["SELECT coin_id FROM v_holdings WHERE readfile('/etc/passwd') IS NULL"],
      message: "readfile")
    let plain = sandbox.run(
      "sql",
      "SELECT upper('a') AS u, round(2.5) AS r, json_extract('{\"a\":1}', '$.a') AS j, "
        + "'{\"b\":2}' ->> '$.b' AS k, count(*) OVER () AS n, sqrt(16.0) AS s, date('2024-01-02') AS d"
    )
    #expect(plain.code == 0, "\(plain.err)")
    #expect(plain.out == "u    r  j  k  n    s  d\nA  3.0  1  2  1  4.0  2024-01-02\n")
    let view = sandbox.run("sql", "SELECT count(*) AS n FROM v_holdings WHERE portfolio = 'main'")
    #expect(view.code == 0, "\(view.err)")
    #expect(view.out == "n\n3\n")
  }

  /// Pragmas that only report run; the ones above that change something are refused.
  @Test func readOnlyPragmasRun() throws {
    try sandbox.buildDemo()
    let mode = sandbox.run("sql", "PRAGMA journal_mode")
    #expect(mode.code == 0, "\(mode.err)")
    #expect(mode.out == "journal_mode\nwal\n")
    let version = sandbox.run("sql", "PRAGMA user_version", "--format", "csv")
    #expect(version.out == "user_version\n\(try Migrator().latestVersion)\n", "\(version.err)")
    let columns = sandbox.run("sql", "SELECT name FROM pragma_table_info('settings')")
    #expect(columns.out == "name\nkey\nvalue\n", "\(columns.err)")
    try expectRefusal(["UPDATE sqlite_master SET type = 'x'"], message: "may not be modified")
    let info = sandbox.run("sql", "PRAGMA table_info(settings)", "--format", "csv")
    #expect(info.code == 0, "\(info.err)")
    #expect(info.out.hasPrefix("cid,name,type,notnull,dflt_value,pk\n0,key,"))
    let check = sandbox.run("sql", "PRAGMA quick_check")
    #expect(check.out == "quick_check\nok\n", "\(check.err)")
  }

  /// A statement may begin with a comment, in either SQL form, without `--` before it: a word
  /// that starts with "--" and whose would-be option name holds white space is an argument.
  @Test func statementsMayBeginWithAComment() throws {
    try sandbox.buildDemo()
    for sql in ["-- note\nSELECT 1 AS one", "/* x */ SELECT 1 AS one", "--\nSELECT 1 AS one"] {
      let result = sandbox.run("sql", sql)
      #expect(result.code == 0, "\(sql): \(result.err)")
      #expect(result.out == "one\n  1\n", "\(sql)")
      let json = sandbox.run("sql", "--format", "json", sql)
      #expect(json.code == 0, "\(sql): \(json.err)")
    }
    let separated = sandbox.run("sql", "--", "-- note\nSELECT 1 AS one")
    #expect(separated.out == "one\n  1\n", "\(separated.err)")
    // A real option still is one, and a mistyped one is still an error.
    #expect(sandbox.run("sql", "--formt", "json", "SELECT 1").code == 64)
  }

  @Test func exactlyOneValidStatement() throws {
    try sandbox.buildDemo()
    try expectRefusal(
      ["SELECT 1; SELECT 2"], message: "folio sql runs exactly one statement")
    try expectRefusal(["SELECT 1; DELETE FROM trades"], message: "exactly one statement")
    try expectRefusal(["SELECT 1; nonsense"], message: "exactly one statement")
    try expectRefusal(
      ["SELEC 1"], message: "SQLite refused the statement: near \"SELEC\": syntax error")
    try expectRefusal(
      ["SELECT * FROM no_such_table"],
      message: "SQLite refused the statement: no such table: no_such_table")
    try expectRefusal(["SELECT json('{')"], message: "SQLite refused the statement: malformed JSON")
    try expectRefusal(["--", "-- only a comment"], message: "the SQL holds no statement")
    try expectRefusal(["  "], code: 64, message: "the SQL statement is empty")
    let trailing = sandbox.run("sql", "SELECT 7;  -- the answer\n")
    #expect(trailing.code == 0)
    #expect(trailing.out == "7\n7\n")
  }

  @Test func aMissingDatabaseIsNotCreated() throws {
    let result = sandbox.run("sql", "SELECT 1")
    #expect(result.code == 66)
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }

  @Test func anOlderSchemaIsMigratedFirstThenQueried() throws {
    let db = try Database(path: sandbox.database)
    try Migrator(migrations: Array(Migration.embedded.prefix(2))).migrate(db)
    try db.execute("INSERT INTO settings (key, value) VALUES ('owner', 'ada')")
    let result = sandbox.run("sql", "SELECT count(*) AS n FROM v_holdings")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "n\n0\n")
    #expect(result.err.contains("upgraded the database schema"))
    #expect(
      try sandbox.sqlite("PRAGMA user_version") == "\(try Migrator().latestVersion)\n")
  }
}
