import CSQLite
import Foundation

/// An INSERT run for many rows at once: rows are gathered, and every `rowsPerRun` of them are
/// written by one statement with that many rows in its `VALUES`. SQLite then opens the table's
/// cursors, and finds where the rows go, once per run rather than once per row: writing an
/// import's rows costs SQLite a sixth to a fifth less (docs/performance.md).
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
  /// The values of the rows not written yet, `columns` per row. Not checked for overlapping
  /// accesses at run time (two calls per row, 3 % of an import's reading thread): only `add`
  /// and the writes below reach it, and none of them while another does.
  @exclusivity(unchecked) private var arguments = Arguments()
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
      shown: insert + " VALUES " + row + ", … (\(Self.rowsPerRun) rows)", pending: pending)
    self.columns = columns
    self.pending = pending
  }

  /// Waits for the batch writer (`PendingWrites.writingBehind`) to finish the runs it was
  /// handed, which use this batch's statements.
  deinit { pending.waitForWriter() }

  /// Adds one row; a full batch is written at once, or handed to the batch writer when one
  /// runs. The values must be exactly as many as the columns (else SQLITE_RANGE, and the row
  /// is not added).
  public func add<each Value: SQLBindable>(_ values: repeat each Value) throws {
    try add(()) { _, arguments in repeat (each values).append(to: &arguments) }
  }

  /// Adds the row whose values `write` appends from `record`, in column order, with
  /// `Arguments`' own methods: the form for rows added by the million. Each value is then
  /// appended by a call made for its type, while the values of `add(_:)` are appended through
  /// `SQLBindable`, generic code that copies each optional value, with a retain and a release
  /// of each string. `record` is lent to `write`, not copied, as a closure capturing it would
  /// copy it (a retain and a release of each of its strings).
  public func add<Record>(
    _ record: borrowing Record, _ write: (borrowing Record, inout Arguments) -> Void
  )
    throws
  {
    if let failure = pending.failure { throw failure }
    let before = arguments.count
    write(record, &arguments)
    let added = arguments.count - before
    guard added == columns else {
      arguments.removeLast(added)
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "\(added) values added to an insert of \(columns) columns", sql: one.sql)
    }
    if !isListed {
      isListed = true
      pending.list(self)
    }
    guard arguments.count == columns * Self.rowsPerRun else { return }
    do {
      if let writer = pending.writer {
        // The full batch goes to the writer with its buffer; the next one fills a buffer the
        // writer is done with.
        try writer.hand(many, &arguments)
      } else {
        defer { drop() }
        try many.runBound(from: &arguments, slots: 0..<arguments.count)
      }
    } catch {
      pending.fail(error)
      throw error
    }
  }

  /// Writes the rows gathered so far, one statement each (fewer than `rowsPerRun`).
  fileprivate func writeRest() throws {
    defer { drop() }
    for row in 0..<arguments.count / columns {
      try one.runBound(from: &arguments, slots: row * columns..<(row + 1) * columns)
    }
  }

  /// Forgets the rows not written yet.
  fileprivate func drop() {
    arguments.removeAll()
  }
}

/// The batched rows of one connection not written yet (`BatchedInsert`), in the order their
/// batches took a first row, and the batch writer while one runs.
final class PendingWrites {
  private var batches: [BatchedInsert] = []
  /// The thread writing full batches, while `writingBehind` runs.
  private(set) var writer: BatchWriter?
  /// The failure of a batched write, kept until the outermost transaction ends: SQLite may
  /// have ended the transaction with it (a conflict under `OR ROLLBACK`, a full disk), so
  /// every statement fails with it (`flush()`) rather than run, and commit, on its own.
  private(set) var failure: (any Error)?
  /// True while the connection ignores CHECK constraints (`Database.ignoringCheckConstraints`):
  /// texts are then bound by their length, not found by SQLite up to their NUL, for no
  /// function of a CHECK reads them (given a text without its NUL, such a function reads a
  /// copy SQLite makes). Set and cleared while no batch writer runs.
  var checksIgnored = false

  var isEmpty: Bool { batches.isEmpty && writer == nil && failure == nil }

  fileprivate func list(_ batch: BatchedInsert) {
    batches.append(batch)
  }

  /// Waits until the batch writer, if one runs, has written what it was handed: only then may
  /// this thread use the connection. Its failure, if any, is thrown by the next `flush()`.
  func waitForWriter() {
    writer?.waitUntilIdle()
  }

  /// Writes every pending row, or throws the failure of a batched write of this transaction.
  func flush() throws {
    if let failure { throw failure }
    do {
      try writer?.finish()
      guard !batches.isEmpty else { return }
      let waiting = batches
      batches.removeAll(keepingCapacity: true)
      for batch in waiting { batch.isListed = false }
      for batch in waiting { try batch.writeRest() }
    } catch {
      fail(error)
      throw error
    }
  }

  /// Records the failure of a batched write and drops every row not written.
  func fail(_ error: any Error) {
    if failure == nil { failure = error }
    discard()
  }

  /// Drops every row not written: their transaction is rolled back. A failure of the writer
  /// is kept (`failure`).
  func discard() {
    writer?.waitUntilIdle()
    if let failed = writer?.takeFailure(), failure == nil { failure = failed }
    for batch in batches {
      batch.drop()
      batch.isListed = false
    }
    batches.removeAll()
  }

  /// Forgets the failure: the outermost transaction has ended.
  func transactionEnded() {
    failure = nil
  }

