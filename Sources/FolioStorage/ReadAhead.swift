import CSQLite
import Foundation

/// Steps a statement on a second thread, copying its rows out of SQLite a batch at a time,
/// while the caller's thread reads the batches before: a long scan costs about the longer of
/// SQLite's share and the reader's, not their sum (`Statement.forEachRow(_:readingAhead:_:)`).
///
/// The statement is used by one thread at a time: only the stepping thread calls into SQLite
/// until `finish()` has joined it, and the reading thread touches nothing but the copies. The
/// stepping thread has exited, dropping everything it held, when `finish()` returns: the
/// statement is never finalized on it.
final class ReadAhead: @unchecked Sendable {
  /// Rows a batch holds: a few hundred kilobytes, handed over a few hundred times a second.
  static let batchRows = 1024
  /// Batches copied and not yet read, at most: memory stays a few batches whatever the scan.
  static let queued = 2

  private let statement: Statement
  /// The statement's SQLite handle: the stepping thread reads nothing of `statement` per row
  /// (`Statement.advance(_:of:)`).
  private let handle: OpaquePointer
  private let width: Int
  private let condition = NSCondition()
  /// The stepping thread, until `finish()` joins it.
  private var thread: BackgroundThread?
  // Guarded by `condition`.
  private var filled: [RowBatch] = []
  private var spare: [RowBatch] = []
  private var stepping = true
  private var stopping = false
  private var failure: (any Error)?

  private init(_ statement: Statement, handle: OpaquePointer) {
    self.statement = statement
    self.handle = handle
    width = Int(sqlite3_column_count(handle))
  }

  /// Starts stepping `statement`, already reset and bound, whose connection has no batched
  /// rows left to write, on a second thread; nil when the system cannot start one (a process
  /// limit, no memory for its stack): the caller steps it itself.
  static func start(_ statement: Statement, handle: OpaquePointer) -> ReadAhead? {
    let ahead = ReadAhead(statement, handle: handle)
    // The job holds the reader until `finish()` has joined the thread and let it go.
    guard let thread = BackgroundThread.start({ ahead.step() }) else { return nil }
    ahead.thread = thread
    return ahead
  }

  /// The stepping thread: copies rows until the statement is done, fails or is stopped. The
  /// rows copied before a failure are handed over before it.
  private func step() {
    guard var batch = RowBatch(width: width) else { return end(failing: outOfMemory) }
    while true {
      batch.removeAll()
      var done = false
      var thrown: (any Error)?
      do {
        while !batch.isFull {
          guard try Statement.advance(handle, of: statement) else {
            done = true
            break
          }
          guard batch.append(handle) else { throw outOfMemory }
        }
      } catch {
        (done, thrown) = (true, error)
      }
      if batch.rows > 0 {
        guard hand(batch) else { return end(failing: nil) }
        guard let next = reused() ?? RowBatch(width: width) else {
          return end(failing: outOfMemory)
        }
        batch = next
      }
      if done { return end(failing: thrown) }
    }
  }

  /// What the reader throws when a batch could not be allocated: the error SQLite itself
  /// reports when it runs out of memory.
  private var outOfMemory: SQLiteError {
    SQLiteError(extendedCode: SQLITE_NOMEM, message: "out of memory", sql: statement.sql)
  }

  /// Queues `batch` once there is room; false when the reader stopped.
  private func hand(_ batch: RowBatch) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while filled.count >= Self.queued && !stopping { condition.wait() }
    guard !stopping else { return false }
    filled.append(batch)
    condition.broadcast()
    return true
  }

  /// A batch the reader gave back, if any, to fill again.
  private func reused() -> RowBatch? {
    condition.lock()
    defer { condition.unlock() }
    return spare.popLast()
  }

  /// The stepping thread's last act: no more batches, and `error` for the reader to throw.
  private func end(failing error: (any Error)?) {
    condition.lock()
    failure = error
    stepping = false
    condition.broadcast()
    condition.unlock()
  }

  /// The next batch in order, or nil at the end; throws what stepping threw once the rows
  /// before it are read.
  func next() throws -> RowBatch? {
    condition.lock()
    defer { condition.unlock() }
    while filled.isEmpty && stepping { condition.wait() }
    guard filled.isEmpty else {
      condition.broadcast()
      return filled.removeFirst()
    }
    if let failure { throw failure }
    return nil
  }

  /// Gives a read batch back for reuse.
  func recycle(_ batch: RowBatch) {
    condition.lock()
    spare.append(batch)
    condition.unlock()
  }

  /// Stops the stepping thread (if still running) and waits until it has exited.
  func finish() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
    thread?.join()
    thread = nil
  }

  /// Calls `body` with each row, in order, as `Row`s over the copies.
  func forEachRow(_ body: (Row) throws -> Void) throws {
    defer { finish() }
    while let batch = try next() {
      try batch.forEachRow { try body(Row(statement: statement, copied: $0)) }
      recycle(batch)
    }
  }
}

