import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// A report reads the positions as of its day from the stored derived rows; it must show what
/// booking every trade again shows, on any day and with every method.
@Suite struct ReportStandingTests {
  @Test(arguments: [CostMethod.fifo, .lifo, .hifo, .average])
  func storedStateAgreesWithAFullReplay(method: CostMethod) throws {
    let sandbox = try ServiceSandbox()
    var generator = HistoryGenerator(trades: 1000)
    generator.coinCount = 3
    try generator.write(to: sandbox.folder)
    let now = Date(timeIntervalSince1970: 1_736_000_000)  // 2025-01-04T14:13:20Z
    _ = try sandbox.market.importFiles(
      [sandbox.folder + "/markets.json"], vsCurrency: "usd", at: nil, now: now)
    let main = try PortfolioService(sandbox.store).setMethod("main", method)
    let csv = try #require(FileManager.default.contents(atPath: sandbox.folder + "/trades.csv"))
    _ = try TradeImporter(sandbox.store).importTrades(
      from: CSVReader(bytes: Array(csv), source: "trades.csv"), source: "trades.csv", into: main,
      now: now)
    let service = ReportService(sandbox.store)
    let today = CalendarDay(containing: now)
    var days = stride(from: 0, through: 2200, by: 50).map { today.adding(days: -$0) }
    // Days with trades on them: the report lists them with their realized profit.
    try sandbox.store.database.read {
      try Trade.each(
        portfolioID: main.id, filter: Trade.Filter(side: .sell, limit: 3), sandbox.store.database
      ) {
        if let day = CalendarDay(String($0.executedAt.prefix(10))) { days.append(day) }
      }
    }
    var sawRealized = false
    for day in days {
      let (fast, replayed) = try sandbox.store.database.read {
        (
          try service.build(
            main, day: day, method: method, maxAge: 86_400, now: now, historyDays: 30),
          try service.build(
            main, day: day, method: method, maxAge: 86_400, now: now, historyDays: 30,
            replay: true)
        )
      }
      #expect(fast == replayed, "\(method) on \(day)")
      if !fast.realized.allTime.isZero && !fast.holdings.isEmpty { sawRealized = true }
    }
    #expect(sawRealized && days.count > 40)
    let stored = try sandbox.store.database.read {
      try Standing.stored(
        sandbox.store.database, portfolioID: main.id, method: method,
        through: today, since: today.firstOfYear.start)
    }
    #expect(stored != nil)
  }

  /// The period starts a report values without a saved row take their quantities from the
  /// stored positions less the later trades, or from the earlier trades summed: on days early
  /// and late in the history (either side) they equal a replay's.
  @Test func heldQuantitiesAgreeWithAReplayOnEitherSideOfTheHistory() throws {
    let sandbox = try ServiceSandbox()
    var generator = HistoryGenerator(trades: 1000)
    generator.coinCount = 3
    try generator.write(to: sandbox.folder)
    let now = Date(timeIntervalSince1970: 1_736_000_000)  // 2025-01-04T14:13:20Z
    let main = try PortfolioService(sandbox.store).resolve("main")
    let csv = try #require(FileManager.default.contents(atPath: sandbox.folder + "/trades.csv"))
    _ = try TradeImporter(sandbox.store).importTrades(
      from: CSVReader(bytes: Array(csv), source: "trades.csv"), source: "trades.csv", into: main,
      now: now)
    let service = ReportService(sandbox.store)
    let today = CalendarDay(containing: now)
    let database = sandbox.store.database
    let trades = try database.read { try service.trades(main, before: today.next.start) }
    let inception = try #require(
      trades.first.flatMap { CalendarDay(String($0.executedAt.prefix(10))) })
    // Early days (summed forward) and late ones (from the stored positions back).
    for days in [
      [30, 60, 400].map { inception.adding(days: $0) },
      [1, 7, 30, 365].map { today.adding(days: -$0) }.reversed(),
    ] {
      let held = try database.read {
        try service.heldQuantities(main, inception: inception.start, at: days)
      }
      var replay = PortfolioReplay(method: main.method, trades: trades)
      for (day, quantities) in zip(days, held) {
        try replay.advance(before: day.next.start)
        #expect(quantities.map(\.coinID) == replay.held.map(\.coinID), "\(day)")
        #expect(quantities.map(\.quantity) == replay.held.map(\.quantity), "\(day)")
        #expect(!quantities.isEmpty, "\(day)")
      }
    }
  }
}
