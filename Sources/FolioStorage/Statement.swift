import CSQLite
import Foundation

/// SQLite's destructor constant that makes it copy bound text and blobs at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value that can be bound to a statement parameter or read from a result column.
public enum SQLValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// A type that converts itself to an `SQLValue` for binding.
public protocol SQLBindable {
  /// The value SQLite stores for this instance.
  var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
  public var sqlValue: SQLValue { self }
}
extension Int: SQLBindable {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
}
extension Int64: SQLBindable {
  public var sqlValue: SQLValue { .integer(self) }
}
extension Double: SQLBindable {
  public var sqlValue: SQLValue { .real(self) }
}
extension String: SQLBindable {
  public var sqlValue: SQLValue { .text(self) }
}
extension Bool: SQLBindable {
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}
extension Optional: SQLBindable where Wrapped: SQLBindable {
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One prepared statement. It is finalized when the instance goes away; reuse it in loops
/// with `reset()` rather than preparing the same SQL again.
///
/// Not `Sendable`: a statement belongs to its connection's thread.
public final class Statement {
  let handle: OpaquePointer
  /// The SQL text this statement was prepared from.
  public let sql: String
  private let connection: OpaquePointer

  init(connection: OpaquePointer, sql: String) throws {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw SQLiteError(connection: connection, code: code, sql: sql)
    }
    self.handle = statement
    self.connection = connection
    self.sql = sql
  }

  /// Takes ownership of a statement `sqlite3_prepare_v2` already compiled from `sql`.
  init(prepared handle: OpaquePointer, connection: OpaquePointer, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// True when the statement cannot change the database (see sqlite3_stmt_readonly).
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// Resets the statement so it can run again and clears its bindings.
  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds positional parameters, starting at index 1. The number of values must be the
  /// number of parameters the statement has: a missing or extra value is a programming error
  /// reported as SQLITE_RANGE, never a silent NULL.
  public func bind(_ values: [any SQLBindable]) throws {
    let parameters = sqlite3_bind_parameter_count(handle)
    guard values.count == parameters else {
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "\(values.count) values bound to a statement with \(parameters) parameters",
        sql: sql)
    }
    for (offset, value) in values.enumerated() {
      try bind(value.sqlValue, at: Int32(clamping: offset + 1))
    }
  }

