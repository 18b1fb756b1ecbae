import CSQLite

/// An INSERT run for many rows at once: rows are gathered, and every `rowsPerRun` of them are
/// written by one statement with that many rows in its `VALUES`. SQLite then opens the table's
/// cursors, and finds where the rows go, once per run rather than once per row: an import's
/// derived rows cost SQLite about a third less (docs/performance.md).
///
/// Rows not written yet are written before the connection does anything else: each statement
/// it steps, and each SQL it executes, writes them first (`PendingWrites`). So no query, no
/// count of changes and no commit ever misses them; a rollback drops them. A row refused by
/// SQLite (a full disk, a constraint) fails the call that wrote it: an `add`, or whatever
/// statement ran next.
///
/// Not `Sendable`: it holds statements of one connection.
public final class BatchedInsert {
  /// Rows per statement: 32 gives most of the gain (with 8 a run costs a tenth more, with 128
  /// no less), and a statement binds at most 32 × 17 parameters, far below SQLite's limit.
  static let rowsPerRun = 32

  private let one: Statement
  private let many: Statement
  private let columns: Int
  private let pending: PendingWrites
  /// The values of the rows not written yet, `columns` per row.
  private var arguments = Arguments()
  /// Whether `pending` lists this batch: from its first row after a write until it is written.
  fileprivate var isListed = false

  /// Prepares `insert` (`INSERT INTO table (columns…)`, without `VALUES`) for one row of
  /// `columns` values and for `rowsPerRun` rows.
  init(_ insert: String, columns: Int, connection: OpaquePointer, pending: PendingWrites) throws {
    let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    one = try Statement(connection: connection, sql: insert + " VALUES " + row, pending: pending)
    many = try Statement(
      connection: connection,
      sql: insert + " VALUES "
        + Array(repeating: row, count: Self.rowsPerRun).joined(separator: ", "),
      pending: pending)
    self.columns = columns
    self.pending = pending
  }

  /// Adds one row; a full batch is written at once. The values must be exactly as many as
  /// the columns (else SQLITE_RANGE, and the row is not added).
  public func add<each Value: SQLBindable>(_ values: repeat each Value) throws {
    let before = arguments.count
    repeat (each values).append(to: &arguments)
    guard arguments.count - before == columns else {
      arguments.removeLast(arguments.count - before)
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "\(arguments.count - before) values added to an insert of \(columns) columns",
        sql: one.sql)
    }
    if !isListed {
      isListed = true
      pending.list(self)
    }
    if arguments.count == columns * Self.rowsPerRun {
      try write(many, rows: 0..<Self.rowsPerRun)
    }
  }

  /// Writes the rows gathered so far, one statement each (fewer than `rowsPerRun`).
  fileprivate func writeRest() throws {
    let rows = arguments.count / columns
    for row in 0..<rows {
      do {
        try one.runBound(from: arguments, slots: row * columns..<(row + 1) * columns)
      } catch {
        drop()
        throw error
      }
    }
    drop()
  }

  /// Forgets the rows not written yet.
  fileprivate func drop() {
    arguments.removeAll()
  }

  private func write(_ statement: Statement, rows: Range<Int>) throws {
    defer { drop() }
    try statement.runBound(
      from: arguments, slots: rows.lowerBound * columns..<rows.upperBound * columns)
  }
}

/// The batched rows of one connection not written yet (`BatchedInsert`), in the order their
/// batches took a first row.
final class PendingWrites {
  private var batches: [BatchedInsert] = []

  var isEmpty: Bool { batches.isEmpty }

  fileprivate func list(_ batch: BatchedInsert) {
    batches.append(batch)
  }

  /// Writes every pending row. After a failure the rows not written are dropped: the error
  /// ends the transaction they belong to.
  func flush() throws {
    guard !batches.isEmpty else { return }
    let waiting = batches
    batches.removeAll(keepingCapacity: true)
    for batch in waiting { batch.isListed = false }
    for (index, batch) in waiting.enumerated() {
      do {
        try batch.writeRest()
      } catch {
        for later in waiting[(index + 1)...] { later.drop() }
        throw error
      }
    }
  }

  /// Drops every pending row: the transaction they were added in is rolled back.
  func discard() {
    for batch in batches {
      batch.drop()
      batch.isListed = false
    }
    batches.removeAll()
  }
}
