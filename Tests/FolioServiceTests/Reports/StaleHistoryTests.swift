import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// Saved history never goes stale: a change dated on or before a saved day recomputes that day
/// in the same transaction, so the saved days (and the returns worked out from them) equal what
/// a fresh backfill of the same trades gives.
@Suite struct StaleHistoryTests {
  /// The figures of a saved day, and the day's change, as comparable text.
  func saved(_ scenario: ReportScenario) throws -> [String] {
    let rows = try scenario.rows()
    let returns = try scenario.service.dayReturns(try scenario.main, rows: rows)
    return zip(rows, returns).map { row, change in
      [
        row.day, "\(row.value as Any)", "\(row.costBasis as Any)", "\(row.unrealized as Any)",
        "\(row.realized as Any)", row.snapshotAt ?? "-", "\(change.percent as Any)",
      ].joined(separator: " ")
    }
  }

  func backfill(_ scenario: ReportScenario) throws {
    _ = try scenario.service.backfill(
      try scenario.main, since: try #require(CalendarDay("2024-01-23")),
      until: CalendarDay("2024-01-24"), now: scenario.sandbox.now)
  }

  /// The history after `change`, made once after the days were saved and once before.
  func afterAndBefore(_ change: (ReportScenario) throws -> Void) throws -> (
    after: [String], fresh: [String], before: [String]
  ) {
    let late = try ReportScenario()
    try backfill(late)
    let before = try saved(late)
    try change(late)
    let fresh = try ReportScenario()
    try change(fresh)
    try backfill(fresh)
    return (try saved(late), try saved(fresh), before)
  }

  @Test func aBackDatedBuyRecomputesTheSavedDays() throws {
    let result = try afterAndBefore { scenario in
      try scenario.trade(.buy, "bitcoin", "1", "20000", on: "2024-01-22")
    }
    #expect(result.after == result.fresh)
    #expect(result.after != result.before)
    #expect(try DailyRecord.staleDays(ReportScenario().store.database).isEmpty)
  }

  /// A trade on the last saved day itself changes that day, and only it.
  @Test func aTradeOnASavedDayRecomputesThatDay() throws {
    let result = try afterAndBefore { scenario in
      try scenario.trade(.buy, "bitcoin", "1", "20000", on: "2024-01-24T10:00:00Z")
    }
    #expect(result.after == result.fresh)
    #expect(result.after.first == result.before.first)
    #expect(result.after.last != result.before.last)
  }

  @Test func aDeletedOrEditedTradeRecomputesTheSavedDays() throws {
    func firstEthereumBuy(_ scenario: ReportScenario) throws -> Int64 {
      try #require(
        try scenario.store.database.scalarInt(
          "SELECT id FROM trades WHERE coin_id = 'ethereum' AND side = 'buy' ORDER BY id LIMIT 1"))
    }
    let deleted = try afterAndBefore { scenario in
      let id = try firstEthereumBuy(scenario)
      _ = try TradeService(scenario.store).delete(id: id, in: try scenario.main)
    }
    #expect(deleted.after == deleted.fresh)
    #expect(deleted.after != deleted.before)
  }

  @Test func aMethodChangeRecomputesTheSavedDays() throws {
    let result = try afterAndBefore { scenario in
      _ = try PortfolioService(scenario.store).setMethod("main", .hifo)
    }
    #expect(result.after == result.fresh)
    #expect(result.after != result.before)
  }

  /// A change made outside folio marks the days stale: reports leave them out, `db check`
  /// lists them, and the next folio write recomputes them.
  @Test func aChangeOutsideFolioIsMarkedListedAndRecomputedByTheNextWrite() throws {
    let scenario = try ReportScenario()
    try backfill(scenario)
    let database = scenario.store.database
    try database.execute(
      "UPDATE trades SET quantity = '2' WHERE coin_id = 'bitcoin' AND side = 'buy'")
    #expect(try DailyRecord.staleDays(database).map(\.days) == [["2024-01-23", "2024-01-24"]])
    #expect(try scenario.rows().isEmpty)
    let findings = try LedgerAudit(database).rowFindings()
    #expect(findings.contains { $0.kind == .staleDays && $0.portfolio == "main" })
    try scenario.trade(.buy, "ethereum", "1", "2000", on: "2024-01-25T11:00:00Z")
    #expect(try DailyRecord.staleDays(database).isEmpty)
    #expect(try scenario.rows().map(\.day) == ["2024-01-23", "2024-01-24"])
  }

  /// An import drops the INSERT triggers of trades while it writes (`suspendInsertWork`),
  /// the one marking saved days stale among them: it marks them itself.
  @Test func anImportedBackDatedTradeRecomputesTheSavedDays() throws {
    let result = try afterAndBefore { scenario in
      let csv =
        "date,side,coin,quantity,price,fee,note\n2024-01-22T10:00:00Z,buy,bitcoin,1,20000,0,\n"
      _ = try TradeImporter(scenario.store).importTrades(
        from: CSVReader(bytes: Array(csv.utf8), source: "t.csv"), source: "t.csv",
        into: try scenario.main, now: scenario.sandbox.now)
    }
    #expect(result.after == result.fresh)
    #expect(result.after != result.before)
  }

  /// A sell edited by hand to oversell does not make every other write to the database fail;
  /// `db check` names the derived tables out of date, and `db rebuild` refuses the oversell.
  @Test func aHandEditedOversellDoesNotBlockOtherWrites() throws {
    let scenario = try ReportScenario()
    try backfill(scenario)
    let database = scenario.store.database
    try database.execute(
      "UPDATE trades SET quantity = '100' WHERE coin_id = 'ethereum' AND side = 'sell'")
    let other = try PortfolioService(scenario.store).add(name: "other", now: scenario.sandbox.now)
    #expect(other.name == "other")
    #expect(
      try LedgerAudit(scenario.store).findings().findings.contains {
        $0.kind == .negativePosition || $0.kind == .outOfDate
      })
  }

  /// A recomputed day is valued only with prices a backfill would use: a coin now held whose
  /// only price is weeks old makes the day unknown, never valued at that old price.
  @Test func aRecomputedDayIsNeverValuedAtAnOldPrice() throws {
    let scenario = try ReportScenario()
    try backfill(scenario)
    _ = try DailyPriceRecords.insert(
      scenario.store.database,
      DailyPrice(
        coinID: "solana", vsCurrency: "usd", day: "2024-01-01", price: dec("100"),
        pricedAt: "2024-01-01T23:00:00Z", source: "test", fetchedAt: "2024-01-02T00:00:00Z"))
    try scenario.trade(.buy, "solana", "1", "90", on: "2024-01-20")
    let rows = try scenario.rows()
    #expect(rows.map(\.day) == ["2024-01-23", "2024-01-24"])
    #expect(rows.map(\.value) == [nil, nil])
    #expect(try DailyRecord.staleDays(scenario.store.database).isEmpty)
  }
}
