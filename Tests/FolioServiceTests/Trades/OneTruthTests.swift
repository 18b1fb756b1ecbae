import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// The same figure whatever view or order it is asked from: a combined view adds what each
/// portfolio computes by its own method, and the same trades typed in another order book the
/// same lots.
@Suite struct OneTruthTests {
  /// main (FIFO): buy 1 @ 100, buy 1 @ 300, sell 1 @ 400. FIFO realizes +300, LIFO +100.
  /// An empty portfolio `aaa` using LIFO sorts before it.
  func twoPortfolios() throws -> (TestStore, [Portfolio]) {
    let test = try TestStore()
    let service = PortfolioService(test.store)
    _ = try service.add(name: "aaa", method: .lifo, now: Date(timeIntervalSince1970: 0))
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "300", on: "2024-02-01")
    try test.trade(.sell, "bitcoin", "1", at: "400", on: "2024-03-01")
    return (test, try service.resolveMany("all"))
  }

  @Test func combinedHoldingsBookEachPortfolioWithItsOwnMethod() throws {
    let (test, all) = try twoPortfolios()
    #expect(all.map(\.name) == ["aaa", "main"])
    let holdings = try HoldingsService(test.store).holdings(all)
    #expect(holdings.totalRealized.value == dec("300"))
    #expect(holdings.totalCostBasis.value == dec("300"))
    #expect(
      holdings.method
        == .eachOwn([
          .init(portfolio: "aaa", method: .lifo), .init(portfolio: "main", method: .fifo),
        ]))
    // --method still books every portfolio with the method asked for.
    let lifo = try HoldingsService(test.store).holdings(all, method: .lifo)
    #expect(lifo.totalRealized.value == dec("100"))
    #expect(lifo.method == .one(.lifo))
  }

  @Test func combinedGainsAndReportAddThePortfoliosOwnFigures() throws {
    let (test, all) = try twoPortfolios()
    let gains = try GainsService(test.store).gains(
      all, since: try #require(CalendarDay("2024-01-01")),
      until: try #require(CalendarDay("2024-12-31")), method: nil)
    #expect(gains.total.gain == dec("300"))
    let report = try ReportService(test.store).report(
      all, day: try #require(CalendarDay("2024-03-01")),
      now: Date(timeIntervalSince1970: 1_732_968_000))
    #expect(report.realized.allTime == dec("300"))
    #expect(report.totalCostBasis == dec("300"))
    // Renaming the empty portfolio so it sorts last changes nothing.
    _ = try PortfolioService(test.store).rename("aaa", to: "zzz")
    let renamed = try PortfolioService(test.store).resolveMany("all")
    let again = try GainsService(test.store).gains(
      renamed, since: try #require(CalendarDay("2024-01-01")),
      until: try #require(CalendarDay("2024-12-31")), method: nil)
    #expect(again.total.gain == dec("300"))
  }

  /// Both portfolios trade: aaa's LIFO gain (+100) and main's FIFO gain (+300) add up.
  @Test func eachNonEmptyPortfolioKeepsItsMethodInTheSum() throws {
    let (test, _) = try twoPortfolios()
    let aaa = try PortfolioService(test.store).resolve("aaa")
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01", in: aaa)
    try test.trade(.buy, "bitcoin", "1", at: "300", on: "2024-02-01", in: aaa)
    try test.trade(.sell, "bitcoin", "1", at: "400", on: "2024-03-01", in: aaa)
    let all = try PortfolioService(test.store).resolveMany("all")
    #expect(try HoldingsService(test.store).holdings(all).totalRealized.value == dec("400"))
    let gains = try GainsService(test.store).gains(
      all, since: try #require(CalendarDay("2024-01-01")),
      until: try #require(CalendarDay("2024-12-31")), method: nil)
    #expect(gains.total.gain == dec("400"))
    let report = try ReportService(test.store).report(
      all, day: try #require(CalendarDay("2024-03-01")),
      now: Date(timeIntervalSince1970: 1_732_968_000))
    #expect(report.realized.allTime == dec("400"))
  }

  /// Lots bought at one moment, typed in every order: the sells take the same lots.
  @Test(arguments: [CostMethod.fifo, .lifo, .hifo, .average])
  func lotsAtOneMomentBookTheSameWhateverTheTypingOrder(method: CostMethod) throws {
    let buys = [("2", "100"), ("1", "120"), ("1", "90"), ("0.5", "100")]
    var results: Set<[String]> = []
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
      let test = try TestStore()
      if method != .fifo { _ = try PortfolioService(test.store).setMethod("main", method) }
      for index in order {
        try test.trade(.buy, "bitcoin", buys[index].0, at: buys[index].1, on: "2024-01-01")
      }
      try test.trade(.sell, "bitcoin", "1.5", at: "150", on: "2024-02-01")
      try test.trade(.sell, "bitcoin", "1", at: "160", on: "2024-03-01")
      let position = try #require(try test.position("bitcoin"))
      let open = try DerivedTables(test.db).openLots(portfolioID: test.main().id, coinID: "bitcoin")
      results.insert(
        [
          position.quantity.description, position.costBasis.description,
          position.realized.description,
        ]
          + open.map { "\($0.quantity)@\($0.cost):\($0.remaining)" }.sorted())
    }
    #expect(results.count == 1, "\(results)")
  }

  /// FIFO takes the smaller of two lots bought at the same moment first, then the cheaper of
  /// two of the same size (docs/trades.md).
  @Test func fifoOrderAtOneMomentIsQuantityThenCost() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "110", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "2", at: "50", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.sell, "bitcoin", "1.5", at: "200", on: "2024-02-01")
    let position = try #require(try test.position("bitcoin"))
    // 1 @ 100, then 0.5 of 1 @ 110: cost 155, proceeds 300.
    #expect(position.realized == dec("145"))
  }

  @Test func longTermIsMoreThanOneYearByCalendarDate() {
    func long(_ acquired: String, _ disposed: String, _ rule: LongTermRule = .moreThanOneYear)
      -> Bool
    {
      guard let a = CalendarDay(acquired), let d = CalendarDay(disposed) else { return false }
      return rule.isLongTerm(acquired: a, disposed: d)
    }
    // A leap year between: 366 days, held exactly one year.
    #expect(!long("2023-03-01", "2024-03-01"))
    #expect(long("2023-03-01", "2024-03-02"))
    #expect(!long("2024-02-29", "2025-02-28"))
    #expect(long("2024-02-29", "2025-03-01"))
    #expect(!long("2024-01-15", "2025-01-15"))
    #expect(long("2024-01-15", "2025-01-16"))
    // The day count, for a jurisdiction that counts days.
    #expect(long("2023-03-01", "2024-03-01", .moreThanDays(365)))
    #expect(!long("2023-03-02", "2024-03-01", .moreThanDays(365)))
  }

  @Test func gainsUseTheCalendarRuleByDefault() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "2", at: "100", on: "2023-03-01")
    try test.trade(.sell, "bitcoin", "1", at: "200", on: "2024-03-01")
    try test.trade(.sell, "bitcoin", "1", at: "200", on: "2024-03-02")
    let gains = try GainsService(test.store).gains(
      [try test.main()], since: try #require(CalendarDay("2024-01-01")),
      until: try #require(CalendarDay("2024-12-31")), method: nil)
    #expect(gains.rows.map(\.longTerm) == [false, true])
    #expect(gains.shortTerm.gain == dec("100"))
    #expect(gains.longTerm.gain == dec("100"))
  }
}
