import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// A flow at market value (a deposit, a withdrawal, a transfer) is priced by the quote or the
/// daily close nearest its time; of two equally near, the earlier (docs/reports.md).
@Suite struct FlowPriceTests {
  @Test func ofAQuoteAndACloseEquallyNearTheEarlierPricesTheFlow() throws {
    let scenario = try ReportScenario()
    // The 2024-01-23 snapshot quotes bitcoin at 40,000 at noon; a close of 41,000 is priced at
    // midnight after: both are 6 hours from a deposit at 18:00.
    _ = try DailyPriceRecords.insert(
      scenario.store.database,
      DailyPrice(
        coinID: "bitcoin", vsCurrency: "usd", day: "2024-01-24", price: dec("41000"),
        pricedAt: "2024-01-24T00:00:00Z", source: "test", fetchedAt: "2024-01-25T00:00:00Z"))
    let deposit = Trade(
      portfolioID: 1, executedAt: "2024-01-23T18:00:00Z", side: .buy, coinID: "bitcoin",
      quantity: dec("1"), price: .zero, createdAt: "")
    let price = try ReportService(scenario.store).flowPrice(deposit, try scenario.main)
    #expect(price == dec("40000"))
    // An hour later, the close is nearer.
    var later = deposit
    later.executedAt = "2024-01-23T19:00:00Z"
    #expect(try ReportService(scenario.store).flowPrice(later, try scenario.main) == dec("41000"))
  }
}
