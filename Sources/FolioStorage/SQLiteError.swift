import CSQLite
import Foundation

/// A failure reported by SQLite: the extended result code, SQLite's message and the SQL
/// that was running, printed as `SQLite error 19 (constraint): … while executing …`.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
  /// The extended result code (see https://sqlite.org/rescode.html).
  public let extendedCode: Int32
  /// SQLite's own message for the failure.
  public let message: String
  /// The statement that failed, when there was one.
  public let sql: String?

  public init(extendedCode: Int32, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// The primary result code (the low byte of the extended one).
  public var code: Int32 { extendedCode & 0xFF }

  /// True for SQLITE_BUSY and SQLITE_LOCKED: another connection holds the lock.
  public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

  /// True for SQLITE_CONSTRAINT and its extended codes.
  public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

  public var description: String {
    let name = String(cString: sqlite3_errstr(code)).replacingOccurrences(of: " failed", with: "")
    var text = "SQLite error \(extendedCode) (\(name)): \(message)"
    if let sql {
      text += " while executing `\(sql.trimmingCharacters(in: .whitespacesAndNewlines))`"
    }
    return text
  }
}

extension SQLiteError {
  /// Reads the error state of `connection` after a call returned `code`.
  init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    self.init(
      extendedCode: extended == 0 ? code : extended,
      message: message ?? String(cString: sqlite3_errstr(code)),
      sql: sql
    )
  }
}
