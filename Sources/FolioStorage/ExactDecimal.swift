import CSQLite
import Foundation

/// An exact decimal number with 18 fractional digits, used for every quantity, price, fee and
/// sum of money in Folio. No binary floating point is involved: 0.1 + 0.2 − 0.3 is exactly 0.
///
/// The value is held as a 128-bit integer count of 10⁻¹⁸ units, so magnitudes up to about
/// 1.7 × 10²⁰ are exact (a 10¹⁵-token balance keeps all 18 fractional digits). Arithmetic that
/// would leave that range throws `DecimalError.overflow` instead of wrapping or trapping.
/// Products and quotients are rounded half-to-even at the 18th fractional digit.
public struct ExactDecimal: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The number of fractional digits every value carries.
  public static let scale = 18
  static let unit: UInt128 = 1_000_000_000_000_000_000

  /// The value times 10¹⁸.
  public let units: Int128

  /// Creates a value from its count of 10⁻¹⁸ units.
  public init(units: Int128) { self.units = units }

  public init(_ integer: Int) {
    self.units = Int128(integer) * Int128(ExactDecimal.unit)
  }

  public static let zero = ExactDecimal(units: 0)
  public static let one = ExactDecimal(1)
  public static let hundred = ExactDecimal(100)

  public var isZero: Bool { units == 0 }
  public var isNegative: Bool { units < 0 }
  public var isPositive: Bool { units > 0 }
  public var magnitude: ExactDecimal { ExactDecimal(units: units < 0 ? 0 - units : units) }

  public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool { lhs.units < rhs.units }

  // MARK: - Arithmetic

  /// The exact sum, or `DecimalError.overflow`. Results stay within ±`Int128.max` units, so
  /// negating or taking the magnitude of any value can never overflow.
  public static func + (lhs: ExactDecimal, rhs: ExactDecimal) throws(DecimalError) -> ExactDecimal {
    let (sum, overflow) = lhs.units.addingReportingOverflow(rhs.units)
    guard !overflow, sum != Int128.min else { throw .overflow }
    return ExactDecimal(units: sum)
  }

  /// The exact difference, or `DecimalError.overflow`.
  public static func - (lhs: ExactDecimal, rhs: ExactDecimal) throws(DecimalError) -> ExactDecimal {
    let (difference, overflow) = lhs.units.subtractingReportingOverflow(rhs.units)
    guard !overflow, difference != Int128.min else { throw .overflow }
    return ExactDecimal(units: difference)
  }

  /// The product rounded half-to-even at 18 fractional digits, or `DecimalError.overflow`.
  public static func * (lhs: ExactDecimal, rhs: ExactDecimal) throws(DecimalError) -> ExactDecimal {
    try scaled(lhs, by: rhs, dividedBy: ExactDecimal(units: Int128(unit)))
  }

  /// The quotient rounded half-to-even at 18 fractional digits; throws on a zero divisor.
  public static func / (lhs: ExactDecimal, rhs: ExactDecimal) throws(DecimalError) -> ExactDecimal {
    try scaled(lhs, by: ExactDecimal(units: Int128(unit)), dividedBy: rhs)
  }

  /// `value × numerator ÷ denominator` with a 256-bit intermediate, so the result is exact up to
  /// one rounding (half-to-even) — for example the cost of part of a lot.
  public static func scaled(
    _ value: ExactDecimal, by numerator: ExactDecimal, dividedBy denominator: ExactDecimal
  ) throws(DecimalError) -> ExactDecimal {
    guard !denominator.isZero else { throw .divisionByZero }
    let negative = ((value.units < 0) != (numerator.units < 0)) != (denominator.units < 0)
    let divisor = denominator.units.magnitude
    let product = value.units.magnitude.multipliedFullWidth(by: numerator.units.magnitude)
    guard product.high < divisor else { throw .overflow }
    var (quotient, remainder) = divisor.dividingFullWidth(product)
    // Half-to-even: compare the remainder with half the divisor without overflowing.
    let half = divisor / 2
    if remainder > half || (remainder == half && divisor % 2 == 0 && quotient % 2 == 1) {
      quotient += 1
    }
    guard quotient <= UInt128(Int128.max) else { throw .overflow }
    let magnitude = Int128(quotient)
    return ExactDecimal(units: negative && magnitude != 0 ? 0 - magnitude : magnitude)
  }

  /// The value rounded half-to-even to `places` fractional digits (0...18). Within one step of
  /// the ends of the range (about ±1.7e20) there is no room to round away from zero, and the
  /// value is cut to `places` digits instead.
  public func rounded(places: Int) -> ExactDecimal {
    guard places < ExactDecimal.scale else { return self }
    var step: Int128 = 1
    for _ in 0..<(ExactDecimal.scale - max(places, 0)) { step *= 10 }
    let remainder = units % step
    var truncated = units - remainder
    let twice = remainder.magnitude * 2
    let stepMagnitude = step.magnitude
    let odd = (truncated / step) % 2 != 0
    if twice > stepMagnitude || (twice == stepMagnitude && odd) {
      let (moved, overflow) = truncated.addingReportingOverflow(units < 0 ? 0 - step : step)
      if !overflow && moved != Int128.min { truncated = moved }
    }
    return ExactDecimal(units: truncated)
  }

  // MARK: - Text

  /// The canonical text: no exponent, no trailing fractional zeros, "-" for negatives, "0" for zero.
  public var description: String {
    withCanonicalText { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the canonical text as UTF-8 bytes in a stack buffer: this runs for every
  /// decimal Folio stores, so it allocates nothing.
  public func withCanonicalText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
    -> R
  {
    // Int128.max has 39 digits: 21 whole ones, a point, 18 fractional ones, and a sign.
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
      // The magnitude's two 64-bit halves divided by 10^18 with two 64-bit divisions, much
      // cheaper than one of 128 bits: the remainder of the high half is below 10^18, so the
      // second quotient fits in 64 bits.
      let magnitude = units.magnitude
      let unit = UInt64(truncatingIfNeeded: ExactDecimal.unit)
      let (wholeHigh, carry) = UInt64(truncatingIfNeeded: magnitude >> 64)
        .quotientAndRemainder(dividingBy: unit)
      let (wholeLow, fractionPart) = unit.dividingFullWidth(
        (high: carry, low: UInt64(truncatingIfNeeded: magnitude)))
      var fraction = fractionPart
      // Whole digits are written backwards from the end of the first 24 bytes.
      var start = 24
      func prepend(_ digit: UInt64) {
        start -= 1
        buffer[start] = UInt8(truncatingIfNeeded: 48 + digit)
      }
      func prependDigits(of value: some FixedWidthInteger & UnsignedInteger) {
        var rest = value
        repeat {
          prepend(UInt64(truncatingIfNeeded: rest % 10))
          rest /= 10
        } while rest > 0
      }
      // Whole parts almost always fit in 64 bits (below 1.8 × 10^19): two digits at a time.
      if wholeHigh == 0 {
        var rest = wholeLow
        while rest >= 10 {
          start -= 2
          Self.writePair(of: rest % 100, to: buffer, at: start)
          rest /= 100
        }
        if rest > 0 || start == 24 { prepend(rest) }
      } else {
        prependDigits(of: UInt128(wholeHigh) << 64 | UInt128(wholeLow))
      }
      if units < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      var end = 24
      if fraction != 0 {
        // Up to 17 trailing zeros go in at most five steps (16, 8, 4, 2 and 1), not one by one.
        var digits = 18
        func strip(_ zeros: Int, _ power: UInt64) {
          guard fraction % power == 0 else { return }
          fraction /= power
          digits -= zeros
        }
        strip(16, 10_000_000_000_000_000)
        strip(8, 100_000_000)
        strip(4, 10_000)
        strip(2, 100)
        strip(1, 10)
        buffer[end] = UInt8(ascii: ".")
        end += 1 + digits
        // Two digits at a time from the last, then the first alone when they are odd.
        var offset = end
        while offset - 25 >= 2 {
          offset -= 2
          Self.writePair(of: fraction % 100, to: buffer, at: offset)
          fraction /= 100
        }
        if offset > 25 { buffer[25] = UInt8(truncatingIfNeeded: 48 + fraction) }
      }
      return try body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
  }

  /// "00" to "99", so `withCanonicalText` writes two digits with one division.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324\
    25262728293031323334353637383940414243444546474849\
    50515253545556575859606162636465666768697071727374\
    75767778798081828384858687888990919293949596979899
    """

  /// Writes `value` (below 100) as two digits at `offset` of `buffer`.
  private static func writePair(
    of value: UInt64, to buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
  ) {
    let source = digitPairs.utf8Start + Int(truncatingIfNeeded: value) * 2
    buffer[offset] = source[0]
    buffer[offset + 1] = source[1]
  }

  /// True when `bytes` are the canonical text of a decimal, exactly as `withCanonicalText` writes
  /// it: an optional "-", digits without a leading zero ("0" alone excepted), an optional "."
  /// with 1 to 18 digits and no trailing zero, never "-0", no exponent, no spaces. Such text can
  /// be stored as it is, with no decimal made of it. Only whole parts of at most 20 digits
  /// count, as those are always in range: a longer one is for the parser to read or refuse.
  public static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    let count = bytes.count
    var index = 0
    let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    let wholeStart = index
    while index < count, isDigit(bytes[index]) { index += 1 }
    let wholeDigits = index - wholeStart
    guard wholeDigits >= 1, wholeDigits <= 20 else { return false }
    let leadingZero = bytes[wholeStart] == UInt8(ascii: "0")
    guard !leadingZero || wholeDigits == 1 else { return false }
    guard index < count else { return !(negative && leadingZero) }
    guard bytes[index] == UInt8(ascii: ".") else { return false }
    index += 1
    let fractionStart = index
    while index < count, isDigit(bytes[index]) { index += 1 }
    let fractionDigits = index - fractionStart
    return index == count && fractionDigits >= 1 && fractionDigits <= scale
      && bytes[count - 1] != UInt8(ascii: "0")
  }

  /// The value with exactly `places` fractional digits (rounded half-to-even), for display.
  public func formatted(places: Int) -> String {
    let value = rounded(places: places)
    var text = value.description
    guard places > 0 else { return text }
    if let dot = text.firstIndex(of: ".") {
      let existing = text.distance(from: dot, to: text.endIndex) - 1
      text += String(repeating: "0", count: max(0, places - existing))
    } else {
      text += "." + String(repeating: "0", count: places)
    }
    return text
  }

  /// The nearest binary floating-point value, for charts and REAL columns only.
  public var doubleValue: Double {
    Double(units) / 1e18
  }

  /// Parses a decimal as a user or an exchange writes it, the one rule for every number Folio
  /// reads: surrounding spaces or tabs, an optional sign ("+5", "-0" is 0), digits with an
  /// optional "." and at least one digit on either side of it (".5", "5." and "5.0" are all
  /// 5 tenths or 5), and an optional exponent of at most 4 digits ("1e3", "4E-8", "6.6E-7").
  /// The value must be exact with at most 18 fractional digits and below about 1.7e20;
  /// thousands separators, "NaN", "inf" and hexadecimal are refused.
  public init(parsing text: String) throws(DecimalError) {
    var copy = text
    let result = copy.withUTF8 { bytes in
      Result { () throws(DecimalError) in try ExactDecimal(utf8: bytes, original: text) }
    }
    self = try result.get()
  }

  /// Parses from UTF-8 bytes (the CSV reader's fast path); the same rules as `init(parsing:)`.
  public init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(DecimalError) {
    self = try ExactDecimal(utf8: bytes, original: nil)
  }

  private init(utf8 bytes: UnsafeBufferPointer<UInt8>, original: String?) throws(DecimalError) {
    if let units = Self.plainUnits(bytes) {
      self.units = units
      return
    }
    func text() -> String { original ?? String(decoding: bytes, as: UTF8.self) }
    func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 9 }
    var index = bytes.firstIndex { !isSpace($0) } ?? bytes.count
    let end = (bytes.lastIndex { !isSpace($0) } ?? -1) + 1
    guard index < end else { throw .empty }
    var negative = false
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    // The digits as an integer without its trailing zeros, which are counted in `zeros`.
    var mantissa: UInt128 = 0
    var zeros = 0
    var wholeDigits = 0
    var fractionDigits = 0
    var seenPoint = false
    var exponent = 0
    while index < end {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if seenPoint { fractionDigits += 1 } else { wholeDigits += 1 }
        let digit = UInt128(byte &- UInt8(ascii: "0"))
        if digit == 0 {
          if mantissa != 0 { zeros += 1 }
          continue
        }
        guard let shifted = ExactDecimal.shift(mantissa, by: zeros + 1) else {
          throw .outOfRange(text())
        }
        mantissa = shifted + digit
        zeros = 0
      case UInt8(ascii: "."):
        guard !seenPoint else { throw .invalid(text(), "more than one decimal point") }
        seenPoint = true
      case UInt8(ascii: ","):
        throw .invalid(text(), "thousands separators are not accepted; write 1000.25, not 1,000.25")
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        guard wholeDigits + fractionDigits > 0, index < end else {
          throw .invalid(text(), "not a number")
        }
        var exponentNegative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
          exponentNegative = bytes[index] == UInt8(ascii: "-")
          index += 1
        }
        let digitsStart = index
        while index < end, bytes[index] >= UInt8(ascii: "0"),
          bytes[index] <= UInt8(ascii: "9")
        {
          guard index - digitsStart < 4 else { throw .outOfRange(text()) }
          exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
          index += 1
        }
        guard index > digitsStart, index == end else {
          throw .invalid(text(), "malformed exponent")
        }
        if exponentNegative { exponent = -exponent }
      default:
        throw .invalid(text(), "not a number")
      }
    }
    guard wholeDigits + fractionDigits > 0 else { throw .invalid(text(), "not a number") }
    // value = mantissa × 10^(zeros + exponent − fractionDigits); units carry 18 more digits.
    let power = zeros + exponent - fractionDigits + ExactDecimal.scale
    guard mantissa == 0 || power >= 0 else { throw .tooPrecise(text()) }
    guard let units = ExactDecimal.shift(mantissa, by: max(power, 0)),
      units <= UInt128(Int128.max)
    else { throw .outOfRange(text()) }
    let value = Int128(units)
    self.units = negative ? 0 - value : value
  }

  /// `value × 10^count`, or nil when it overflows.
  /// The units of the plain form every stored decimal has (`-?DIGITS[.DIGITS]`, at most 19
  /// digits, at most 18 after the point), read in one pass with 64-bit arithmetic; nil for any
  /// other text, which the general parser reads (or refuses) with the same result.
  private static func plainUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int128? {
    let count = bytes.count
    guard count > 0, count <= 40 else { return nil }
    let negative = bytes[0] == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    // The first 19 digits in `high`, the rest (up to 19 more) in `low`: 64-bit steps, as the
    // 128-bit ones cost several times more (stored sums carry 18 fractional digits).
    var high: UInt64 = 0
    var low: UInt64 = 0
    var digits = 0
    // The digits after the point; -1 before the point.
    var fraction = -1
    while index < count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      index += 1
      if digit < 10 {
        if digits < 19 {
          high = high &* 10 &+ UInt64(digit)
        } else {
          low = low &* 10 &+ UInt64(digit)
        }
        digits += 1
        if fraction >= 0 { fraction += 1 }
      } else if digit == UInt8(ascii: ".") &- UInt8(ascii: "0"), fraction < 0, digits > 0 {
        fraction = 0
      } else {
        return nil
      }
    }
    guard digits > 0, digits <= 38, fraction != 0, fraction <= scale else { return nil }
    if digits <= 19 {
      // high < 10¹⁹ times at most 10¹⁸: below 10³⁷, one 64-bit multiply with a 128-bit
      // result (most stored numbers; the 128-bit multiply checking overflow cost 3× more).
      let power = UInt64(powersOfTen[scale - max(fraction, 0)])
      let (upper, lower) = high.multipliedFullWidth(by: power)
      let units = Int128(UInt128(upper) << 64 | UInt128(lower))
      return negative ? 0 - units : units
    }
    // high < 10¹⁹ and low < 10¹⁹: high × 10¹⁹ + low < 10³⁸ < UInt128.max.
    var value = UInt128(high)
    if digits > 19 { value = value * powersOfTen[digits - 19] + UInt128(low) }
    let (units, overflow) = value.multipliedReportingOverflow(
      by: powersOfTen[scale - max(fraction, 0)])
    guard !overflow, units <= UInt128(Int128.max) else { return nil }
    return negative ? 0 - Int128(units) : Int128(units)
  }

  private static func shift(_ value: UInt128, by count: Int) -> UInt128? {
    guard value != 0 else { return 0 }
    guard count < powersOfTen.count else { return nil }
    let (result, overflow) = value.multipliedReportingOverflow(by: powersOfTen[count])
    return overflow ? nil : result
  }

  /// 10⁰ through 10³⁸, the powers of ten a UInt128 holds: one multiplication scales a value.
  private static let powersOfTen: [UInt128] = {
    var powers: [UInt128] = [1]
    while powers.count < 39 { powers.append(powers[powers.count - 1] * 10) }
    return powers
  }()
}

/// Why a number was refused or an operation could not give an exact result.
public enum DecimalError: Error, LocalizedError, Equatable, Sendable {
  case empty
  case invalid(String, String)
  case tooPrecise(String)
  case outOfRange(String)
  case overflow
  case divisionByZero

  public var errorDescription: String? {
    switch self {
    case .empty: return "a number is required"
    case .invalid(let text, let reason): return "'\(text)' is not a valid decimal: \(reason)"
    case .tooPrecise(let text):
      return "'\(text)' has more than 18 fractional digits"
    case .outOfRange(let text):
      return "'\(text)' is too large (the limit is about 1.7e20)"
    case .overflow:
      return "a figure is too large to represent exactly (folio keeps numbers up to about 1.7e20)"
    case .divisionByZero: return "division by zero"
    }
  }
}

extension ExactDecimal: SQLBindable {
  /// Stored as canonical decimal TEXT.
  public var sqlValue: SQLValue { .text(description) }
  public func append(to arguments: inout Arguments) {
    arguments.append(self)
  }
  public func isStored(as column: Column) -> Bool {
    withCanonicalText { column.holdsText(UnsafeRawBufferPointer($0)) }
  }
}

extension ExactDecimal: RowDecodable {
  public static var expected: String { "a decimal as TEXT" }
  /// Canonical decimal TEXT, parsed straight from SQLite's buffer; malformed text throws.
  public static func decode(_ column: Column) throws -> ExactDecimal? {
    column.type == SQLITE_TEXT ? try ExactDecimal(utf8: column.utf8) : nil
  }
}
