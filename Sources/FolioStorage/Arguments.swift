import CSQLite
import Foundation

/// The values a statement is bound with, gathered in parameter order by `Statement.run(_:)`
/// (the hot-loop form: an import inserts millions of rows) and `Statement.bind(_:)`.
///
/// Text, strings and decimals alike, is written into one byte buffer that the statement keeps
/// from run to run, each value followed by a NUL, and SQLite reads it there for the length of
/// the run (`SQLITE_STATIC`; `Statement.bind(_:)`, whose bindings outlast the call, has SQLite
/// copy it). Bound one at a time with `SQLITE_TRANSIENT`, each text was
/// copied by SQLite into an allocation of its own, freed again at the next bind; and in an
/// `[any SQLBindable]` each `ExactDecimal` (16-byte aligned) was boxed on the heap.
public struct Arguments {
  enum Slot {
    case null
    case integer(Int64)
    case real(Double)
    /// `count` bytes at `start` of the buffer; `terminated` when no NUL is among them (one
    /// always follows), so SQLite may treat them as a C string.
    case text(start: Int, count: Int, terminated: Bool)
    /// Text not yet searched for a NUL: the thread that binds it searches it (`bind`), for a
    /// batch the writer, not the thread making its rows.
    case unsearchedText(start: Int, count: Int)
    case blob(start: Int, count: Int)
    /// A decimal, as the two halves of its units. Its canonical text goes into the buffer when
    /// the values are bound (`bind`), by the thread that binds them: a batch writer
    /// (`BatchedInsert`) formats a batch's decimals, not the thread making its rows.
    case decimal(high: Int64, low: UInt64)
  }

  private(set) var slots: [Slot] = []
  /// The text of every value, in one buffer managed by hand: an `Array`'s appends (a
  /// uniqueness check, a capacity check and a generic copy each) cost more than the few bytes
  /// of a decimal they copy, a million times in an import.
  let bytes: TextBuffer

  init(bytes: TextBuffer = TextBuffer()) { self.bytes = bytes }

  /// Empties the arguments for the next run, keeping the buffer unless one run's text made it
  /// large (a page's worth of sparkline, a long note): that is not held for the statement's life.
  mutating func removeAll() {
    slots.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: bytes.capacity <= Self.keptCapacity)
  }

  /// The most buffer kept from one run to the next: a row of any of folio's tables but for
  /// exceptional text.
  static let keptCapacity = 64 << 10

  /// How many values were appended.
  var count: Int { slots.count }

  /// Takes the last `count` values out (their text stays in the buffer until `removeAll`).
  mutating func removeLast(_ count: Int) {
    slots.removeLast(count)
  }

  public mutating func append(_ value: Int64) {
    slots.append(.integer(value))
  }

  public mutating func append(_ value: SQLValue) {
    switch value {
    case .null: slots.append(.null)
    case .integer(let value): slots.append(.integer(value))
    case .real(let value): slots.append(.real(value))
    case .text(let value): append(value)
    case .blob(let value):
      let start = value.withUnsafeBufferPointer { bytes.append($0) }
      slots.append(.blob(start: start, count: value.count))
    }
  }

  public mutating func append(_ value: ExactDecimal) {
    slots.append(
      .decimal(
        high: Int64(truncatingIfNeeded: value.units >> 64),
        low: UInt64(truncatingIfNeeded: value.units)))
  }

  public mutating func append(_ value: String) {
    // Read in place: `withUTF8` would need a copy of the string to mutate, and so a retain and
    // a release of its storage for every value.
    guard value.utf8.withContiguousStorageIfAvailable({ append(text: $0) }) == nil else { return }
    var copy = value
    copy.withUTF8 { append(text: $0) }
  }

  public mutating func append(_ value: Int64?) {
    if let value { append(value) } else { slots.append(.null) }
  }

  public mutating func append(_ value: ExactDecimal?) {
    if let value { append(value) } else { slots.append(.null) }
  }

  public mutating func append(_ value: String?) {
    if let value { append(value) } else { slots.append(.null) }
  }

  /// Appends UTF-8 text, such as a buffer on the stack: it is copied into the buffer.
  public mutating func append(text: UnsafeBufferPointer<UInt8>) {
    let start = bytes.append(text, terminated: true)
    slots.append(.unsearchedText(start: start, count: text.count))
  }

  /// Binds every value to `statement`, whose parameters must be as many. SQLite copies the
  /// text of the values when `copying`, else reads it in place in `bytes`, which must then
  /// stay as it is until the bindings are cleared. With `range`, only those values are bound
  /// (a batch's rows, `BatchedInsert`).
  mutating func bind(to statement: Statement, copying: Bool, slots range: Range<Int>? = nil)
    throws
  {
    // Called by the thread that holds the connection (see `Statement.raw`).
    let handle = statement.raw
    let destructor = copying ? sqliteTransient : nil
    let parameters = sqlite3_bind_parameter_count(handle)
    let range = range ?? slots.indices
    guard range.count == parameters else {
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "\(range.count) values bound to a statement with \(parameters) parameters",
        sql: statement.sql)
    }
    writeDecimals(in: range)
    let buffer = bytes.buffer
    let byLength = statement.bindsTextByLength
    for (offset, slot) in slots[range].enumerated() {
      let index = Int32(truncatingIfNeeded: offset + 1)
      let code: Int32
      switch slot {
      case .null: code = sqlite3_bind_null(handle, index)
      case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
      case .real(let value): code = sqlite3_bind_double(handle, index, value)
      case .text(let start, let count, let terminated):
        code = Self.bindText(
          handle, index, buffer, start, count, terminated && !byLength, destructor)
      case .unsearchedText(let start, let count):
        let terminated =
          !byLength && buffer.baseAddress.map { memchr($0 + start, 0, count) == nil } ?? false
        code = Self.bindText(handle, index, buffer, start, count, terminated, destructor)
      case .blob(_, 0): code = sqlite3_bind_zeroblob(handle, index, 0)
      case .blob(let start, let count):
        code = sqlite3_bind_blob64(
          handle, index, buffer.baseAddress?.advanced(by: start), UInt64(count), destructor)
      case .decimal:
        // Not reached: `writeDecimals` made every decimal in the range text.
        code = SQLITE_MISUSE
      }
      try statement.check(code)
    }
  }
}

