import FolioStorage
import Foundation

/// One record of a CSV file: its fields and the line it starts on.
public struct CSVRecord: Sendable, Equatable {
  public let fields: [String]
  /// The 1-based line number where the record starts.
  public let line: Int
}

/// A CSV file that cannot be read as RFC 4180.
public struct CSVError: LocalizedError, ClassifiedError, Equatable {
  public let source: String
  /// The line of the problem; 0 when it concerns the whole file.
  public let line: Int
  public let reason: String
  /// Bad data (65) unless the file could not be read at all (74).
  public let kind: FailureKind

  public init(source: String, line: Int, reason: String, kind: FailureKind = .badData) {
    self.source = source
    self.line = line
    self.reason = reason
    self.kind = kind
  }

  public var errorDescription: String? {
    line > 0 ? "\(source):\(line): \(reason)" : "\(source): \(reason)"
  }
}

/// A streaming RFC 4180 reader: quoted fields with `""` escapes and line breaks, CRLF or LF
/// line ends, and a UTF-8 byte-order mark are accepted; UTF-16 text and invalid UTF-8 are
/// refused with their line. Memory stays constant whatever the file's size: bytes are read in
/// 1 MiB chunks, and a field longer than `maxFieldBytes` or a record of more than `maxFields`
/// fields is refused with its line (so `/dev/zero` or a binary file ends quickly).
///
/// Not `Sendable`: it owns a file handle and a buffer.
public final class CSVReader {
  /// The longest field read, in bytes: far above any CSV folio reads.
  public static let maxFieldBytes = 1 << 20
  /// The most fields a record may have.
  public static let maxFields = 10_000
  /// The most bytes read from the file at a time.
  static let chunkBytes = 1 << 20
  private let handle: FileHandle?
  private let source: String
  /// The bytes read and not yet consumed are `buffer[position..<end]`. A file is read into the
  /// same storage chunk after chunk: a new array for each would fault its pages in again.
  private var buffer: [UInt8] = []
  private var end = 0
  private var position = 0
  private var atEnd = false
  private var line = 1
  private var field: [UInt8] = []
  private var started = false
  /// The fields of the record read before (at most 256), the room the next one starts with.
  private var fieldsBefore = 0
  /// Bytes consumed so far, for progress reporting.
  public private(set) var bytesRead: Int = 0

  /// Reads from `handle`; `source` names the input in error messages.
  public init(handle: FileHandle, source: String) {
    self.handle = handle
    self.source = source
    field.reserveCapacity(256)
  }

  /// Reads from bytes already in memory (tests and the fuzzer).
  public init(bytes: [UInt8], source: String) {
    self.handle = nil
    self.source = source
    buffer = bytes
    end = bytes.count
    bytesRead = bytes.count
    atEnd = true
  }

  private func refill() throws -> Bool {
    guard !atEnd, let handle else { return false }
    if buffer.count < Self.chunkBytes { buffer = [UInt8](repeating: 0, count: Self.chunkBytes) }
    let count: Int
    do {
      count = try buffer.withUnsafeMutableBytes {
        try DescriptorReader.read(handle.fileDescriptor, into: $0)
      }
    } catch {
      throw CSVError(
        source: source, line: line, reason: "cannot be read: \(SystemErrorText.words(error))",
        kind: .io)
    }
    if count == 0 {
      atEnd = true
      return false
    }
    (position, end) = (0, count)
    bytesRead += count
    return true
  }

  /// Reads until `count` bytes from `position` on are in the buffer, or the input ends.
  private func fill(atLeast count: Int) throws {
    while end - position < count {
      let unread = Array(buffer[position..<end])
      guard try refill() else { return }
      buffer = unread + buffer[..<end]
      (position, end) = (0, buffer.count)
    }
  }

  /// The next byte, or nil at the end of the input.
  @inline(__always)
  private func nextByte() throws -> UInt8? {
    if position == end {
      guard try refill() else { return nil }
    }
    let byte = buffer[position]
    position += 1
    return byte
  }

  private func peekByte() throws -> UInt8? {
    if position == end {
      guard try refill() else { return nil }
    }
    return buffer[position]
  }

  /// Waits until the input has bytes to read (a first chunk, up to 1 MiB) or has ended, and
  /// throws when it cannot be read: a caller may then take what a slow producer at the other
  /// end of a pipe would otherwise hold up, such as the database's write lock.
  public func waitForInput() throws {
    _ = try peekByte()
  }

