/// A gzip stream of `count` zero bytes, built directly (no zlib here): one fixed-Huffman
/// deflate block of a literal zero and back-references of 258 bytes at distance 1, 13 bits
/// each, so 256 MiB of zeros take about 1.6 MB. The trailer's CRC-32 and size are right, so
/// a decoder that reads it all accepts it.
public enum GzipBomb {
  public static func zeros(_ count: Int) -> [UInt8] {
    precondition(count >= 1)
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    out.reserveCapacity(count / 150 + 64)
    var bits: UInt64 = 0
    var used = 0
    func put(_ value: UInt32, _ width: Int) {
      bits |= UInt64(value) << UInt64(used)
      used += width
      while used >= 8 {
        out.append(UInt8(truncatingIfNeeded: bits))
        bits >>= 8
        used -= 8
      }
    }
    /// A Huffman code goes most significant bit first.
    func code(_ value: UInt32, _ width: Int) {
      var reversed: UInt32 = 0
      for bit in 0..<width where value & (1 << UInt32(width - 1 - bit)) != 0 {
        reversed |= 1 << UInt32(bit)
      }
      put(reversed, width)
    }
    put(1, 1)  // the last block
    put(1, 2)  // fixed Huffman codes
    code(0x30, 8)  // literal 0
    let matches = (count - 1) / 258
    for _ in 0..<matches {
      code(0xC5, 8)  // length 258 (code 285)
      put(0, 5)  // distance 1 (code 0)
    }
    for _ in 0..<((count - 1) % 258) { code(0x30, 8) }
    put(0, 7)  // end of block
    if used > 0 { put(0, 8 - used) }
    let crc = crc32OfZeros(count)
    let size = UInt32(truncatingIfNeeded: count)
    for value in [crc, size] {
      for shift in stride(from: 0, to: 32, by: 8) {
        out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
      }
    }
    return out
  }

  /// CRC-32 (gzip's) of `count` zero bytes, by squaring the 32×32 GF(2) matrix of one zero
  /// byte (as zlib's crc32_combine does), so it costs log(count) steps.
  static func crc32OfZeros(_ count: Int) -> UInt32 {
    func table(_ byte: UInt32) -> UInt32 {
      var c = byte
      for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
      return c
    }
    func apply(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
      var result: UInt32 = 0
      for bit in 0..<32 where vector & (1 << UInt32(bit)) != 0 { result ^= matrix[bit] }
      return result
    }
    // Column i: the state after one zero byte from the state 1 << i.
    var power = (0..<32).map { bit -> UInt32 in
      let state = UInt32(1) << UInt32(bit)
      return (state >> 8) ^ table(state & 0xFF)
    }
    var state: UInt32 = 0xFFFF_FFFF
    var remaining = count
    while remaining > 0 {
      if remaining & 1 != 0 { state = apply(power, state) }
      power = power.map { apply(power, $0) }
      remaining >>= 1
    }
    return ~state
  }
}
