import FolioStorage
import Testing

@testable import FolioCLI

/// The one formatter of figures: every style the outputs use, side by side.
@Suite struct FormattingTests {
  func dec(_ text: String) -> ExactDecimal { (try? ExactDecimal(parsing: text)) ?? .zero }

  @Test func largeAmountsAreAbbreviatedInOneStyle() {
    let cases: [(String, String)] = [
      ("2580000000000", "$2.58Tr"), ("342250000000", "$342.25Bn"), ("12345678", "$12.35M"),
      ("123456", "$123.46K"), ("999.5", "$999.50"), ("0.5", "$0.50"), ("-12345678", "-$12.35M"),
      // Rounding up to 1,000 of a unit takes the next unit.
      ("999999", "$1.00M"), ("999995000", "$1.00Bn"), ("999.996", "$1.00K"),
      ("1610737412345.7183", "$1.61Tr"), ("1234567000000000", "$1,234.57Tr"),
    ]
    for (value, expected) in cases {
      #expect(Formatting.money(dec(value), .abbreviated, in: "usd") == expected, "\(value)")
    }
    #expect(Formatting.money(dec("1500000"), .abbreviated, in: "chf") == "1.50M CHF")
  }

  @Test func profitsCarryASignAndMissingFiguresReadNA() {
    #expect(Formatting.money(dec("3596"), in: "usd", sign: .nonZero) == "+$3,596.00")
    #expect(Formatting.money(dec("-47.52"), in: "usd", sign: .nonZero) == "-$47.52")
    #expect(Formatting.money(dec("0.001"), in: "usd", sign: .nonZero) == "$0.00")
    #expect(Formatting.money(nil, in: "usd", sign: .nonZero) == "n/a")
    #expect(Formatting.percent(nil) == "n/a")
    #expect(Formatting.money(nil, in: "eur") == "n/a")
  }

  @Test func digitStylesKeepTheirDifferences() {
    let cases: [(String, Formatting.Digits, String)] = [
      ("1234567.891", .cents, "1,234,567.89"), ("0.00001234", .cents, "0.00"),
      // A ledger price is exact (up to 8 decimals), so quantity × price gives the value.
      ("1234567.891", .ledger, "1,234,567.891"), ("0.00001234", .ledger, "0.00001234"),
      ("0.5", .ledger, "0.50"), ("0", .ledger, "0.00"), ("-0.25", .ledger, "-0.25"),
      ("1.00285", .ledger, "1.00285"), ("40000.125", .ledger, "40,000.125"),
      ("0.123456789", .ledger, "0.12345679"), ("-0.000000001", .ledger, "0.00"),
      ("39935.3", .price, "39,935.30"), ("84.81281", .price, "84.8128"), ("1.5", .price, "1.50"),
      ("0.516645", .price, "0.516645"), ("0.000008839", .price, "0.000008839"),
      ("0", .price, "0.00"), ("-0.5", .price, "-0.50"),
    ]
    for (value, digits, expected) in cases {
      #expect(Formatting.money(dec(value), digits) == expected, "\(value) \(digits)")
    }
    #expect(Formatting.money(dec("-0.5"), .price, in: "eur") == "-€0.50")
    #expect(Formatting.money(dec("12"), .price, in: "gbp") == "£12.00")
    #expect(Formatting.money(dec("12"), in: "jpy", sign: .nonZero) == "+¥12.00")
    #expect(Formatting.quantity(dec("1234567.123456789")) == "1,234,567.123456789")
    let grouped = [
      ("0", "0"), ("999", "999"), ("1000", "1,000"), ("-999.5", "-999.5"),
      ("-1000.5", "-1,000.5"), ("123456", "123,456"), ("-1234567", "-1,234,567"),
      ("0.0000001", "0.0000001"), ("100000000000000000", "100,000,000,000,000,000"),
    ]
    for (value, expected) in grouped {
      #expect(Formatting.quantity(dec(value)) == expected, "\(value)")
    }
  }

  @Test func signsDifferOnlyAtZero() {
    // The ledger writes a plus on zero; reports and percentages only above what is shown.
    #expect(Formatting.money(dec("0"), .ledger, sign: .always) == "+0.00")
    #expect(Formatting.money(dec("12"), .ledger, sign: .always) == "+12.00")
    #expect(Formatting.money(dec("-12"), .ledger, sign: .always) == "-12.00")
    #expect(Formatting.money(dec("-0.000000001"), .ledger, sign: .always) == "0.00")
    #expect(Formatting.money(dec("0"), in: "usd", sign: .nonZero) == "$0.00")
    #expect(Formatting.money(dec("-0.001"), in: "usd", sign: .nonZero) == "$0.00")
    #expect(Formatting.money(dec("12"), in: "usd") == "$12.00")
    #expect(Formatting.percent(dec("0.63")) == "+0.63%")
    #expect(Formatting.percent(dec("-3.48")) == "-3.48%")
    #expect(Formatting.percent(dec("0.001")) == "0.00%")
    #expect(Formatting.percent(dec("61.25"), .share) == "61.2%")
    #expect(Formatting.percent(dec("52.314"), .level) == "52.31%")
    #expect(Formatting.percent(nil, missing: "—") == "—")
    #expect(Formatting.money(nil, .ledger, missing: "-") == "-")
  }

  @Test func chartsLeaveDaysWithoutAValueBlankOrCarryThePriceLine() {
    let values = [dec("10"), nil, nil, dec("20"), dec("15")]
    func chart(_ gaps: Formatting.Gaps) -> [String] {
      Formatting.chart(
        values, width: 60, height: 2, gaps: gaps, label: { Formatting.money($0, in: "usd") })
    }
    #expect(chart(.blank) == ["$20.00 ┤   █▁", "$10.00 ┤▁  ██"])
    #expect(chart(.carried) == ["$20.00 ┤   █▁", "$10.00 ┤▁▁▁██"])
    #expect(
      Formatting.chart([dec("10"), nil], width: 60, height: 5, gaps: .blank, label: \.description)
        .isEmpty)
    // Averaged into columns; a flat series draws at half height; the one-line sparkline.
    #expect(Formatting.chartRows(values, width: 2, height: 1, gaps: .blank) == ["▁▆"])
    #expect(
      Formatting.chartRows([dec("5"), dec("5")], width: 9, height: 2, gaps: .blank) == ["", "██"])
    #expect(Formatting.sparkline([dec("1"), nil, dec("2"), dec("3"), dec("9")]) == "▁▁▂▃█")
    #expect(Formatting.sparkline([dec("1")]) == "")
  }
}