  /// The bytes as a string, or nil when they are not valid UTF-8.
  private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // ASCII, by far the common case, needs no validation beyond this scan (the generic
    // `String(validating:as:)` also looks up type metadata on every call).
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  private func finishField(into fields: inout [String]) throws {
    try checkCount(of: fields)
    guard let text = field.withUnsafeBufferPointer(Self.text) else {
      throw CSVError(source: source, line: line, reason: "is not valid UTF-8 text")
    }
    fields.append(text)
    field.removeAll(keepingCapacity: true)
  }

  private func checkCount(of fields: [String]) throws {
    guard fields.count < Self.maxFields else {
      throw CSVError(
        source: source, line: line,
        reason: "has more than \(Self.maxFields) fields in one record: is it a CSV file?")
    }
  }

  /// Appends a byte to the field being read, refusing a field longer than `maxFieldBytes`.
  @inline(__always)
  private func append(_ byte: UInt8) throws {
    guard field.count < Self.maxFieldBytes else {
      throw CSVError(
        source: source, line: line,
        reason: "has a field longer than \(Self.maxFieldBytes / (1 << 20)) MiB (no line break "
          + "or delimiter in it): is it a CSV file?")
    }
    field.append(byte)
  }

  /// The fast path for the common field: unquoted and ending in the buffer at "," or "\n".
  /// Appends it and returns that delimiter (consumed), or returns nil, having consumed
  /// nothing, for the byte-by-byte path to handle.
  private func takePlainField(into fields: inout [String]) throws -> UInt8? {
    try buffer.withUnsafeBufferPointer { bytes in
      var end = position
      while end < self.end {
        switch bytes[end] {
        case UInt8(ascii: ","), UInt8(ascii: "\n"):
          guard let text = Self.text(UnsafeBufferPointer(rebasing: bytes[position..<end])) else {
            throw CSVError(source: source, line: line, reason: "is not valid UTF-8 text")
          }
          try checkCount(of: fields)
          fields.append(text)
          let delimiter = bytes[end]
          position = end + 1
          return delimiter
        case UInt8(ascii: "\r"), UInt8(ascii: "\""):
          return nil
        default:
          end += 1
        }
      }
      return nil
    }
  }

  /// The next record, or nil at the end of the input. A blank line is a record with one
  /// empty field.
  public func next() throws -> CSVRecord? {
    if !started {
      started = true
      let first = try peekByte()
      if first == 0xFF || first == 0xFE {
        // 0xFF and 0xFE never occur in UTF-8: this is a UTF-16 byte-order mark.
        throw CSVError(
          source: source, line: 1,
          reason: "is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8")
      }
      // Skip a UTF-8 byte-order mark, even when a pipe delivers it a byte at a time.
      if first == 0xEF {
        try fill(atLeast: 3)
        if buffer[position..<end].starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
      }
    }
    guard try peekByte() != nil else { return nil }
    let startLine = line
    // Room for as many fields as the record before had: growing the array field by field
    // costs an allocation and a copy each time its capacity doubles.
    var fields: [String] = []
    fields.reserveCapacity(fieldsBefore)
    defer { fieldsBefore = min(fields.count, 256) }
    var quoted = false
    var afterQuote = false
    while true {
      if !quoted && !afterQuote && field.isEmpty, let end = try takePlainField(into: &fields) {
        if end == UInt8(ascii: ",") { continue }
        line += 1
        return CSVRecord(fields: fields, line: startLine)
      }
      guard let byte = try nextByte() else {
        if quoted {
          throw CSVError(
            source: source, line: startLine,
            reason: "a quoted field is not closed before the end of the file")
        }
        try finishField(into: &fields)
        return CSVRecord(fields: fields, line: startLine)
      }
      if quoted {
        if byte == UInt8(ascii: "\"") {
          if try peekByte() == UInt8(ascii: "\"") {
            position += 1
            try append(byte)
          } else {
            quoted = false
            afterQuote = true
          }
        } else {
          if byte == UInt8(ascii: "\n") { line += 1 }
          try append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: ","):
        try finishField(into: &fields)
        afterQuote = false
      case UInt8(ascii: "\n"):
        try finishField(into: &fields)
        line += 1
        return CSVRecord(fields: fields, line: startLine)
      case UInt8(ascii: "\r"):
        if try peekByte() == UInt8(ascii: "\n") {
          position += 1
          try finishField(into: &fields)
          line += 1
          return CSVRecord(fields: fields, line: startLine)
        }
        throw CSVError(source: source, line: line, reason: "has a carriage return outside quotes")
      case UInt8(ascii: "\""):
        guard field.isEmpty && !afterQuote else {
          throw CSVError(
            source: source, line: line,
            reason:
              "has a quote inside an unquoted field (quote the whole field and double the quote)")
        }
        quoted = true
      default:
        if afterQuote {
          throw CSVError(
            source: source, line: line, reason: "has text after a closing quote in a field")
        }
        try append(byte)
      }
    }
  }
}
