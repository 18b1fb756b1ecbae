import FolioStorage
import Testing

@testable import FolioService

@Suite struct JSONDecimalTests {
  func exact(_ literal: String) -> String? {
    guard case .exact(let value) = JSONDecimal.convert(literal) else { return nil }
    return value.description
  }

  @Test func plainLiteralsAreKeptExactly() {
    #expect(exact("36685") == "36685")
    #expect(exact("0.664677") == "0.664677")
    #expect(exact("-0.02392907015006951") == "-0.02392907015006951")
    #expect(exact("2.58") == "2.58")
    #expect(exact("0.10") == "0.1")  // canonical text drops the trailing zero, not the value
    #expect(exact("0") == "0")
    #expect(exact("-0") == "0")
    #expect(exact("-0.0") == "0")
  }

  @Test func exponentsAreWrittenOutInFull() {
    #expect(exact("7.53314e-7") == "0.000000753314")
    #expect(exact("8.12e-06") == "0.00000812")
    #expect(exact("1.52899720736006e+15") == "1528997207360060")
    #expect(exact("3.065741191040524e+16") == "30657411910405240")
    #expect(exact("1E3") == "1000")
    #expect(exact("-1.5E+3") == "-1500")
    #expect(exact("12345e-2") == "123.45")
    #expect(exact("0.000123e5") == "12.3")
    #expect(exact("4.6962e-11") == "0.000000000046962")
    #expect(exact("1e-18") == "0.000000000000000001")
    #expect(exact("0e999999999999") == "0")
    #expect(exact("-0.000e-5") == "0")
    #expect(exact("12.50e-0") == "12.5")
    #expect(exact("0.01250E+2") == "1.25")
    #expect(JSONDecimal.convert("1e-99999999999999999999999") == .rounded(.zero))
    #expect(JSONDecimal.convert("9.9e99999999999999999999999") == .outOfRange)
  }

  @Test func moreThan18FractionalDigitsRoundHalfToEven() {
    let cases: [(String, String)] = [
      ("0.1234567890123456789", "0.123456789012345679"),
      ("0.0000000000000000005", "0"),  // exactly half: to the even 0
      ("0.0000000000000000015", "0.000000000000000002"),  // exactly half: to the even 2
      ("0.00000000000000000050001", "0.000000000000000001"),
      ("1e-19", "0"),
      ("6e-19", "0.000000000000000001"),
      ("9.9999999999999999999", "10"),
      ("-9.9999999999999999999", "-10"),
      ("1e-30", "0"),
      ("1e-999999999", "0"),
    ]
    for (literal, expected) in cases {
      guard case .rounded(let value) = JSONDecimal.convert(literal) else {
        Issue.record("\(literal) was not reported as rounded")
        continue
      }
      #expect(value.description == expected, "\(literal)")
    }
  }

  @Test func magnitudesBeyondTheDecimalRangeAreOutOfRange() {
    #expect(JSONDecimal.convert("1e21") == .outOfRange)
    #expect(JSONDecimal.convert("-2e20") == .outOfRange)
    #expect(JSONDecimal.convert("123456789012345678901234567890") == .outOfRange)
    #expect(JSONDecimal.convert("1e999999999") == .outOfRange)
    #expect(JSONDecimal.convert("1.5e20").description == "150000000000000000000")
  }

  @Test func textThatIsNotANumberIsOutOfRange() {
    for text in [
      "", "-", "abc", "1e", "1.2.3", "NaN", "0x10", "1e+", " 1", "1.", ".5", "1e5x", "1.5e",
      "1E-", "--1", "+1", "1e+-3", "1 ", "١",
    ] {
      #expect(JSONDecimal.convert(text) == .outOfRange, "\(text.debugDescription)")
    }
  }
}

extension JSONDecimal.Conversion {
  fileprivate var description: String? { value?.description }
}
