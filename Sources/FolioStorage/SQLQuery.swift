import Foundation

/// Why `folio sql` refused or failed a statement; nothing was changed.
public enum SQLQueryError: LocalizedError, Equatable {
  /// The text holds no statement, only whitespace or comments.
  case noStatement
  /// The text holds more than one statement.
  case moreThanOneStatement
  /// The statement would write, to this database or to another file.
  case writes(String)
  /// The statement uses something `folio sql` does not allow: a function that is not a plain
  /// read, a pragma that changes a setting, ATTACH.
  case notAllowed(String)
  /// SQLite refused the statement: a syntax error, an unknown table, a failing function.
  case invalid(String)

  public var errorDescription: String? {
    switch self {
    case .noStatement:
      return "the SQL holds no statement; give one, such as \"SELECT * FROM v_holdings\""
    case .moreThanOneStatement:
      return "folio sql runs exactly one statement; run the others one at a time"
    case .writes(let sql):
      return
        "'\(sql)' would write, and folio sql only reads (SELECT, WITH, EXPLAIN or a read-only "
        + "PRAGMA); nothing was changed: change data with folio's commands or 'folio db shell'"
    case .notAllowed(let what):
      return
        "folio sql does not allow \(what): it runs only plain reads (tables, views, SQLite's "
        + "own value functions and read-only pragmas); nothing was run"
    case .invalid(let message):
      return "SQLite refused the statement: \(message)"
    }
  }
}

/// Runs one read-only SQL statement, for `folio sql`. The connection must be opened read-only,
/// so SQLite itself refuses any write; SQLite's authorizer
/// (`ReadAuthorizer`) refuses, while compiling, anything that is not a plain read; and a
/// statement that would write is refused before it runs
/// (https://sqlite.org/c3ref/stmt_readonly.html).
public struct SQLQuery {
  let db: Database

  /// Restricts the connection to reads from now on.
  public init(_ db: Database) {
    self.db = db
    db.restrictToReads()
  }

  /// Prepares `sql`, which must be exactly one statement that does not write.
  public func prepare(_ sql: String) throws -> PreparedQuery {
    PreparedQuery(try statement(sql))
  }

  /// Prepares the one statement of `sql`; refuses none, several, or one that writes.
  private func statement(_ sql: String) throws -> Statement {
    let first: (statement: Statement?, rest: String)
    do {
      first = try db.prepareFirst(sql)
    } catch let error as SQLiteError where !error.isBusy {
      throw refusal(error, sql)
    }
    guard let statement = first.statement else { throw SQLQueryError.noStatement }
    let another: Statement?
    do {
      another = try db.prepareFirst(first.rest).statement
    } catch let error as SQLiteError where !error.isBusy {
      // Text after the first statement that is not even valid SQL is still a second statement.
      _ = db.takeDeniedAction()
      throw SQLQueryError.moreThanOneStatement
    }
    guard another == nil else { throw SQLQueryError.moreThanOneStatement }
    // A pragma the authorizer let through only reports, although SQLite does not count every
    // one as read-only (`PRAGMA journal_mode` may change the mode when given a value).
    let pragma = Self.firstKeyword(statement.sql) == "PRAGMA"
    guard statement.isReadOnly || pragma, !Self.writesElsewhere(statement.sql) else {
      throw SQLQueryError.writes(Self.shortened(statement.sql))
    }
    return statement
  }

  /// The error for a statement SQLite would not compile: what the authorizer denied, if it
  /// did, else SQLite's message.
  private func refusal(_ error: SQLiteError, _ sql: String) -> SQLQueryError {
    if let denied = db.takeDeniedAction() {
      return denied == ReadAuthorizer.write ? .writes(Self.shortened(sql)) : .notAllowed(denied)
    }
    return .invalid(error.message)
  }

  /// `VACUUM INTO` counts as read-only for SQLite, but it writes a new file; `ATTACH` and
  /// `DETACH` reach other files. None of them belongs in a query.
  static func writesElsewhere(_ sql: String) -> Bool {
    ["VACUUM", "ATTACH", "DETACH"].contains(firstKeyword(sql))
  }

  /// The statement's first word in upper case, after whitespace and comments.
  static func firstKeyword(_ sql: String) -> String {
    var rest = Substring(sql)
    while true {
      rest = rest.drop { $0.isWhitespace }
      if rest.hasPrefix("--") {
        rest = rest.drop { $0 != "\n" }
      } else if rest.hasPrefix("/*") {
        guard let end = rest.range(of: "*/") else { return "" }
        rest = rest[end.upperBound...]
      } else {
        return String(rest.prefix { $0.isLetter }).uppercased()
      }
    }
  }

  /// The statement on one line, at most 60 characters, for messages.
  static func shortened(_ sql: String) -> String {
    let line = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return line.count > 60 ? String(line.prefix(57)) + "..." : line
  }
}

/// A statement `SQLQuery` accepted, ready to run.
///
/// Not `Sendable`: it holds a statement of one connection.
public final class PreparedQuery {
  private let statement: Statement
  /// The names of the result columns, in order.
  public let columns: [String]

  init(_ statement: Statement) {
    self.statement = statement
    columns = (0..<statement.columnCount).map(statement.columnName)
  }

  /// Runs the statement, calling `body` with each row's values as SQLite returned them.
  public func forEachRow(_ body: ([SQLValue]) throws -> Void) throws {
    let count = statement.columnCount
    do {
      try statement.forEachRow { row in try body((0..<count).map { row[$0] }) }
    } catch let error as SQLiteError where !error.isBusy {
      // SQLITE_READONLY: a write the read-only connection stopped at run time.
      if error.category == .readOnly {
        throw SQLQueryError.writes(SQLQuery.shortened(statement.sql))
      }
      throw SQLQueryError.invalid(error.message)
    }
  }
}
