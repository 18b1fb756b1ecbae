import Foundation

/// Buffered writes to a file descriptor through `write(2)`. It never traps: the first failure
/// is kept (as an `errno` value) and every later write is dropped, so the caller decides what
/// a failed write means (exit 74, remove a temporary file) once, at the end.
///
/// Not `Sendable`: one command writes on one thread.
public final class DescriptorWriter {
  /// The descriptor written to.
  public let descriptor: Int32
  /// The `errno` of the first failed write, or nil while every write succeeded.
  public private(set) var failure: Int32?
  private var buffer: [UInt8] = []
  private let capacity: Int

  /// A writer that flushes whenever `capacity` bytes are waiting.
  public init(descriptor: Int32, capacity: Int = 65_536) {
    self.descriptor = descriptor
    self.capacity = capacity
    buffer.reserveCapacity(capacity)
  }

  private var closedCode: Int32?

  /// Marks the descriptor as unusable with `code` (closed at start, for example): nothing is
  /// written to it, and the first write, if any comes, fails with `code`. A command that
  /// writes nothing there does not fail.
  public func markUnusable(_ code: Int32) {
    closedCode = code
    buffer.removeAll()
  }

  /// Queues `text`; flushes once the buffer is full.
  public func write(_ text: String) {
    if let closedCode {
      if failure == nil && !text.isEmpty { failure = closedCode }
      return
    }
    guard failure == nil else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= capacity { flush() }
  }

  /// Writes out everything queued, retrying short writes and EINTR.
  public func flush() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard failure == nil, !buffer.isEmpty else { return }
    buffer.withUnsafeBytes { bytes in
      guard let start = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, start + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          failure = written < 0 ? errno : EIO
          return
        }
      }
    }
  }
}
