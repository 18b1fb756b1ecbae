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
    // Most literals (prices such as 39123.45) are exact decimals as written: parse them
    // directly, without the digit arrays the general case below needs.
    if literal.utf8.first != UInt8(ascii: "+"), let value = try? ExactDecimal(parsing: literal) {
      return .exact(value)
    }
    let bytes = Array(literal.utf8)
    var index = 0
    var negative = false
    if index < bytes.count && bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var digits: [UInt8] = []
    var integerCount = 0
    while index < bytes.count, let digit = digit(bytes[index]) {
      digits.append(digit)
      integerCount += 1
      index += 1
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, let digit = digit(bytes[index]) {
        digits.append(digit)
        index += 1
      }
    }
    var exponent = 0
    if index < bytes.count
      && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E"))
    {
      index += 1
      var exponentNegative = false
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
      {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var magnitude = 0
      var sawDigit = false
      while index < bytes.count, let digit = digit(bytes[index]) {
        sawDigit = true
        // Far beyond either bound; stop growing so the arithmetic cannot overflow.
        if magnitude < 1_000_000 { magnitude = magnitude * 10 + Int(digit) }
        index += 1
      }
      guard sawDigit else { return .outOfRange }
      exponent = exponentNegative ? -magnitude : magnitude
    }
    guard index == bytes.count, !digits.isEmpty else { return .outOfRange }

    // Drop leading zeros; the decimal point sits `point` digits from the left of `digits`.
    var point = integerCount + exponent
    var leading = 0
    while leading < digits.count && digits[leading] == 0 { leading += 1 }
    guard leading < digits.count else { return .exact(.zero) }
    digits.removeFirst(leading)
    point -= leading
    while digits.last == 0 { digits.removeLast() }

    let scale = ExactDecimal.scale
    // The first significant digit lies beyond the 19th fractional place: rounds to zero.
    if point < -scale { return .rounded(.zero) }
    // At least 10^22: well out of range (and this keeps the strings below small).
    if point > 22 { return .outOfRange }

    var whole: [UInt8]
    var fraction: [UInt8]
    if point <= 0 {
      whole = [0]
      fraction = [UInt8](repeating: 0, count: -point) + digits
    } else if point >= digits.count {
      whole = digits + [UInt8](repeating: 0, count: point - digits.count)
      fraction = []
    } else {
      whole = Array(digits[..<point])
      fraction = Array(digits[point...])
    }

    var rounded = false
    if fraction.count > scale {
      rounded = true
      let dropped = fraction[scale]
      let restNonZero = fraction[(scale + 1)...].contains { $0 != 0 }
      fraction.removeLast(fraction.count - scale)
      let lastKeptOdd = (fraction.last ?? 0) % 2 == 1
      if dropped > 5 || (dropped == 5 && (restNonZero || lastKeptOdd)) {
        increment(&whole, &fraction)
      }
      while fraction.last == 0 { fraction.removeLast() }
    }

    var text = negative ? "-" : ""
    text += String(decoding: whole.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    if !fraction.isEmpty {
      text += "." + String(decoding: fraction.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }
    guard let value = try? ExactDecimal(parsing: text) else { return .outOfRange }
    return rounded ? .rounded(value) : .exact(value)
  }

  private static func digit(_ byte: UInt8) -> UInt8? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
  }

  /// Adds one unit in the last place of `fraction` (or of `whole` when there is no fraction).
  private static func increment(_ whole: inout [UInt8], _ fraction: inout [UInt8]) {
    var index = fraction.count - 1
    while index >= 0 {
      if fraction[index] < 9 {
        fraction[index] += 1
        return
      }
      fraction[index] = 0
      index -= 1
    }
    index = whole.count - 1
    while index >= 0 {
      if whole[index] < 9 {
        whole[index] += 1
        return
      }
      whole[index] = 0
      index -= 1
    }
    whole.insert(1, at: 0)
  }
}
