import CSQLite
import Foundation

/// The current row of a statement; valid only until the statement steps again. Columns are
/// read by name with a type: `let quantity: ExactDecimal = try row["quantity"]`. A NULL or a
/// value of another storage class in a non-optional column throws an `SQLiteError`
/// (SQLITE_MISMATCH) naming the column and the SQL; read an optional type where NULL is allowed.
public struct Row {
  let statement: Statement
  /// The row's columns when a read-ahead thread copied them out of SQLite (see `ReadAhead`),
  /// the statement having moved on; nil when they are read from the statement.
  private let copied: CopiedRow?

  init(statement: Statement) {
    self.statement = statement
    copied = nil
  }

  init(statement: Statement, copied: CopiedRow) {
    self.statement = statement
    self.copied = copied
  }

  /// Column `name` decoded as `T`; throws when there is no such column, or when it is NULL or
  /// holds another storage class and `T` is not optional.
  public subscript<T: RowDecodable>(_ name: String) -> T {
    get throws { try value(at: statement.columnIndex(name), named: name) }
  }

  /// Column `index`, called `name` in errors, decoded as `T`.
  func value<T: RowDecodable>(at index: Int32, named name: String) throws -> T {
    let column = self.column(index)
    let decoded: T?
    do {
      decoded = try T.decode(column)
    } catch {
      throw SQLiteError(
        extendedCode: SQLITE_MISMATCH,
        message:
          "column \(name) holds a value folio cannot read: "
          + ((error as? LocalizedError)?.errorDescription ?? "\(error)")
          + " ('folio db check' names the rows to fix)",
        sql: statement.sql)
    }
    if let decoded { return decoded }
    let found =
      switch column.type {
      case SQLITE_NULL: "NULL"
      case SQLITE_INTEGER: "an INTEGER"
      case SQLITE_FLOAT: "a REAL"
      case SQLITE_TEXT: "TEXT"
      default: "a BLOB"
      }
    throw SQLiteError(
      extendedCode: SQLITE_MISMATCH,
      message:
        "column \(name) holds \(found), not \(T.expected) ('folio db check' names the rows to fix)",
      sql: statement.sql)
  }

  /// Column `index` (0-based). From the statement it is one call into SQLite, where reading
  /// its type, then its text, then its length through `sqlite3_column_*` made three, each
  /// entering and leaving the connection (a replay reads ten columns of a million rows).
  func column(_ index: Int32) -> Column {
    if let copied { return copied.column(Int(index)) }
    return Column(sqlite3_column_value(statement.handle, index))
  }

  /// The value of column `index` (0-based) with its SQLite storage class, for code that reads
  /// whatever columns a statement has (`folio sql`, audits).
  public subscript(_ index: Int32) -> SQLValue {
    let column = self.column(index)
    switch column.type {
    case SQLITE_INTEGER: return .integer(column.int64)
    case SQLITE_FLOAT: return .real(column.double)
    case SQLITE_TEXT: return .text(String.decode(column) ?? "")
    case SQLITE_BLOB: return .blob(Array(column.bytes))
    default: return .null
    }
  }

  /// Column `name` as SQLite converts it to text, or "NULL": for audits that compare rows
  /// exactly as stored. Only from the statement: a copied row (`ReadAhead`) throws.
  public func storedText(_ name: String) throws -> String {
    let index = try statement.columnIndex(name)
    guard copied == nil else {
      throw SQLiteError(
        extendedCode: SQLITE_MISUSE, message: "column \(name) was copied, not read from SQLite",
        sql: statement.sql)
    }
    let handle = statement.handle
    return sqlite3_column_type(handle, index) == SQLITE_NULL
      ? "NULL" : sqlite3_column_text(handle, index).map { String(cString: $0) } ?? "NULL"
  }

  /// The first of the columns from `start` on that does not hold the matching one of `values`
  /// exactly as folio stores it (`SQLBindable.isStored(as:)`), with both as text; nil when
  /// every one does. For audits: `folio db check` compares millions of derived values this way
  /// without making a `String` of any that match.
  public func difference<each Value: SQLBindable>(
    from start: Int32, _ values: repeat each Value
  ) -> StoredDifference? {
    var index = start
    for value in repeat each values {
      guard value.isStored(as: column(index)) else {
        return StoredDifference(
          column: statement.columnName(index), stored: self[index].text,
          expected: value.sqlValue.text)
      }
      index += 1
    }
    return nil
  }

  /// The number of columns in the row.
  public var count: Int32 { copied.map { Int32($0.columns.count) } ?? statement.columnCount }
}

/// One column of the current row, valid until its statement steps again (or, copied by a
/// read-ahead thread, until its batch is read).
public struct Column {
  /// SQLite's storage class (SQLITE_NULL, SQLITE_INTEGER, ...).
  let type: Int32
  /// An INTEGER's value, or a REAL's bits.
  let number: Int64
  /// A TEXT's UTF-8 (no terminator) or a BLOB's bytes; empty for the other classes.
  let bytes: UnsafeRawBufferPointer

