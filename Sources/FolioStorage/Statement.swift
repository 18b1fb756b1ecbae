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
  /// Appends the value to the arguments a statement is bound with (`Statement.bind(_:)`,
  /// `Statement.run(_:)`). The default appends `sqlValue`; text and numbers write their bytes
  /// straight into the arguments' buffer, with no `SQLValue` or `String` made for them (an
  /// import binds millions).
  func append(to arguments: inout Arguments)
  /// Whether `column`, read back from SQLite, holds this value exactly as a statement bound
  /// with it stores it (`folio db check` compares every derived row). The default compares
  /// `sqlValue`; decimals compare their text with no `String` made.
  func isStored(as column: Column) -> Bool
}

extension SQLBindable {
  public func append(to arguments: inout Arguments) {
    arguments.append(sqlValue)
  }

  public func isStored(as column: Column) -> Bool {
    switch sqlValue {
    case .null: return column.type == SQLITE_NULL
    case .integer(let value): return column.type == SQLITE_INTEGER && column.number == value
    case .real(let value):
      return column.type == SQLITE_FLOAT && column.number == Int64(bitPattern: value.bitPattern)
    case .text(var value): return value.withUTF8 { column.holdsText(UnsafeRawBufferPointer($0)) }
    case .blob(let value):
      return column.type == SQLITE_BLOB && value.elementsEqual(column.bytes)
    }
  }
}

extension SQLValue {
  /// The value as SQLite converts it to text, "NULL" for a NULL: how an audit names it.
  var text: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .text(let value): value
    case .blob(let value): "x'" + value.map { String(format: "%02X", $0) }.joined() + "'"
    }
  }
}

extension SQLValue: SQLBindable {
  public var sqlValue: SQLValue { self }
}
extension Int: SQLBindable {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
  public func append(to arguments: inout Arguments) {
    arguments.append(Int64(self))
  }
}
extension Int64: SQLBindable {
  public var sqlValue: SQLValue { .integer(self) }
  public func append(to arguments: inout Arguments) {
    arguments.append(self)
  }
}
extension Double: SQLBindable {
  public var sqlValue: SQLValue { .real(self) }
}
extension String: SQLBindable {
  public var sqlValue: SQLValue { .text(self) }
  public func append(to arguments: inout Arguments) {
    arguments.append(self)
  }
}
extension Bool: SQLBindable {
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}
extension Optional: SQLBindable where Wrapped: SQLBindable {
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
  public func append(to arguments: inout Arguments) {
    guard let value = self else { return arguments.append(SQLValue.null) }
    value.append(to: &arguments)
  }
}

/// One prepared statement. It is finalized when the instance goes away; reuse it in loops
/// with `reset()` rather than preparing the same SQL again.
///
/// Not `Sendable`: a statement belongs to its connection's thread.
public final class Statement {
  /// The statement, for the thread that holds the connection: a batch writer's runs
  /// (`BatchWriter`) and the caller that waited for them (`handle`).
  let raw: OpaquePointer
  /// The statement, once the batch writer, if one runs, has written what it was handed.
  var handle: OpaquePointer {
    pending.waitForWriter()
    return raw
  }
  /// The SQL text this statement was prepared from (of a `BatchedInsert`'s run of many rows,
  /// its first row followed by "…": what its errors name).
  public let sql: String
  private let connection: OpaquePointer
  /// The connection's batched rows, written before this statement steps.
  private let pending: PendingWrites
  /// True when texts are bound by their length alone (`PendingWrites.checksIgnored`).
  var bindsTextByLength: Bool { pending.checksIgnored }

