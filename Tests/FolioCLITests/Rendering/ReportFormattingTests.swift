import FolioStorage
import Testing

@testable import FolioCLI
@testable import FolioService

@Suite struct ReportFormattingTests {
  func dec(_ text: String) -> ExactDecimal { (try? ExactDecimal(parsing: text)) ?? .zero }

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
}
