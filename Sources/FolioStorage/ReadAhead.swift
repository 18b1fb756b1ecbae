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
  private let width: Int
  private let condition = NSCondition()
  /// The stepping thread, until `finish()` joins it.
  private var thread: pthread_t?
  // Guarded by `condition`.
  private var filled: [RowBatch] = []
  private var spare: [RowBatch] = []
  private var stepping = true
  private var stopping = false
  private var failure: (any Error)?

  private init(_ statement: Statement) {
    self.statement = statement
    width = Int(statement.columnCount)
  }

  /// Starts stepping `statement`, already reset and bound, on a second thread; nil when the
  /// system cannot start one (a process limit, no memory for its stack): the caller steps it
  /// itself.
  static func start(_ statement: Statement) -> ReadAhead? {
    let ahead = ReadAhead(statement)
    // The thread's own reference, dropped before it exits.
    let context = Unmanaged.passRetained(ahead).toOpaque()
    var thread = pthread_t()
    let code = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        Unmanaged<ReadAhead>.fromOpaque(context).takeRetainedValue().step()
        return nil
      }, context)
    guard code == 0 else {
      Unmanaged<ReadAhead>.fromOpaque(context).release()
      return nil
    }
    ahead.thread = thread
    return ahead
  }

  /// The stepping thread: copies rows until the statement is done, fails or is stopped. The
  /// rows copied before a failure are handed over before it.
  private func step() {
    var batch = RowBatch(width: width)
    while true {
      batch.removeAll()
      var done = false
      var thrown: (any Error)?
      do {
        while !batch.isFull {
          guard try statement.step() else {
            done = true
            break
          }
          batch.append(statement.handle)
        }
      } catch {
        (done, thrown) = (true, error)
      }
      if batch.rows > 0 {
        guard let next = hand(batch) else { return end(failing: nil) }
        batch = next
      }
      if done { return end(failing: thrown) }
    }
  }

  /// Queues `batch` once there is room and returns a spare one to fill, or nil when the
  /// reader stopped.
  private func hand(_ batch: RowBatch) -> RowBatch? {
    condition.lock()
    defer { condition.unlock() }
    while filled.count >= Self.queued && !stopping { condition.wait() }
    guard !stopping else { return nil }
    filled.append(batch)
    condition.broadcast()
    return spare.popLast() ?? RowBatch(width: width)
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
    if let thread {
      pthread_join(thread, nil)
      self.thread = nil
    }
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
/// check per column, a generic copy per text) cost more than SQLite's stepping.
final class RowBatch: @unchecked Sendable {
  let width: Int
  private(set) var rows = 0
  /// `ReadAhead.batchRows` rows of `width` columns.
  let columns: UnsafeMutableBufferPointer<CopiedColumn>
  private(set) var bytes: UnsafeMutableRawBufferPointer
  private var used = 0

  init(width: Int) {
    self.width = width
    columns = .allocate(capacity: ReadAhead.batchRows * width)
    bytes = .allocate(byteCount: 64 * 1024, alignment: 1)
  }

  deinit {
    columns.deallocate()
    bytes.deallocate()
  }

  var isFull: Bool { rows == ReadAhead.batchRows }

  func removeAll() {
    rows = 0
    used = 0
  }

  /// Copies the current row of `statement`.
  func append(_ statement: OpaquePointer) {
    var slot = rows * width
    for index in 0..<Int32(width) {
      let column = Column(sqlite3_column_value(statement, index))
      let count = column.bytes.count
      if used + count > bytes.count { grow(to: used + count) }
      if count > 0, let source = column.bytes.baseAddress, let target = bytes.baseAddress {
        memcpy(target + used, source, count)
      }
      columns[slot] = CopiedColumn(
        type: column.type, number: column.number, offset: used, count: count)
      used += count
      slot += 1
    }
    rows += 1
  }

  /// Makes room for `count` bytes, keeping those used.
  private func grow(to count: Int) {
    let grown = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(bytes.count * 2, count), alignment: 1)
    grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<used]))
    bytes.deallocate()
    bytes = grown
  }

  /// Calls `body` with each row, in order.
  func forEachRow(_ body: (CopiedRow) throws -> Void) rethrows {
    let bytes = UnsafeRawBufferPointer(rebasing: self.bytes[..<used])
    for start in stride(from: 0, to: rows * width, by: width) {
      try body(
        CopiedRow(
          columns: UnsafeBufferPointer(rebasing: columns[start..<start + width]), bytes: bytes))
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
