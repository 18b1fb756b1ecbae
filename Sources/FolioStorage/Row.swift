import CSQLite
import Foundation

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
        extendedCode: SQLITE_MISMATCH,
        message:
          "column \(name) holds a value folio cannot read: "
          + ((error as? LocalizedError)?.errorDescription ?? "\(error)")
          + " ('folio db check' names the rows to fix)",
        sql: statement.sql)
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
extension RowDecodable where Self: RawRepresentable & CaseIterable, RawValue == String {
  /// Text that names no case does not decode. The column's bytes are compared with each
  /// case's raw value without making a String of them: a replay decodes two such columns a
  /// trade, and the String and its lookup were a tenth of decoding one.
  public static func decode(_ row: Row, at index: Int32) -> Self? {
    guard row.type(index) == SQLITE_TEXT, let text = row.utf8(index) else { return nil }
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