/// Rows copied out of a statement: each column's class and number, and the bytes of its text
/// or blob in one buffer. It belongs to one thread at a time, handed over under `ReadAhead`'s
/// lock. Its memory is managed by hand: `Array`'s appends (a uniqueness check and a capacity
/// check per column, a generic copy per text) cost more than SQLite's stepping. Allocation is
/// checked (`malloc`, not Swift's `allocate`, which traps): out of memory ends the scan with
/// an error.
final class RowBatch: @unchecked Sendable {
  /// Bytes of text and blobs after which a batch is full whatever its rows: a few batches of
  /// huge hand-typed values cost a few megabytes, not a thousand times the value.
  static let fullBytes = 1 << 20
  /// The buffer's first size, to which one grown past twice `fullBytes` goes back when emptied.
  static let startBytes = 64 * 1024

  let width: Int
  private(set) var rows = 0
  /// `ReadAhead.batchRows` rows of `width` columns.
  private let columns: UnsafeMutablePointer<CopiedColumn>
  private var bytes: UnsafeMutableRawPointer
  private(set) var capacity = RowBatch.startBytes
  private var used = 0

  init?(width: Int) {
    let count = ReadAhead.batchRows * max(width, 1)
    guard let columns = malloc(count * MemoryLayout<CopiedColumn>.stride) else { return nil }
    guard let bytes = malloc(capacity) else {
      free(columns)
      return nil
    }
    self.width = width
    self.columns = columns.bindMemory(to: CopiedColumn.self, capacity: count)
    self.bytes = bytes
  }

  deinit {
    free(columns)
    free(bytes)
  }

  var isFull: Bool { rows == ReadAhead.batchRows || used >= Self.fullBytes }

  /// Empties the batch. A buffer grown for a value of megabytes goes back to its first size,
  /// so it is not held for the rest of the scan.
  func removeAll() {
    rows = 0
    used = 0
    if capacity > 2 * Self.fullBytes, let shrunk = realloc(bytes, Self.startBytes) {
      (bytes, capacity) = (shrunk, Self.startBytes)
    }
  }

  /// Copies the current row of `statement`; false, copying nothing, when there is no memory
  /// for its bytes.
  func append(_ statement: OpaquePointer) -> Bool {
    let start = used
    var slot = rows * width
    for index in 0..<Int32(width) {
      let column = Column(sqlite3_column_value(statement, index))
      let count = column.bytes.count
      guard used + count <= capacity || grow(to: used + count) else {
        used = start
        return false
      }
      if count > 0, let source = column.bytes.baseAddress {
        memcpy(bytes + used, source, count)
      }
      columns[slot] = CopiedColumn(
        type: column.type, number: column.number, offset: used, count: count)
      used += count
      slot += 1
    }
    rows += 1
    return true
  }

  /// Makes room for `count` bytes, keeping those used; false when there is no memory.
  private func grow(to count: Int) -> Bool {
    let grown = max(capacity * 2, count)
    guard let moved = realloc(bytes, grown) else { return false }
    (bytes, capacity) = (moved, grown)
    return true
  }

  /// Calls `body` with each row, in order.
  func forEachRow(_ body: (CopiedRow) throws -> Void) rethrows {
    let bytes = UnsafeRawBufferPointer(start: self.bytes, count: used)
    for start in stride(from: 0, to: rows * width, by: width) {
      try body(
        CopiedRow(columns: UnsafeBufferPointer(start: columns + start, count: width), bytes: bytes))
    }
  }
}

/// A column as `RowBatch` keeps it: its bytes are at `offset` in the batch's buffer.
struct CopiedColumn {
  let type: Int32
  let number: Int64
  let offset: Int
  let count: Int
}

/// One copied row: its columns and the buffer of the batch they came from.
struct CopiedRow {
  let columns: UnsafeBufferPointer<CopiedColumn>
  let bytes: UnsafeRawBufferPointer

  /// Column `index`; NULL past the last, as SQLite answers.
  func column(_ index: Int) -> Column {
    guard columns.indices.contains(index) else { return .null }
    let column = columns[index]
    return Column(
      type: column.type, number: column.number,
      bytes: UnsafeRawBufferPointer(rebasing: bytes[column.offset..<column.offset + column.count]))
  }
}