  init(type: Int32, number: Int64, bytes: UnsafeRawBufferPointer) {
    (self.type, self.number, self.bytes) = (type, number, bytes)
  }

  /// The column SQLite's `value` holds. `value` is unprotected (`sqlite3_column_value`), which
  /// is only safe on the thread using the connection: a connection is used by one thread at a
  /// time (`Database` opens it `SQLITE_OPEN_NOMUTEX`).
  init(_ value: OpaquePointer?) {
    type = sqlite3_value_type(value)
    switch type {
    case SQLITE_INTEGER: number = sqlite3_value_int64(value)
    case SQLITE_FLOAT: number = Int64(bitPattern: sqlite3_value_double(value).bitPattern)
    default: number = 0
    }
    guard type == SQLITE_TEXT || type == SQLITE_BLOB else {
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return
    }
    // The pointer first, then the length (SQLite's rule for these calls); no pointer (an empty
    // blob, or SQLite out of memory) is no bytes.
    let start =
      type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
    bytes = UnsafeRawBufferPointer(
      start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(value)))
  }

  /// A NULL.
  static var null: Column {
    Column(type: SQLITE_NULL, number: 0, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
  }

  /// An INTEGER's value.
  var int64: Int64 { number }
  /// A REAL's value, or an INTEGER's as a Double.
  var double: Double {
    type == SQLITE_FLOAT ? Double(bitPattern: UInt64(bitPattern: number)) : Double(number)
  }
  var utf8: UnsafeBufferPointer<UInt8> { bytes.assumingMemoryBound(to: UInt8.self) }

  /// Whether the column is TEXT of exactly these UTF-8 bytes.
  func holdsText(_ text: UnsafeRawBufferPointer) -> Bool {
    guard type == SQLITE_TEXT, bytes.count == text.count else { return false }
    guard let stored = bytes.baseAddress, let expected = text.baseAddress else { return true }
    return memcmp(stored, expected, text.count) == 0
  }
}

/// Where a stored row differs from the one folio would write: the first column that does,
/// its text as stored and the text folio would store.
public struct StoredDifference: Equatable, Sendable {
  public let column: String
  public let stored: String
  public let expected: String
}

/// A type a result column decodes to (see `Row.subscript(_:)`).
public protocol RowDecodable {
  /// `column` as this type, or nil when its storage class does not fit (NULL included, for a
  /// non-optional type).
  static func decode(_ column: Column) throws -> Self?
  /// What a column must hold to decode, in SQL's words, for the error when it does not
  /// ("an INTEGER", "TEXT", "one of buy, sell").
  static var expected: String { get }
}

extension Int64: RowDecodable {
  public static var expected: String { "an INTEGER" }
  public static func decode(_ column: Column) -> Int64? {
    column.type == SQLITE_INTEGER ? column.int64 : nil
  }
}
extension Int: RowDecodable {
  public static var expected: String { "an INTEGER" }
  public static func decode(_ column: Column) -> Int? {
    Int64.decode(column).map { Int($0) }
  }
}
extension Bool: RowDecodable {
  public static var expected: String { "an INTEGER" }
  public static func decode(_ column: Column) -> Bool? {
    Int64.decode(column).map { $0 != 0 }
  }
}
extension Double: RowDecodable {
  public static var expected: String { "a REAL" }
  /// REAL, or an INTEGER (SQLite stores whole REALs as integers in some columns).
  public static func decode(_ column: Column) -> Double? {
    let type = column.type
    return type == SQLITE_FLOAT || type == SQLITE_INTEGER ? column.double : nil
  }
}
extension String: RowDecodable {
  public static var expected: String { "TEXT" }
  public static func decode(_ column: Column) -> String? {
    column.type == SQLITE_TEXT ? String(decoding: column.utf8, as: UTF8.self) : nil
  }
}
extension Optional: RowDecodable where Wrapped: RowDecodable {
  public static var expected: String { "\(Wrapped.expected) or NULL" }
  /// NULL reads as nil; any other value must decode as `Wrapped`.
  public static func decode(_ column: Column) throws -> Wrapped?? {
    column.type == SQLITE_NULL ? .some(.none) : try Wrapped.decode(column).map { .some($0) }
  }
}
extension RowDecodable where Self: RawRepresentable & CaseIterable, RawValue == String {
  public static var expected: String {
    "one of " + allCases.map(\.rawValue).joined(separator: ", ")
  }

  /// Text that names no case does not decode. The column's bytes are compared with each
  /// case's raw value without making a String of them: a replay decodes two such columns a
  /// trade, and the String and its lookup were a tenth of decoding one.
  public static func decode(_ column: Column) -> Self? {
    guard column.type == SQLITE_TEXT else { return nil }
    let text = column.utf8
    return allCases.first { value in
      var raw = value.rawValue
      // A length check and one memcmp: the generic `elementsEqual` cost 300 instructions a
      // column.
      return raw.withUTF8 {
        guard $0.count == text.count, let name = $0.baseAddress, let bytes = text.baseAddress
        else { return false }
        return memcmp(name, bytes, text.count) == 0
      }
    }
  }
}
