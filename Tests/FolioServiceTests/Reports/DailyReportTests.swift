import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// A portfolio whose figures are worked out by hand in the comments. The clock is
/// 2024-01-25T12:00:00Z; market snapshots were taken on 2024-01-23 and 2024-01-24 at noon.
final class ReportScenario {
  let sandbox: ServiceSandbox
  var store: Store { sandbox.store }
  var service: ReportService { ReportService(store) }

  init() throws {
    sandbox = try ServiceSandbox()
    try snapshot(at: "2024-01-23T12:00:00Z", bitcoin: ("40000", "1"), ethereum: ("2000", "-2"))
    try snapshot(at: "2024-01-24T12:00:00Z", bitcoin: ("42000", "5"), ethereum: ("2100", "5"))
    // bitcoin: 1.1 bought at 30000 (cost 33000); 0.1 sold at 32000 in 2023: realized 200.
    try trade(.buy, "bitcoin", "1.1", "30000", on: "2023-12-20")
    try trade(.sell, "bitcoin", "0.1", "32000", on: "2023-12-28")
    // ethereum: 10 at 1500 + fee 10 (1501 each), 2 at 2500.
    try trade(.buy, "ethereum", "10", "1500", fee: "10", on: "2024-01-02")
    try trade(.buy, "ethereum", "2", "2500", on: "2024-01-10")
    // fifo: 2 × 1501 = 3002 of cost; proceeds 4000 − 2 = 3998: realized 996.
    try trade(.sell, "ethereum", "2", "2000", fee: "2", on: "2024-01-23T15:00:00Z")
    // 0.25 × 30000 = 7500 of cost; proceeds 10250: realized 2750.
    try trade(.sell, "bitcoin", "0.25", "41000", on: "2024-01-24T09:00:00Z")
    // No quote for solana: unpriced.
    try trade(.buy, "solana", "5", "90", on: "2024-01-25T10:00:00Z")
  }

  var main: Portfolio { get throws { try PortfolioService(store).resolve(nil) } }

  func trade(
    _ side: TradeSide, _ coin: String, _ quantity: String, _ price: String, fee: String? = nil,
    on date: String
  ) throws {
    try TradeService(store).record(
      TradeDraft(side: side, coin: coin, quantity: quantity, price: price, fee: fee, date: date),
      in: try main, coinID: coin, now: sandbox.now, allowFuture: true)
  }

  /// Imports a two-coin /coins/markets page taken at `at`.
  func snapshot(
    at: String, bitcoin: (price: String, change: String), ethereum: (price: String, change: String)
  ) throws {
    let page = """
      [{"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": \(bitcoin.price),
        "price_change_percentage_24h": \(bitcoin.change), "market_cap_rank": 1,
        "sparkline_in_7d": {"price": [1, 2, 3]}},
       {"id": "ethereum", "symbol": "eth", "name": "Ethereum", "current_price": \(ethereum.price),
        "price_change_percentage_24h": \(ethereum.change), "market_cap_rank": 2}]
      """
    let path = sandbox.write("markets-\(at.prefix(10)).json", page)
    _ = try sandbox.market.importFiles(
      [path], vsCurrency: "usd", at: try Timestamp(parsing: at, .lenient).date, now: sandbox.now)
  }

  func report(_ day: String, method: CostMethod? = nil, maxAge: TimeInterval = 86_400) throws
    -> DailyReport
  {
    try service.report(
      try main, day: try #require(CalendarDay(day)), method: method, maxAge: maxAge,
      now: sandbox.now)
  }

  func rows() throws -> [DailyRecord] {
    try service.history(try main, since: nil, until: nil)
  }
}