  /// Binds one value to the 1-based parameter `index`.
  public func bind(_ value: SQLValue, at index: Int32) throws {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(handle, index)
    case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
    case .real(let value): code = sqlite3_bind_double(handle, index, value)
    case .text(let value): return try bind(value, at: index)
    case .blob(let bytes) where bytes.isEmpty:
      // A nil pointer would bind NULL; an empty blob stays an empty blob.
      code = sqlite3_bind_zeroblob(handle, index, 0)
    case .blob(let bytes):
      code = bytes.withUnsafeBytes {
        sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), sqliteTransient)
      }
    }
    guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
  }

  /// Binds text (or NULL for nil) to the 1-based parameter `index`, without boxing.
  public func bind(_ value: String?, at index: Int32) throws {
    guard var text = value else {
      let code = sqlite3_bind_null(handle, index)
      guard code == SQLITE_OK else {
        throw SQLiteError(connection: connection, code: code, sql: sql)
      }
      return
    }
    // The string's own UTF-8 storage: no C-string copy.
    try text.withUTF8 { try bind(utf8: $0, at: index) }
  }

  /// Binds UTF-8 text that SQLite copies, such as a buffer on the stack.
  public func bind(utf8 text: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
    let code = text.withMemoryRebound(to: CChar.self) { characters in
      // A nil pointer would bind NULL; empty text stays empty text.
      guard let start = characters.baseAddress else {
        return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
      }
      return sqlite3_bind_text(
        handle, index, start, Int32(clamping: characters.count), sqliteTransient)
    }
    guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
  }

  /// Binds an integer to the 1-based parameter `index`, without boxing.
  public func bind(_ value: Int64, at index: Int32) throws {
    let code = sqlite3_bind_int64(handle, index, value)
    guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
  }

  /// Runs the statement (with what is bound) to completion and resets it, keeping no
  /// bindings — the hot-loop form of `execute(_:)`: bind with the typed `bind(_:at:)`
  /// methods, then `run()`.
  public func run() throws {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    while try step() {}
  }

  /// Advances to the next row: true when a row is available, false when the statement is done.
  @discardableResult
  public func step() throws -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = SQLiteError(connection: connection, code: code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Binds `values`, runs the statement to completion and resets it for the next use.
  public func execute(_ values: [any SQLBindable] = []) throws {
    reset()
    try bind(values)
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Binds `values` and returns every row, decoded by `row`.
  public func rows<T>(_ values: [any SQLBindable] = [], _ decode: (Row) throws -> T) throws -> [T] {
    reset()
    try bind(values)
    defer { sqlite3_reset(handle) }
    var result: [T] = []
    while try step() {
      result.append(try decode(Row(statement: self)))
    }
    return result
  }

  /// Binds `values` and calls `body` for each row without collecting them (streaming).
  public func forEachRow(_ values: [any SQLBindable] = [], _ body: (Row) throws -> Void) throws {
    reset()
    try bind(values)
    defer { sqlite3_reset(handle) }
    while try step() {
      try body(Row(statement: self))
    }
  }

  /// The number of result columns.
  public var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The name of result column `index` (0-based).
  public func columnName(_ index: Int32) -> String {
    sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
  }

  /// The result column names, read once per statement.
  private lazy var columnNames: [String] = (0..<columnCount).map(columnName)
  /// Where the next name lookup starts: rows are usually read in column order, so a lookup
  /// compares one name, without hashing.
  private var nextColumn = 0

  /// The 0-based index of the result column called `name`.
  func columnIndex(_ name: String) throws -> Int32 {
    let names = columnNames
    var index = nextColumn
    for _ in 0..<names.count {
      if index >= names.count { index = 0 }
      if names[index] == name {
        nextColumn = index + 1
        return Int32(index)
      }
      index += 1
    }
    throw SQLiteError(
      extendedCode: SQLITE_RANGE, message: "no result column named \(name)", sql: sql)
  }
}

/// The current row of a statement; valid only until the statement steps again. Columns are
/// read by name with a type: `let quantity: ExactDecimal = try row["quantity"]`. A NULL or a
/// value of another storage class in a non-optional column throws an `SQLiteError`
/// (SQLITE_MISMATCH) naming the column and the SQL; read an optional type where NULL is allowed.
public struct Row {
  let statement: Statement

  /// Column `name` decoded as `T`; throws when there is no such column, or when it is NULL or
  /// holds another storage class and `T` is not optional.
  public subscript<T: RowDecodable>(_ name: String) -> T {
    get throws { try value(at: statement.columnIndex(name), named: name) }
  }

  /// Column `index`, called `name` in errors, decoded as `T`.
  func value<T: RowDecodable>(at index: Int32, named name: String) throws -> T {
    let decoded: T?
    do {
      decoded = try T.decode(self, at: index)
    } catch {
      throw SQLiteError(
        extendedCode: SQLITE_MISMATCH, message: "column \(name): \(error)", sql: statement.sql)
    }
    if let decoded { return decoded }
    let found =
      switch type(index) {
      case SQLITE_NULL: "NULL"
      case SQLITE_INTEGER: "an INTEGER"
      case SQLITE_FLOAT: "a REAL"
      case SQLITE_TEXT: "TEXT"
      default: "a BLOB"
      }
    throw SQLiteError(
      extendedCode: SQLITE_MISMATCH, message: "column \(name) holds \(found), not \(T.self)",
      sql: statement.sql)
  }

  /// The value of column `index` (0-based) with its SQLite storage class, for code that reads
  /// whatever columns a statement has (`folio sql`, audits).
  public subscript(_ index: Int32) -> SQLValue {
    let handle = statement.handle
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT: return .text(String.decode(self, at: index) ?? "")
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
    default: return .null
    }
  }

  /// Column `name` as SQLite converts it to text, or "NULL": for audits that compare rows
  /// exactly as stored.
  public func storedText(_ name: String) throws -> String {
    let index = try statement.columnIndex(name)
    return type(index) == SQLITE_NULL
      ? "NULL"
      : sqlite3_column_text(statement.handle, index).map { String(cString: $0) } ?? "NULL"
  }

  /// SQLite's storage class of column `index` (SQLITE_NULL, SQLITE_INTEGER, ...).
  func type(_ index: Int32) -> Int32 { sqlite3_column_type(statement.handle, index) }

  /// Column `index` as SQLite's own UTF-8 bytes, valid until the statement steps again.
  func utf8(_ index: Int32) -> UnsafeBufferPointer<UInt8>? {
    guard let pointer = sqlite3_column_text(statement.handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(statement.handle, index))
    return UnsafeBufferPointer(start: pointer, count: count)
  }

  /// The number of columns in the row.
  public var count: Int32 { statement.columnCount }
}

/// A type a result column decodes to (see `Row.subscript(_:)`).
public protocol RowDecodable {
  /// Column `index` of `row` as this type, or nil when its storage class does not fit (NULL
  /// included, for a non-optional type).
  static func decode(_ row: Row, at index: Int32) throws -> Self?
}

extension Int64: RowDecodable {
  public static func decode(_ row: Row, at index: Int32) -> Int64? {
    row.type(index) == SQLITE_INTEGER ? sqlite3_column_int64(row.statement.handle, index) : nil
  }
}
extension Int: RowDecodable {
  public static func decode(_ row: Row, at index: Int32) -> Int? {
    Int64.decode(row, at: index).map { Int($0) }
  }
}
extension Bool: RowDecodable {
  public static func decode(_ row: Row, at index: Int32) -> Bool? {
    Int64.decode(row, at: index).map { $0 != 0 }
  }
}
extension Double: RowDecodable {
  /// REAL, or an INTEGER (SQLite stores whole REALs as integers in some columns).
  public static func decode(_ row: Row, at index: Int32) -> Double? {
    let type = row.type(index)
    return type == SQLITE_FLOAT || type == SQLITE_INTEGER
      ? sqlite3_column_double(row.statement.handle, index) : nil
  }
}
extension String: RowDecodable {
  public static func decode(_ row: Row, at index: Int32) -> String? {
    guard row.type(index) == SQLITE_TEXT else { return nil }
    return row.utf8(index).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }
}
extension Optional: RowDecodable where Wrapped: RowDecodable {
  /// NULL reads as nil; any other value must decode as `Wrapped`.
  public static func decode(_ row: Row, at index: Int32) throws -> Wrapped?? {
    row.type(index) == SQLITE_NULL
      ? .some(.none) : try Wrapped.decode(row, at: index).map { .some($0) }
  }
}
extension RowDecodable where Self: RawRepresentable, RawValue: RowDecodable {
  /// A raw value that names no case does not decode.
  public static func decode(_ row: Row, at index: Int32) throws -> Self? {
    try RawValue.decode(row, at: index).flatMap(Self.init(rawValue:))
  }
}
