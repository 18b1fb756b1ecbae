import FolioStorage
import Testing

@testable import FolioCLI
@testable import FolioService

@Suite struct ReportFormattingTests {
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
      #expect(MarketFormat.abbreviated(dec(value), "usd") == expected, "\(value)")
    }
    #expect(MarketFormat.abbreviated(dec("1500000"), "chf") == "1.50M CHF")
  }

  @Test func profitsCarryASignAndMissingFiguresReadNA() {
    #expect(ReportFormat.signed(dec("3596"), "usd") == "+$3,596.00")
    #expect(ReportFormat.signed(dec("-47.52"), "usd") == "-$47.52")
    #expect(ReportFormat.signed(dec("0.001"), "usd") == "$0.00")
    #expect(ReportFormat.signed(nil, "usd") == "n/a")
    #expect(ReportFormat.percent(nil) == "n/a")
    #expect(ReportFormat.amount(nil, "eur") == "n/a")
  }

  @Test func aReasonSharedByFiguresIsSaidOnce() {
    let statistics = PortfolioStatistics(
      currency: "usd", marketCap: .unavailable("no global"),
      marketCapChange24h: .unavailable("no global"),
      volume24h: .unavailable("no global"), btcDominance: .known(dec("50")),
      portfolioValue: .known(dec("10")), portfolioChange24h: .unavailable("why not"),
      unpriced: ["x", "y"], globalAt: nil)
    #expect(
      ReportFormat.notes(statistics) == [
        "Market Cap, Market Cap 24h change, 24h Volume n/a: no global",
        "Portfolio Value 24h change n/a: why not",
        "unpriced (held, no market price cached, not counted in the value): x, y",
      ])
  }

  @Test func chartsLeaveDaysWithoutAValueBlank() {
    let lines = ReportFormat.chartLines(
      [dec("10"), nil, nil, dec("20"), dec("15")], currency: "usd", height: 2)
    #expect(lines == ["$20.00 ┤   █▁", "$10.00 ┤▁  ██"])
    #expect(ReportFormat.chartLines([dec("10"), nil], currency: "usd").isEmpty)
  }
}