  /// Runs `body` with full batches written by a second thread while this one goes on making
  /// rows: the connection is used by one thread at a time, the writer's runs in the order they
  /// were handed, and every other use of it (`Statement.handle`, `Database.handle`) waits until
  /// the writer has written all it holds. Without a thread, batches are written here. The
  /// writer's thread calls `written` every `BatchWriter.runsBetweenCalls` runs.
  func writingBehind<T>(written: (() -> Void)? = nil, _ body: () throws -> T) throws -> T {
    guard writer == nil, let started = BatchWriter.start(written: written) else {
      return try body()
    }
    writer = started
    defer {
      started.stop()
      writer = nil
      // A run that failed while `body` threw for another reason: SQLite may have ended the
      // transaction, so nothing more may be written in it (`failure`).
      if let failed = started.takeFailure(), failure == nil { fail(failed) }
    }
    let value = try body()
    try flush()
    return value
  }
}

/// The second thread of `PendingWrites.writingBehind`: runs the full batches it is handed, in
/// order. It holds no reference to a statement (a statement must be finalized on the thread
/// that owns the connection): each batch waits for the writer before it goes.
final class BatchWriter: @unchecked Sendable {
  /// Runs handed and not yet written, at most: the maker waits beyond, until the writer is
  /// down to half of them (one wake-up for several runs, not one a run).
  static let depth = 8

  private struct Run {
    let statement: Unmanaged<Statement>
    var arguments: Arguments
  }

  /// Runs written between two calls of `written`.
  static let runsBetweenCalls = 256

  private let condition = NSCondition()
  private var thread: BackgroundThread?
  /// Called by the writer's thread every `runsBetweenCalls` runs written.
  private let written: (() -> Void)?
  // Guarded by `condition`.
  private var runs: [Run] = []
  /// The emptied arguments of runs written, with their buffers, for the next batches: a batch
  /// then allocates nothing (its buffer and values grew to a batch's size once).
  private var spent: [Arguments] = []
  private var writing = false
  private var stopping = false
  private var failure: (any Error)?

  private init(written: (() -> Void)?) { self.written = written }

  /// Starts the writer, which calls `written` every `runsBetweenCalls` runs it writes; nil
  /// when the system cannot start a thread.
  static func start(written: (() -> Void)? = nil) -> BatchWriter? {
    let writer = BatchWriter(written: written)
    guard let thread = BackgroundThread.start({ writer.work() }) else { return nil }
    writer.thread = thread
    return writer
  }

  /// Hands one run to the writer, waiting while it holds `depth`, and leaves `arguments`
  /// empty for the next batch. Throws the failure of an earlier run: the runs after it are
  /// not written.
  func hand(_ statement: Statement, _ arguments: inout Arguments) throws {
    condition.lock()
    defer { condition.unlock() }
    if runs.count >= Self.depth / 2 && failure == nil {
      // The writer is behind: this thread writes the run's decimals as text, which the writer
      // would otherwise do when it binds them. When it keeps up, this thread is the one the
      // import waits for, and the writer does it. (Measured: the pipeline of 100,000 trades
      // is fastest with this split, against the writer always or never doing it, or this
      // thread doing it whenever the writer holds a run.)
      condition.unlock()
      arguments.writeDecimals()
      condition.lock()
    }
    while runs.count >= Self.depth && failure == nil { condition.wait() }
    if let failure { throw failure }
    runs.append(Run(statement: Unmanaged.passUnretained(statement), arguments: arguments))
    // The writer's copy is then the only one: it empties it for reuse without copying it.
    arguments = spent.popLast() ?? Arguments()
    condition.broadcast()
  }

  /// Waits until every run handed was written (or dropped after a failure).
  func waitUntilIdle() {
    condition.lock()
    while !runs.isEmpty || writing { condition.wait() }
    condition.unlock()
  }

  /// Waits until idle, then throws the failure of a run, if one failed (once).
  func finish() throws {
    waitUntilIdle()
    if let failure = takeFailure() { throw failure }
  }

  /// The failure of a run, taken: the next `finish()` does not throw it again.
  func takeFailure() -> (any Error)? {
    condition.lock()
    defer { condition.unlock() }
    let taken = failure
    failure = nil
    return taken
  }

  /// Ends the thread once it is idle.
  func stop() {
    condition.lock()
    while !runs.isEmpty || writing { condition.wait() }
    stopping = true
    condition.broadcast()
    condition.unlock()
    thread?.join()
    // The thread's job holds the writer: without this, the writer, and what `written` holds
    // (the new file of an import, whose end removes what a failed import made), would never be
    // freed.
    thread = nil
  }

  private func work() {
    var count = 0
    condition.lock()
    while true {
      while runs.isEmpty && !stopping { condition.wait() }
      if runs.isEmpty { break }
      var run = runs.removeFirst()
      writing = true
      condition.unlock()
      var thrown: (any Error)?
      do {
        try run.statement.takeUnretainedValue().runBound(
          from: &run.arguments, slots: 0..<run.arguments.count)
      } catch {
        thrown = error
      }
      run.arguments.removeAll()
      count += 1
      if count % Self.runsBetweenCalls == 0 { written?() }
      condition.lock()
      writing = false
      if spent.count <= Self.depth { spent.append(run.arguments) }
      if let thrown {
        if failure == nil { failure = thrown }
        runs.removeAll()
      }
      // Whoever waits, waits for room (half the runs), for the end of the runs or for a
      // failure.
      if runs.count <= Self.depth / 2 { condition.broadcast() }
    }
    condition.unlock()
  }
}
