import FolioTestSupport
import Foundation
import Testing

@testable import FolioService
@testable import FolioStorage

/// `holdings --method M` books every trade again in memory, read ahead on a second thread
/// (`ReadAhead`): over several batches of rows it must show what the stored positions of a
/// portfolio kept with M show.
@Suite struct MethodReplayTests {
  @Test func aReplayWithAnotherMethodShowsWhatStoringItShows() throws {
    let sandbox = try ServiceSandbox()
    var generator = HistoryGenerator(trades: ReadAhead.batchRows * 3 + 100)
    generator.coinCount = 3
    try generator.write(to: sandbox.folder)
    let now = Date(timeIntervalSince1970: 1_736_000_000)
    let csv = try #require(FileManager.default.contents(atPath: sandbox.folder + "/trades.csv"))
    _ = try TradeImporter(sandbox.store).importTrades(
      from: CSVReader(bytes: Array(csv), source: "trades.csv"), source: "trades.csv",
      into: try PortfolioService(sandbox.store).resolve("main"), now: now)
    let service = HoldingsService(sandbox.store)
    let portfolios = PortfolioService(sandbox.store)
    var replayed: [CostMethod: Holdings] = [:]
    for method in [CostMethod.lifo, .hifo, .average, .fifo] {
      replayed[method] = try service.holdings(try portfolios.resolve("main"), method: method)
    }
    var realized: Set<ExactDecimal> = []
    for method in [CostMethod.lifo, .hifo, .average] {
      // Stored: the lots booked again with `method` and written.
      let main = try portfolios.setMethod("main", method)
      let stored = try service.holdings(main)
      let replay = try #require(replayed[method])
      #expect(stored.rows == replay.rows, "\(method)")
      #expect(stored.rows.count == 3 && stored.totalRealized == replay.totalRealized)
      if case .known(let total) = stored.totalRealized { realized.insert(total) }
    }
    // The methods differ on this history, so the comparison above tells them apart.
    #expect(realized.count == 3)
    #expect(replayed[.fifo]?.rows != replayed[.lifo]?.rows)
  }
}