  /// `shown` is the SQL errors name instead of `sql` (a batch's, shortened).
  init(connection: OpaquePointer, sql: String, shown: String? = nil, pending: PendingWrites)
    throws
  {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw SQLiteError(connection: connection, code: code, sql: shown ?? sql)
    }
    self.raw = statement
    self.connection = connection
    self.sql = shown ?? sql
    self.pending = pending
  }

  /// Takes ownership of a statement `sqlite3_prepare_v2` already compiled from `sql`.
  init(
    prepared handle: OpaquePointer, connection: OpaquePointer, sql: String, pending: PendingWrites
  ) {
    self.raw = handle
    self.connection = connection
    self.sql = sql
    self.pending = pending
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

  /// Binds positional parameters, starting at index 1; SQLite copies their text, so they stay
  /// bound however long the statement is stepped. The number of values must be the number of
  /// parameters the statement has: a missing or extra value is a programming error reported
  /// as SQLITE_RANGE, never a silent NULL.
  public func bind(_ values: [any SQLBindable]) throws {
    var arguments = takeArguments()
    defer { self.arguments = arguments }
    for value in values { value.append(to: &arguments) }
    try arguments.bind(to: self, copying: true)
  }

  /// Throws the connection's error unless `code` is SQLITE_OK.
  func check(_ code: Int32) throws {
    guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
  }

  /// The buffer `bind(_:)` and `run(_:)` gather values in, kept for the next binding.
  private var arguments = Arguments()

  /// Binds `values` to the parameters in order, runs the statement to completion, then resets
  /// it and clears its bindings: the hot-loop form of `execute(_:)`, for statements run once
  /// per row of an import. Nothing is boxed and SQLite copies no text (see `Arguments`). As
  /// with `bind(_:)`, values must be exactly as many as the parameters (else SQLITE_RANGE).
  public func run<each Value: SQLBindable>(_ values: repeat each Value) throws {
    var arguments = takeArguments()
    defer { self.arguments = arguments }
    repeat (each values).append(to: &arguments)
    // Cleared before the buffer changes: no binding outlives the text it points to.
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try arguments.bind(to: self, copying: false)
    while try step() {}
  }

  /// The buffer of the last binding, emptied, with the statement reset: one left mid-way by a
  /// bare `step()` would refuse its new bindings.
  private func takeArguments() -> Arguments {
    sqlite3_reset(handle)
    // What stays meanwhile shares the buffer and holds no values: nothing is allocated.
    var arguments = Arguments(bytes: self.arguments.bytes)
    swap(&arguments, &self.arguments)
    arguments.removeAll()
    return arguments
  }

  /// Binds `slots` of `arguments` (a `BatchedInsert`'s rows), runs the statement to completion
  /// and resets it, without writing the connection's pending rows first: it is one of them.
  func runBound(from arguments: inout Arguments, slots: Range<Int>) throws {
    defer {
      sqlite3_reset(raw)
      sqlite3_clear_bindings(raw)
    }
    try arguments.bind(to: self, copying: false, slots: slots)
    while try advance() {}
  }

  /// Advances to the next row: true when a row is available, false when the statement is done.
  /// The connection's batched rows not written yet are written first (`BatchedInsert`).
  @discardableResult
  public func step() throws -> Bool {
    if !pending.isEmpty { try pending.flush() }
    return try advance()
  }

  private func advance() throws -> Bool { try Self.advance(raw, of: self) }

  /// Steps `raw`, the handle of `statement`, reading nothing of `statement` unless SQLite
  /// fails: a read-ahead thread steps this way (`ReadAhead`) while the reading thread's rows
  /// retain and release the statement, so the two cores do not take the object's memory from
  /// each other at every row.
  static func advance(_ raw: OpaquePointer, of statement: Statement) throws -> Bool {
    let code = sqlite3_step(raw)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = SQLiteError(connection: statement.connection, code: code, sql: statement.sql)
      sqlite3_reset(raw)
      throw error
    }
  }

  /// Binds `values`, runs the statement to completion and resets it for the next use.
  public func execute(_ values: [any SQLBindable] = []) throws {
    try forEachRow(values) { _ in }
  }

  /// Binds `values` and returns every row, decoded by `row`.
  public func rows<T>(_ values: [any SQLBindable] = [], _ decode: (Row) throws -> T) throws -> [T] {
    var result: [T] = []
    try forEachRow(values) { result.append(try decode($0)) }
    return result
  }

  /// Binds `values` and calls `body` for each row without collecting them (streaming).
  ///
  /// With `readingAhead`, a second thread steps the statement and copies its rows while `body`
  /// reads the ones before (`ReadAhead`): for a scan of many rows whose reading costs about as
  /// much as SQLite's stepping, such as a replay of every trade. `body` must not use the
  /// connection meanwhile.
  public func forEachRow(
    _ values: [any SQLBindable] = [], readingAhead: Bool = false, _ body: (Row) throws -> Void
  ) throws {
    reset()
    try bind(values)
    defer { sqlite3_reset(handle) }
    if readingAhead {
      // Looked up now: a lookup by name must not call into SQLite while the other thread steps.
      _ = columnNames
      // Written now, as `step()` would: the other thread steps SQLite's handle alone.
      if !pending.isEmpty { try pending.flush() }
      if let ahead = ReadAhead.start(self, handle: handle) { return try ahead.forEachRow(body) }
    }
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
