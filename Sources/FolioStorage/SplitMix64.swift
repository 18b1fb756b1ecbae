/// SplitMix64 (https://prng.di.unimi.it/splitmix64.c): numbers that depend only on the seed,
/// for the demo's made-up market and for test data. Swift's own hashing and random generator
/// are seeded per process, so neither gives the same numbers twice.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// Seeded with the hash of `text`: the same text always gives the same numbers.
  public init(hashing text: String) { state = Self.hash(text) }

  /// The 64-bit FNV-1a hash of `text`.
  public static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  public mutating func next() -> UInt64 {
    state = state &+ 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// A whole number in `range`, as the remainder of `next()`: not quite even, but unlike
  /// `Int.random(in:using:)` fixed for good, so the demo's figures never change.
  public mutating func next(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound + 1)
    return range.lowerBound + Int(next() % width)
  }
}