extension Arguments {
  /// Binds the `count` bytes at `start` of `buffer` as text to parameter `index`.
  private static func bindText(
    _ handle: OpaquePointer, _ index: Int32, _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int,
    _ count: Int, _ terminated: Bool, _ destructor: sqlite3_destructor_type?
  ) -> Int32 {
    guard let base = buffer.baseAddress else {
      // Not reached: a NUL follows every text, so the buffer is never empty here.
      return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
    }
    let text = UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self)
    // A negative length makes SQLite find the NUL and mark its value terminated, which the
    // functions in a CHECK would otherwise copy it to make.
    return sqlite3_bind_text(
      handle, index, text, terminated ? -1 : Int32(clamping: count), destructor)
  }

  /// Writes the canonical text of the decimals among `range` (all values when nil) into the
  /// buffer, each followed by a NUL, and makes them text values.
  mutating func writeDecimals(in range: Range<Int>? = nil) {
    let range = range ?? slots.indices
    // One reference for the loop, not a retain and a release for each decimal.
    let bytes = bytes
    for index in range {
      guard case .decimal(let high, let low) = slots[index] else { continue }
      let value = ExactDecimal(units: Int128(high) << 64 | Int128(low))
      slots[index] = value.withCanonicalText { text in
        .text(start: bytes.append(text, terminated: true), count: text.count, terminated: true)
      }
    }
  }
}

/// The bytes `Arguments` gathers, in one growing allocation kept from run to run. A class, so
/// the allocation is freed with the last reference; the statement that owns the arguments is
/// its only user.
final class TextBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  private(set) var count = 0

  /// The first size, and the size a buffer kept too large goes back to.
  private static let startCapacity = 256

  init() {
    capacity = Self.startCapacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  /// The bytes appended so far, valid until the next append or `removeAll`.
  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Appends `bytes`, and a NUL after them when `terminated`; returns where they start.
  func append(_ bytes: UnsafeBufferPointer<UInt8>, terminated: Bool = false) -> Int {
    let start = count
    let needed = start + bytes.count + 1
    if needed > capacity { grow(to: needed) }
    if let source = bytes.baseAddress { (base + start).update(from: source, count: bytes.count) }
    count = start + bytes.count
    if terminated {
      base[count] = 0
      count += 1
    }
    return start
  }

  func removeAll(keepingCapacity: Bool) {
    count = 0
    guard !keepingCapacity else { return }
    base.deallocate()
    capacity = Self.startCapacity
    base = .allocate(capacity: capacity)
  }

  /// Makes room for `needed` bytes, keeping those appended.
  private func grow(to needed: Int) {
    let grown = max(capacity * 2, needed)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.update(from: base, count: count)
    base.deallocate()
    (base, capacity) = (moved, grown)
  }
}
