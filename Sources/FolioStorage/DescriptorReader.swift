import Foundation

/// Reads from a file descriptor through `read(2)` into memory the caller owns, so a file read
/// chunk after chunk reuses one buffer (`FileHandle.read` makes a new `Data` each time).
public enum DescriptorReader {
  /// Reads until `buffer` is full or the input ends, as `FileHandle.read(upToCount:)` does
  /// (so a pipe's first bytes do not end the wait for a whole chunk), retrying EINTR; returns
  /// how many bytes were read, fewer than `buffer.count` only at the end of the input.
  public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws
    -> Int
  {
    guard let base = buffer.baseAddress else { return 0 }
    var total = 0
    while total < buffer.count {
      let count = Glibc.read(descriptor, base + total, buffer.count - total)
      if count > 0 {
        total += count
      } else if count == 0 {
        break
      } else if errno != EINTR {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
    }
    return total
  }
}
