import FolioStorage

/// Turns JSON number literals into exact decimals without passing through binary floating point.
public enum JSONDecimal {
  /// What became of one literal.
  public enum Conversion: Equatable, Sendable {
    /// The decimal holds the literal's value exactly (an exponent is written out in full).
    case exact(ExactDecimal)
    /// The literal had more than 18 fractional digits; this is its value rounded half-to-even.
    case rounded(ExactDecimal)
    /// The magnitude is beyond what `ExactDecimal` holds (about 1.7e20), or it is not a number.
    case outOfRange

    /// The decimal, exact or rounded; nil when out of range.
    public var value: ExactDecimal? {
      switch self {
      case .exact(let value), .rounded(let value): return value
      case .outOfRange: return nil
      }
    }
  }

  /// Converts a JSON number literal such as `-1.25`, `36685` or `7.53314e-7`.
  /// `7.53314e-7` becomes exactly `0.000000753314`; `1e-30` rounds to `0`.
  public static func convert(_ literal: String) -> Conversion {
    // Most literals (prices such as 39123.45) are exact decimals as written: read them straight
    // from their UTF-8 bytes (no Character, no copy of the text).
    if let value = literal.utf8.withContiguousStorageIfAvailable(plainValue) ?? nil {
      return .exact(value)
    }
    guard let (negative, digits, point) = parts(of: literal) else { return .outOfRange }
    guard !digits.isEmpty else { return .exact(.zero) }
    // The first significant digit lies beyond the 19th fractional place: rounds to zero.
    if point < -ExactDecimal.scale { return .rounded(.zero) }
    // At least 10^22: well out of range (and this keeps the text below small).
    if point > 22 { return .outOfRange }
    // More fractional digits than a decimal holds: keep 18, round half-to-even on the rest.
    let kept = point + ExactDecimal.scale
    guard var value = try? ExactDecimal(parsing: plain(negative, digits.prefix(kept), point))
    else { return .outOfRange }
    let dropped = digits.dropFirst(kept)
    guard let first = dropped.first else { return .exact(value) }
    // `digits` has no trailing zeros, so a second dropped digit means more than a half.
    if first > "5" || (first == "5" && (dropped.count > 1 || value.units % 2 != 0)) {
      guard let away = try? value + ExactDecimal(units: negative ? -1 : 1) else {
        return .outOfRange
      }
      value = away
    }
    return .rounded(value)
  }

  /// The value of a literal such as `-39123.45` or `1e3` that `ExactDecimal` holds exactly as
  /// written (at most 18 fractional digits, a short exponent); nil for any other. ExactDecimal
  /// also reads "+5", ".5", "5." and " 5", which are not JSON numbers: the first and last
  /// bytes are checked here.
  static func plainValue(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard let first = bytes.first, let last = bytes.last,
      first == UInt8(ascii: "-") || isDigit(first), isDigit(last)
    else { return nil }
    return try? ExactDecimal(utf8: bytes)
  }

  /// The sign, the significant digits (no leading or trailing zeros; empty for zero) and the
  /// place of the decimal point counted from the first of them, of a number literal:
  /// `-0.0125e2` is `-`, `125`, `0`. Nil when `literal` is not a number (`-`, digits, an
  /// optional `.` and digits, an optional `e` or `E`, sign and digits). Read byte by byte: a
  /// regex here was compiled again for every literal, 80 µs each.
  static func parts(of literal: String) -> (negative: Bool, digits: Substring, point: Int)? {
    let bytes = Array(literal.utf8)
    var index = 0
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    func skipDigits() -> Range<Int> {
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      return start..<index
    }
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { index += 1 }
    let whole = skipDigits()
    guard !whole.isEmpty else { return nil }
    var fraction = index..<index
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      fraction = skipDigits()
      guard !fraction.isEmpty else { return nil }
    }
    var power = 0
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      let negativePower = index < bytes.count && bytes[index] == UInt8(ascii: "-")
      if index < bytes.count, negativePower || bytes[index] == UInt8(ascii: "+") { index += 1 }
      let exponent = skipDigits()
      guard !exponent.isEmpty else { return nil }
      // An exponent far beyond either bound is clamped, so the sum below cannot overflow.
      for digitIndex in exponent {
        power = min(power * 10 + Int(bytes[digitIndex] &- UInt8(ascii: "0")), 1_000_000)
      }
      if negativePower { power = -power }
    }
    guard index == bytes.count else { return nil }
    let all = bytes[whole] + bytes[fraction]
    guard let first = all.firstIndex(where: { $0 != UInt8(ascii: "0") }),
      let last = all.lastIndex(where: { $0 != UInt8(ascii: "0") })
    else { return (negative, "", 0) }
    let digits = Substring(String(decoding: all[first...last], as: UTF8.self))
    return (negative, digits, whole.count - (first - all.startIndex) + power)
  }

  /// `digits` with the decimal point `point` places from the left of the first, written out
  /// without an exponent: `0.00125`, `12.5`, `1250`.
  static func plain(_ negative: Bool, _ digits: Substring, _ point: Int) -> String {
    guard !digits.isEmpty else { return "0" }
    let sign = negative ? "-" : ""
    if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count {
      return sign + digits + String(repeating: "0", count: point - digits.count)
    }
    return sign + digits.prefix(point) + "." + digits.dropFirst(point)
  }
}