@Suite struct DailyReportTests {
  @Test func aPastDayUsesTheTradesAndTheSnapshotOfThatDayOnly() throws {
    let scenario = try ReportScenario()
    let report = try scenario.report("2024-01-23")
    #expect(report.day == "2024-01-23")
    #expect(report.snapshot?.fetchedAt == "2024-01-23T12:00:00Z")
    #expect(report.holdings.map(\.coinID) == ["bitcoin", "ethereum"])
    let bitcoin = try #require(report.holdings.first)
    #expect(bitcoin.quantity == dec("1"))
    #expect(bitcoin.price == dec("40000"))
    #expect(bitcoin.value == dec("40000"))
    #expect(bitcoin.costBasis == dec("30000"))
    #expect(bitcoin.share == dec("66.666666666666666667"))
    #expect(bitcoin.label == "BTC")
    #expect(bitcoin.sparkline == [dec("1"), dec("2"), dec("3")])
    let ethereum = try #require(report.holdings.last)
    #expect(ethereum.quantity == dec("10"))
    #expect(ethereum.value == dec("20000"))
    #expect(ethereum.costBasis == dec("17008"))
    #expect(report.statistics.portfolioValue == .known(dec("60000")))
    #expect(report.totalCostBasis == dec("47008"))
    #expect(report.totalUnrealized == dec("12992"))
    #expect(
      report.realized
        == RealizedSummary(
          day: dec("996"), monthToDate: dec("996"), yearToDate: dec("996"), allTime: dec("1196")))
    #expect(report.trades.map(\.trade.executedAt) == ["2024-01-23T15:00:00Z"])
    #expect(report.trades.first?.realized == dec("996"))
    #expect(report.staleAge == nil)  // 12 hours old at the end of the day
    #expect(
      report.figures
        == DailyFigures(
          day: "2024-01-23", value: dec("60000"), costBasis: dec("47008"),
          unrealized: dec("12992"), realized: dec("1196"), snapshotAt: "2024-01-23T12:00:00Z"))
  }

  @Test func theNextDayAddsItsSellAndItsSnapshot() throws {
    let scenario = try ReportScenario()
    let report = try scenario.report("2024-01-24")
    #expect(report.holdings.map(\.quantity) == [dec("0.75"), dec("10")])
    // 0.75 × 42000 + 10 × 2100, both up 5%.
    #expect(report.statistics.portfolioValue == .known(dec("52500")))
    #expect(report.statistics.portfolioChange24h.value?.rounded(places: 12) == dec("5"))
    #expect(
      report.realized
        == RealizedSummary(
          day: dec("2750"), monthToDate: dec("3746"), yearToDate: dec("3746"),
          allTime: dec("3946")))
    #expect(report.movers.map(\.coinID) == ["bitcoin", "ethereum"])
    // 31500 − 31500 / 1.05 = 1500
    #expect(report.movers.first?.valueChange == dec("1500"))
  }

  @Test func todayListsAnUnpricedCoinAndAgesTheSnapshotAgainstNow() throws {
    let scenario = try ReportScenario()
    let report = try scenario.report("2024-01-25", maxAge: 3600)
    #expect(report.snapshot?.fetchedAt == "2024-01-24T12:00:00Z")
    #expect(report.staleAge == 86_400)
    #expect(report.statistics.unpriced == ["solana"])
    let solana = try #require(report.holdings.last)
    #expect(solana.coinID == "solana")
    #expect(solana.price == nil && solana.value == nil && solana.share == nil)
    #expect(report.statistics.portfolioValue == .known(dec("52500")))
    #expect(report.statistics.portfolioChange24h.reason?.contains("solana") == true)
    // The unrealized total covers the priced coins only: 52500 − (22500 + 17008).
    #expect(report.totalUnrealized == dec("12992"))
    #expect(report.totalCostBasis == dec("39958"))
    #expect(report.figures.snapshotAt == "2024-01-24T12:00:00Z")
  }

  /// Month to date starts on the 1st at 00:00:00Z: a sell one second earlier belongs to the
  /// previous month (but the same year), a sell at that instant to the month and its day.
  @Test func monthToDateStartsOnTheFirstOfTheMonth() throws {
    let scenario = try ReportScenario()
    // fifo: each sells one of the 1501-a-unit ethereum lot.
    try scenario.trade(.sell, "ethereum", "1", "3000", on: "2024-01-31T23:59:59Z")  // +1499
    try scenario.trade(.sell, "ethereum", "1", "2600", on: "2024-02-01T00:00:00Z")  // +1099
    let later = Date(timeIntervalSince1970: 1_707_220_800)  // 2024-02-06T12:00:00Z
    func report(_ day: String) throws -> DailyReport {
      try scenario.service.report(
        try scenario.main, day: try #require(CalendarDay(day)), now: later)
    }
    // Year to date: 996 + 2750 (the January sells of the scenario) + 1499 + 1099.
    #expect(
      try report("2024-02-01").realized
        == RealizedSummary(
          day: dec("1099"), monthToDate: dec("1099"), yearToDate: dec("6344"),
          allTime: dec("6544")))
    // The sell at the first instant of the day is among the day's trades.
    #expect(try report("2024-02-01").trades.map(\.trade.executedAt) == ["2024-02-01T00:00:00Z"])
    #expect(
      try report("2024-02-06").realized
        == RealizedSummary(
          day: .zero, monthToDate: dec("1099"), yearToDate: dec("6344"), allTime: dec("6544")))
    #expect(
      try report("2024-01-31").realized
        == RealizedSummary(
          day: dec("1499"), monthToDate: dec("5245"), yearToDate: dec("5245"),
          allTime: dec("5445")))
  }

  @Test func aDayBeforeAnySnapshotHasCostButNoValue() throws {
    let scenario = try ReportScenario()
    let report = try scenario.report("2024-01-22")
    #expect(report.snapshot == nil)
    #expect(
      report.statistics.portfolioValue.reason
        == "no market price is cached for bitcoin and ethereum")
    #expect(
      report.statistics.marketCap.reason == "no /global snapshot was taken by the end of 2024-01-22"
    )
    #expect(report.figures.value == nil && report.figures.unrealized == nil)
    #expect(report.figures.snapshotAt == nil)
    #expect(report.figures.costBasis == dec("50010"))
    #expect(report.movers.isEmpty)
  }

  @Test func anotherMethodChangesTheFiguresButCannotBeSaved() throws {
    let scenario = try ReportScenario()
    // lifo sells the two 2500 units first: 3998 − 5000.
    let report = try scenario.report("2024-01-23", method: .lifo)
    #expect(report.method == .one(.lifo))
    #expect(report.realized.day == dec("-1002"))
    #expect(report.holdings.last?.costBasis == dec("15010"))
    #expect(throws: ReportError.saveWithOtherMethod(method: "lifo", portfolioMethod: "fifo")) {
      try scenario.service.save(report, now: scenario.sandbox.now)
    }
    #expect(try scenario.rows().isEmpty)
  }

  @Test func savingSeveralReportsSavesAllOfThemOrNone() throws {
    let scenario = try ReportScenario()
    let portfolios = PortfolioService(scenario.store)
    let other = try portfolios.add(name: "other", now: scenario.sandbox.now)
    let day = try #require(CalendarDay("2024-01-24"))
    let reports = try [try scenario.main, other].map {
      try scenario.service.report($0, day: day, now: scenario.sandbox.now, forSaving: true)
    }
    // The second portfolio's method changes after its report was computed: nothing is saved,
    // not even the first portfolio's row.
    _ = try portfolios.setMethod("other", .lifo)
    #expect(throws: ReportError.saveWithOtherMethod(method: "fifo", portfolioMethod: "lifo")) {
      try scenario.service.save(reports, now: scenario.sandbox.now)
    }
    #expect(try scenario.sandbox.count("portfolio_daily") == 0)
    _ = try portfolios.setMethod("other", .fifo)
    try scenario.service.save(reports, now: scenario.sandbox.now)
    #expect(try scenario.sandbox.count("portfolio_daily") == 2)
  }

  /// `reportsSaved` computes with the method of the moment it saves at, and a check that
  /// throws saves nothing.
  @Test func reportsSavedComputeAndSaveInOneTransaction() throws {
    let scenario = try ReportScenario()
    let portfolios = PortfolioService(scenario.store)
    let stale = try scenario.main
    _ = try portfolios.setMethod("main", .lifo)
    let day = try #require(CalendarDay("2024-01-24"))
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      _ = try scenario.service.reportsSaved(
        [stale], day: day, now: scenario.sandbox.now, check: { _ in throw Refused() })
    }
    #expect(try scenario.sandbox.count("portfolio_daily") == 0)
    let saved = try scenario.service.reportsSaved([stale], day: day, now: scenario.sandbox.now)
    #expect(saved.map(\.method) == [.one(.lifo)])
    #expect(try scenario.rows().map(\.costBasis) == [saved.first?.figures.costBasis])
  }

  @Test func aFutureDayIsRefused() throws {
    let scenario = try ReportScenario()
    #expect(throws: ReportError.futureDay("2024-01-26", today: "2024-01-25")) {
      _ = try scenario.report("2024-01-26")
    }
  }

  @Test func savingTheSameDayTwiceKeepsOneRowWithTheNewerFigures() throws {
    let scenario = try ReportScenario()
    try scenario.service.save(try scenario.report("2024-01-24"), now: scenario.sandbox.now)
    #expect(try scenario.rows().map(\.value) == [dec("52500")])
    // A trade recorded later for that day, then saved again: the row is replaced.
    try scenario.trade(.buy, "bitcoin", "0.25", "42000", on: "2024-01-24T20:00:00Z")
    let later = scenario.sandbox.now.addingTimeInterval(60)
    try scenario.service.save(try scenario.report("2024-01-24"), now: later)
    let rows = try scenario.rows()
    #expect(rows.count == 1)
    #expect(rows.first?.value == dec("63000"))
    #expect(rows.first?.savedAt == "2024-01-25T12:01:00Z")
    #expect(rows.first?.snapshotAt == "2024-01-24T12:00:00Z")
  }

  @Test func theReportsHistoryComesFromSavedDaysAndItsOwnDay() throws {
    let scenario = try ReportScenario()
    try scenario.service.save(try scenario.report("2024-01-23"), now: scenario.sandbox.now)
    let report = try scenario.report("2024-01-24")
    #expect(
      report.history == [
        HistoryPoint(day: "2024-01-23", value: dec("60000"), isSaved: true),
        HistoryPoint(day: "2024-01-24", value: dec("52500"), isSaved: false),
      ])
    #expect(report.historyDays == 30)
  }

  @Test func backfillSavesTheMissingDaysOnlyUnlessToldToReplace() throws {
    let scenario = try ReportScenario()
    let main = try scenario.main
    try scenario.service.save(try scenario.report("2024-01-23"), now: scenario.sandbox.now)
    let first = try scenario.service.backfill(
      main, since: try #require(CalendarDay("2024-01-21")), now: scenario.sandbox.now)
    #expect(first.saved == ["2024-01-24", "2024-01-25"])
    #expect(first.alreadySaved == 1)
    // No snapshot was taken by the end of the 21st or 22nd: not valued, not saved.
    #expect(first.noFreshSnapshot == ["2024-01-21", "2024-01-22"])
    #expect(first.until == "2024-01-25")
    let rows = try scenario.rows()
    #expect(rows.map(\.day) == ["2024-01-23", "2024-01-24", "2024-01-25"])
    #expect(rows.map(\.value) == [dec("60000"), dec("52500"), dec("52500")])
    #expect(
      rows.map(\.snapshotAt) == [
        "2024-01-23T12:00:00Z", "2024-01-24T12:00:00Z", "2024-01-24T12:00:00Z",
      ])
    #expect(rows.map(\.realized) == [dec("1196"), dec("3946"), dec("3946")])
    // Backfilled figures equal what report --date would save.
    #expect(rows[1].costBasis == (try scenario.report("2024-01-24")).figures.costBasis)

    let again = try scenario.service.backfill(
      main, since: try #require(CalendarDay("2024-01-21")), now: scenario.sandbox.now)
    #expect(again.saved.isEmpty && again.alreadySaved == 3)
    let replaced = try scenario.service.backfill(
      main, since: try #require(CalendarDay("2024-01-24")), until: CalendarDay("2024-01-24"),
      replace: true, now: scenario.sandbox.now)
    #expect(replaced.saved == ["2024-01-24"])
    #expect(try scenario.rows().count == 3)
  }

  /// Only a snapshot taken in [end of day − maxAge, end of day) values a day: with 12h, the
  /// noon snapshots value their own day only, and the 23rd's never values the 22nd.
  @Test func backfillValuesADayOnlyWithASnapshotWithinMaxAgeOfItsEnd() throws {
    let scenario = try ReportScenario()
    let outcome = try scenario.service.backfill(
      try scenario.main, since: try #require(CalendarDay("2024-01-20")), maxAge: 12 * 3600,
      now: scenario.sandbox.now)
    #expect(outcome.saved == ["2024-01-23", "2024-01-24"])
    #expect(outcome.noFreshSnapshot == ["2024-01-20", "2024-01-21", "2024-01-22", "2024-01-25"])
    #expect(
      try scenario.rows().map(\.snapshotAt) == ["2024-01-23T12:00:00Z", "2024-01-24T12:00:00Z"])
  }

  /// With --replace, a day whose recomputed value is unknown (no held coin priced by a fresh
  /// snapshot) keeps its saved known value.
  @Test func backfillNeverReplacesAKnownValueWithAnUnknownOne() throws {
    let scenario = try ReportScenario()
    // A portfolio that holds only solana, which no snapshot quotes, with a known saved value.
    let alt = try PortfolioService(scenario.store).add(name: "alt", now: scenario.sandbox.now)
    _ = try TradeService(scenario.store).record(
      TradeDraft(side: .buy, coin: "solana", quantity: "5", price: "90", date: "2024-01-24"),
      in: alt, coinID: "solana", now: scenario.sandbox.now)
    try scenario.store.database.write {
      try DailyRecord(
        portfolioID: alt.id, day: "2024-01-25", value: dec("450"), costBasis: dec("450"),
        unrealized: dec("0"), realized: dec("0"), snapshotAt: "2024-01-24T12:00:00Z",
        savedAt: "2024-01-25T00:00:00Z"
      ).save(scenario.store.database)
    }
    let outcome = try scenario.service.backfill(
      alt, since: try #require(CalendarDay("2024-01-24")), replace: true,
      now: scenario.sandbox.now)
    // The 24th had no row: saved as n/a (nothing to keep); the 25th keeps 450.
    #expect(outcome.saved == ["2024-01-24"])
    #expect(outcome.keptKnownValue == ["2024-01-25"])
    #expect(
      try scenario.service.history(alt, since: nil, until: nil).map(\.value) == [nil, dec("450")])
  }

  @Test func backfillAndHistoryRefuseBackwardsAndFutureRanges() throws {
    let scenario = try ReportScenario()
    let main = try scenario.main
    let later = try #require(CalendarDay("2024-01-24"))
    let earlier = try #require(CalendarDay("2024-01-20"))
    #expect(throws: ReportError.emptyRange(since: "2024-01-24", until: "2024-01-20")) {
      _ = try scenario.service.backfill(
        main, since: later, until: earlier, now: scenario.sandbox.now)
    }
    #expect(throws: ReportError.emptyRange(since: "2024-01-24", until: "2024-01-20")) {
      _ = try scenario.service.history(main, since: later, until: earlier)
    }
    #expect(throws: ReportError.futureDay("2024-01-30", today: "2024-01-25")) {
      _ = try scenario.service.backfill(
        main, since: earlier, until: CalendarDay("2024-01-30"), now: scenario.sandbox.now)
    }
    #expect(try scenario.rows().isEmpty)
  }

  @Test func historyFiltersByDayInclusively() throws {
    let scenario = try ReportScenario()
    let main = try scenario.main
    _ = try scenario.service.backfill(
      main, since: try #require(CalendarDay("2024-01-20")), now: scenario.sandbox.now)
    let rows = try scenario.service.history(
      main, since: CalendarDay("2024-01-23"), until: CalendarDay("2024-01-24"))
    #expect(rows.map(\.day) == ["2024-01-23", "2024-01-24"])
  }
}
