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

  /// The kinds of failure Folio tells apart, named after SQLite's primary result codes
  /// (https://sqlite.org/rescode.html).
  public enum Category: Sendable, Equatable {
    /// SQLITE_BUSY or SQLITE_LOCKED: another connection holds the lock.
    case busy
    /// SQLITE_READONLY: the file or the connection refuses writes.
    case readOnly
    /// SQLITE_IOERR: the operating system failed a read or a write.
    case ioError
    /// SQLITE_FULL: the disk (or the database's size limit) is full.
    case full
    /// SQLITE_CANTOPEN: the file or its journal cannot be opened.
    case cannotOpen
    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or not a database.
    case damaged
    /// SQLITE_CONSTRAINT: a CHECK, UNIQUE, NOT NULL, foreign key or trigger refused a row.
    case constraint
    /// SQLITE_AUTH: the authorizer denied the statement.
    case denied
    /// SQLITE_MISMATCH: a stored value is not what its column should hold (typed in by hand),
    /// so folio cannot read it.
    case mismatch
    /// Anything else.
    case other
  }

  /// What kind of failure this is (named, so no caller compares bare numbers).
  public var category: Category {
    switch code {
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_READONLY: .readOnly
    case SQLITE_IOERR: .ioError
    case SQLITE_FULL: .full
    case SQLITE_CANTOPEN: .cannotOpen
    case SQLITE_CORRUPT, SQLITE_NOTADB: .damaged
    case SQLITE_CONSTRAINT: .constraint
    case SQLITE_AUTH: .denied
    case SQLITE_MISMATCH: .mismatch
    default: .other
    }
  }

  /// True for SQLITE_BUSY and SQLITE_LOCKED: another connection holds the lock.
  public var isBusy: Bool { category == .busy }

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
