import FolioService
import FolioStorage
import Foundation

/// `folio sql "SELECT …"`: one read-only statement on a read-only connection.
struct SQLCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "sql",
    abstract: "Run one read-only SQL statement and print its rows.",
    discussion: """
      The database is opened read-only, so writes are impossible, not just discouraged: a
      statement that would change anything exits 65 without running, and so does one that uses
      a function or pragma that is not a plain read (SQLite's authorizer checks it as it is
      compiled). Read-only pragmas such as PRAGMA journal_mode run. One statement only; it may
      begin with a comment ("-- note" on its own line, or /* ... */).
      docs/schema.md describes the tables and the v_* views, with ready queries. JSON output is
      an array of objects keyed by column name: INTEGER and REAL values are numbers, TEXT is a
      string (exact decimals stay strings), NULL is null, a BLOB is a base64 string.
      """)

  enum Format: String, OutputFormat { case text, csv, json }

  @Argument(name: "statement", help: "The SQL statement, quoted for the shell.") var sql: String
  @Option var format = Format.text

  func validate() throws {
    if sql.allSatisfy(\.isWhitespace) { throw ValidationError("the SQL statement is empty") }
  }

  func run(_ context: Context) throws {
    let query = try SQLQuery(try context.readOnlyStore().database).prepare(sql)
    switch format {
    case .json:
      var array = JSONArrayWriter(context.out)
      try query.forEachRow { values in
        try context.stopIfOutputFailed()
        array.append(.object(zip(query.columns, values).map { ($0, Self.json($1)) }))
      }
      array.finish()
    case .csv:
      context.out.write(CSVWriter.line(query.columns))
      try query.forEachRow {
        try context.stopIfOutputFailed()
        context.out.write(CSVWriter.line($0.map(Self.csv)))
      }
    case .text:
      // A column is right-aligned when it holds numbers and nothing but numbers and NULLs.
      var table = TextTable(headers: query.columns)
      var numbers = Set<Int>()
      var others = Set<Int>()
      try query.forEachRow { values in
        for (index, value) in values.enumerated() {
          switch value {
          case .integer, .real: numbers.insert(index)
          case .null: break
          case .text, .blob: others.insert(index)
          }
        }
        table.rows.append(values.map(Self.text))
      }
      table.rightAligned = numbers.subtracting(others)
      context.out.write(table.rendered())
    }
  }

  /// A value as JSON: numbers for INTEGER and REAL, strings for TEXT, base64 for a BLOB.
  static func json(_ value: SQLValue) -> JSONValue {
    switch value {
    case .null: return .null
    case .integer(let number): return .number(String(number))
    case .real(let number): return .number(real(number))
    case .text(let text): return .string(text)
    case .blob(let bytes): return .string(Data(bytes).base64EncodedString())
    }
  }

  /// A REAL as a JSON number: the shortest text that reads back as the same double; the
  /// infinities (which SQLite can hold) as ±9e999, the way SQLite's own json() writes them.
  static func real(_ number: Double) -> String {
    guard number.isFinite else { return number < 0 ? "-9e999" : "9e999" }
    return "\(number)"
  }

  /// A value for a CSV field: NULL is an empty field, a BLOB its hexadecimal digits.
  static func csv(_ value: SQLValue) -> String {
    switch value {
    case .null: return ""
    case .blob(let bytes): return hex(bytes)
    default: return text(value)
    }
  }

  /// A value for the text table: NULL as "NULL", a BLOB as X'…'.
  static func text(_ value: SQLValue) -> String {
    switch value {
    case .null: return "NULL"
    case .integer(let number): return String(number)
    case .real(let number): return real(number)
    case .text(let text):
      return text  // The table shows control characters as \n, \r, \u{1B} (FolioCLI.visible).
    case .blob(let bytes): return "X'" + hex(bytes) + "'"
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
  }
}
