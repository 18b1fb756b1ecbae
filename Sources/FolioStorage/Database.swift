import CSQLite
import Foundation

/// One SQLite connection, configured the way Folio needs every connection to be:
/// extended result codes, `foreign_keys=ON`, WAL journal, `synchronous=FULL` and a busy timeout.
///
/// Not `Sendable`: the CLI is synchronous and each connection stays on the thread that opened it.
public final class Database {
  /// How a connection opens its file.
  public enum Mode: Sendable {
    /// Read and write; the file and its folder are created when missing.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Read only: SQLite refuses every write on this connection.
    case readOnly
  }

  /// The oldest SQLite library Folio runs on: 3.37.0 brought STRICT tables.
  public static let minimumLibraryVersion: Int32 = 3_037_000

  /// The default busy timeout: how long a writer waits for another writer before giving up.
  public static let defaultBusyTimeout: Int32 = 5_000

  let handle: OpaquePointer
  /// The file this connection opened.
  public let path: String
  private var statementCache: [String: Statement] = [:]

  /// Opens (and, in `.readWriteCreate` mode, creates) the database at `path`.
  ///
  /// A new file is created with mode 0600 and a new folder with mode 0700, because the file
  /// holds someone's financial records.
  public init(path: String, mode: Mode = .readWriteCreate, busyTimeout: Int32 = defaultBusyTimeout)
    throws
  {
    try Database.checkLibraryVersion()
    if mode == .readWriteCreate {
      try Database.createPrivateFile(at: path)
    }
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    flags |= mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError(connection: connection, code: code)
      sqlite3_close_v2(connection)
      throw error
    }
    self.handle = connection
    self.path = path
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, busyTimeout)
    try execute("PRAGMA foreign_keys = ON")
    if mode != .readOnly {
      // Reading the header here also makes "file is not a database" fail at open time.
      try execute("PRAGMA journal_mode = WAL")
      try execute("PRAGMA synchronous = FULL")
    } else {
      try execute("PRAGMA query_only = ON")
      _ = try scalarInt("PRAGMA schema_version")
    }
  }

  deinit {
    statementCache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Fails when the SQLite library linked at run time is older than Folio needs.
  public static func checkLibraryVersion() throws {
    let version = sqlite3_libversion_number()
    guard version >= minimumLibraryVersion else {
      throw SQLiteError(
        extendedCode: SQLITE_MISUSE,
        message:
          "SQLite \(String(cString: sqlite3_libversion())) is too old: Folio needs 3.37.0 or newer"
      )
    }
  }

  /// The version of the SQLite library in use, such as "3.40.1".
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  private static func createPrivateFile(at path: String) throws {
    let manager = FileManager.default
    guard !manager.fileExists(atPath: path) else { return }
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty && !manager.fileExists(atPath: folder) {
      try manager.createDirectory(
        atPath: folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
    } else if errno != EEXIST {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
  }

  // MARK: - Running SQL

  /// Runs one or more SQL statements that return no rows.
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw SQLiteError(connection: handle, code: code, sql: sql)
    }
  }

  /// Prepares a new statement.
  public func prepare(_ sql: String) throws -> Statement {
    try Statement(connection: handle, sql: sql)
  }

  /// Returns a prepared statement for `sql`, reusing the one prepared earlier on this connection.
  public func cached(_ sql: String) throws -> Statement {
    if let statement = statementCache[sql] {
      statement.reset()
      return statement
    }
    let statement = try prepare(sql)
    statementCache[sql] = statement
    return statement
  }

  /// Runs one statement with `values` bound.
  public func execute(_ sql: String, _ values: [any SQLBindable]) throws {
    try cached(sql).execute(values)
  }

  /// Runs a query and decodes each row.
  public func rows<T>(
    _ sql: String, _ values: [any SQLBindable] = [], _ decode: (Row) throws -> T
  ) throws -> [T] {
    try cached(sql).rows(values, decode)
  }

  /// Runs a query and decodes the first row, if any.
  public func row<T>(_ sql: String, _ values: [any SQLBindable] = [], _ decode: (Row) throws -> T)
    throws -> T?
  {
    let statement = try cached(sql)
    statement.reset()
    try statement.bind(values)
    defer { statement.reset() }
    return try statement.step() ? decode(Row(statement: statement)) : nil
  }

  /// The first column of the first row as an integer (nil when there is no row or it is NULL).
  public func scalarInt(_ sql: String, _ values: [any SQLBindable] = []) throws -> Int64? {
    try row(sql, values) { $0.int(0) } ?? nil
  }

  /// The first column of the first row as text (nil when there is no row or it is NULL).
  public func scalarText(_ sql: String, _ values: [any SQLBindable] = []) throws -> String? {
    try row(sql, values) { $0.text(0) } ?? nil
  }

  /// The rowid of the last row inserted on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// How many rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// True while a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  // MARK: - Transactions

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front (waiting
  /// up to the busy timeout), `body`'s changes commit together, and any error rolls everything
  /// back and is rethrown — the first error, not one raised while rolling back.
  public func write<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    let result: T
    do {
      result = try body()
    } catch {
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
    return result
  }

  /// Runs `body` in a read transaction, so every query in it sees the same snapshot even
  /// while other processes commit (see https://sqlite.org/isolation.html).
  public func read<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN DEFERRED")
    defer { if isInTransaction { try? execute("COMMIT") } }
    return try body()
  }

  // MARK: - Backup

  /// Copies the whole database to a new file at `destination` with SQLite's online backup API,
  /// which gives a consistent copy even while other connections write
  /// (see https://sqlite.org/backup.html). The copy is created with mode 0600.
  public func backup(to destination: String) throws {
    guard !FileManager.default.fileExists(atPath: destination) else {
      throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: destination])
    }
    let target = try Database(path: destination, mode: .readWriteCreate)
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw SQLiteError(connection: target.handle, code: sqlite3_errcode(target.handle))
    }
    var code: Int32
    repeat {
      code = sqlite3_backup_step(backup, -1)
      if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(10) }
    } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else {
      throw SQLiteError(connection: target.handle, code: code)
    }
  }
}
