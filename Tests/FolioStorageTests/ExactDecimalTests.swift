import FolioTestSupport
import Testing

@testable import FolioStorage

@Suite struct ExactDecimalTests {
  func d(_ text: String) throws -> ExactDecimal { try ExactDecimal(parsing: text) }

  @Test func tenthsAddUpExactly() throws {
    let sum = try d("0.1") + d("0.2")
    #expect(sum == (try d("0.3")))
    #expect(try (sum - d("0.3")).isZero)
  }

  @Test func canonicalTextOfTheExtremes() throws {
    #expect(
      ExactDecimal(units: .max).description == "170141183460469231731.687303715884105727")
    #expect(
      ExactDecimal(units: .min).description == "-170141183460469231731.687303715884105728")
    #expect(ExactDecimal(units: 1).description == "0.000000000000000001")
    #expect(ExactDecimal(units: -10).description == "-0.00000000000000001")
    // More than 2^64 whole units, the slower path.
    #expect(try d("18446744073709551617.5").description == "18446744073709551617.5")
  }

  /// The canonical text of values of every size, whole parts either side of 2^64 among them,
  /// is the units' digits with a point 18 from the end and no trailing zeros, and reads back.
  @Test func canonicalTextOfEverySize() throws {
    var random = SplitMix64(seed: 17)
    let edges: [Int128] = [
      0, 1, -1, 999_999_999_999_999_999, 1_000_000_000_000_000_000,
      Int128(UInt64.max) * 1_000_000_000_000_000_000 - 1,
      Int128(UInt64.max) * 1_000_000_000_000_000_000,
      Int128(UInt64.max) * 1_000_000_000_000_000_000 + 1,
      (Int128(UInt64.max) + 1) * 1_000_000_000_000_000_000, .max, .min,
    ]
    let randoms = (0..<20_000).map { _ in
      // Magnitudes from one unit up to the whole range, either sign.
      let bits = Int.random(in: 1...127, using: &random)
      let magnitude =
        Int128(truncatingIfNeeded: random.next() as UInt64) << 64
        | Int128(truncatingIfNeeded: random.next() as UInt64)
      let value = magnitude & (Int128.max >> (127 - bits))
      return Bool.random(using: &random) ? value : -value
    }
    for units in edges + randoms {
      var digits = String(units.magnitude)
      if digits.count < 19 { digits = String(repeating: "0", count: 19 - digits.count) + digits }
      var fraction = String(digits.suffix(18))
      while fraction.last == "0" { fraction.removeLast() }
      let expected =
        (units < 0 ? "-" : "") + digits.dropLast(18) + (fraction.isEmpty ? "" : "." + fraction)
      let value = ExactDecimal(units: units)
      #expect(value.description == expected)
      // Int128.min has no text the parser reads: values stay within ±Int128.max.
      if units != .min { #expect(try d(expected) == value) }
    }
  }

  /// Stored sums carry 18 fractional digits: texts of 20 to 38 digits take the two-word fast
  /// path, and the largest and one past it still parse (or fail) as the general parser does.
  @Test func longPlainTextsParseExactly() throws {
    #expect(try d("1259.097916666666666667").units == 1_259_097_916_666_666_666_667)
    #expect(try d("-0.000000000000000001").units == -1)
    #expect(try d("170141183460469231731.687303715884105727").units == .max)
    #expect(try d("-170141183460469231731.687303715884105727").units == -Int128.max)
    #expect(throws: DecimalError.self) { try d("170141183460469231731.687303715884105728") }
    #expect(
      try d("99999999999999999999.999999999999999999").units
        == 99_999_999_999_999_999_999_999_999_999_999_999_999)
    #expect(
      try d("12345678901234567890").units == 12_345_678_901_234_567_890 * 1_000_000_000_000_000_000)
    #expect(throws: DecimalError.self) { try d("1234567890123456789012") }
  }

  @Test func canonicalTextParsesBackToTheSameValue() throws {
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<10_000 {
      let value = ExactDecimal(units: Int128(truncatingIfNeeded: generator.next() as UInt64))
      let wide = ExactDecimal(
        units: Int128(truncatingIfNeeded: (UInt128(generator.next() as UInt64) << 60))
          &+ Int128(generator.next() as UInt32))
      for sample in [value, wide, value.rounded(places: 2)] {
        #expect(try d(sample.description) == sample, "\(sample.units)")
      }
    }
  }

  @Test func canonicalText() throws {
    #expect(try d("61000").description == "61000")
    #expect(try d("1.500").description == "1.5")
    #expect(try d("-0.000000000000000001").description == "-0.000000000000000001")
    #expect(try d("0.0").description == "0")
    #expect(try d("+7").description == "7")
  }

  /// The one rule for every number Folio reads (trade options, CSV fields, coordinates):
  /// a digit on either side of the point is enough, exponents are read exactly, a sign and
  /// surrounding spaces or tabs are allowed, and -0 is 0.
  @Test(arguments: [
    (".5", "0.5"), ("5.", "5"), ("-.5", "-0.5"), ("+5", "5"), ("-0", "0"), ("1e3", "1000"),
    ("4E-8", "0.00000004"), (".5e1", "5"), ("5.E-1", "0.5"), ("1E+2", "100"), (" 7 ", "7"),
    ("\t2.50\t", "2.5"), ("-0.0e5", "0"),
  ])
  func oneRuleForEveryNumber(text: String, expected: String) throws {
    #expect(try d(text).description == expected)
  }

  @Test func exponentsThatAreExactAreWrittenOut() throws {
    #expect(try d("6.6E-7").description == "0.00000066")
    #expect(try d("1e5").description == "100000")
    #expect(try d("0.10000000000000000000000").description == "0.1")
  }

  @Test func eighteenDigitsAndMemecoinBalances() throws {
    let big = try d("999999999999999.123456789012345678")
    #expect(big.description == "999999999999999.123456789012345678")
    let price = try d("0.000012345")
    #expect(try (big * price).description == "12344999999.999989179074060357")
  }

  @Test(arguments: [
    ("1,000.25", "thousands separators"), ("1e-19", "more than 18"), ("1e400", "too large"),
    ("1e", "not a number"), ("2e5x", "malformed exponent"), ("NaN", "not a number"),
    ("inf", "not a number"), ("", "required"), (".", "not a number"), ("-", "not a number"),
    (" ", "required"), ("1 2", "not a number"), ("+-1", "not a number"), ("e5", "not a number"),
    (".e5", "not a number"), ("0x10", "not a number"), ("1e12345", "too large"),
    ("1.2.3", "more than one decimal point"), ("0.0000000000000000001", "more than 18"),
    ("１２", "not a number"), ("1000000000000000000000", "too large"),
  ])
  func refusesWithReason(text: String, reason: String) {
    #expect {
      try ExactDecimal(parsing: text)
    } throws: { error in
      (error as? DecimalError)?.errorDescription?.contains(reason) == true
    }
  }

  @Test func multiplicationOverflowThrows() throws {
    let huge = try d("100000000000000000000")
    #expect(throws: DecimalError.overflow) { try huge * huge }
    #expect(throws: DecimalError.overflow) { try huge + huge }
  }

  @Test func divisionRoundsHalfEven() throws {
    #expect(try (d("1") / d("3")).description == "0.333333333333333333")
    #expect(try (d("2") / d("3")).description == "0.666666666666666667")
    #expect(throws: DecimalError.divisionByZero) { try d("1") / .zero }
  }

  /// Exact halves of the last (18th) digit go to the even neighbour, in both directions and
  /// for negatives; anything past the half goes away from zero.
  @Test func exactHalvesRoundToEven() throws {
    let last = try d("0.000000000000000001")
    let half = try d("0.5")
    // 1 ÷ 2 units: 0.5 → 0 (even), while 3 ÷ 2 units: 1.5 → 2 (even).
    #expect(try ExactDecimal.scaled(last, by: .one, dividedBy: d("2")) == .zero)
    #expect(
      try ExactDecimal.scaled(d("0.000000000000000003"), by: .one, dividedBy: d("2")).units == 2)
    #expect(try (last / d("2")) == .zero)
    // 5 units × 0.5 = 2.5 → 2, 7 units × 0.5 = 3.5 → 4, and −5 units × 0.5 = −2.5 → −2.
    #expect(try (d("0.000000000000000005") * half).units == 2)
    #expect(try (d("0.000000000000000007") * half).units == 4)
    #expect(try (d("-0.000000000000000005") * half).units == -2)
    #expect(try (d("-0.000000000000000007") * half).units == -4)
    // Just past the half rounds up: 5 units × 0.50000001 = 2.50000005 → 3.
    #expect(try (d("0.000000000000000005") * d("0.50000001")).units == 3)
  }

  @Test func scaledKeepsFullPrecision() throws {
    // 600 × 1.5 ÷ 3 computed with a 256-bit intermediate.
    #expect(try ExactDecimal.scaled(d("600"), by: d("1.5"), dividedBy: d("3")) == (try d("300")))
    #expect(try ExactDecimal.scaled(d("-10"), by: d("1"), dividedBy: d("4")).description == "-2.5")
  }

  @Test func roundingForDisplay() throws {
    #expect(try d("2.345").formatted(places: 2) == "2.34")
    #expect(try d("2.355").formatted(places: 2) == "2.36")
    #expect(try d("-1.005").formatted(places: 2) == "-1.00")
    #expect(try d("7").formatted(places: 2) == "7.00")
  }
}
