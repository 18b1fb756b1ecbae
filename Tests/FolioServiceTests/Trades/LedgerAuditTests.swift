import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// `LedgerAudit`: recomputing every position in memory finds what SQL cannot see; a rebuild
/// writes what the incremental booking writes, or nothing at all.
@Suite struct LedgerAuditTests {
  /// Main (fifo): bitcoin bought twice and sold once; ethereum bought. Other (average): bitcoin.
  func history() throws -> TestStore {
    let test = try TestStore()
    let other = try PortfolioService(test.store).add(
      name: "other", method: .average, now: Date(timeIntervalSince1970: 1_700_000_000))
    try test.trade(.buy, "bitcoin", "1", at: "100", fee: "1", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "300", on: "2024-01-02")
    try test.trade(.sell, "bitcoin", "1.5", at: "400", fee: "10", on: "2024-01-04")
    try test.trade(.buy, "ethereum", "3", at: "2000", on: "2024-01-05")
    try test.trade(.buy, "bitcoin", "3", at: "100", on: "2024-01-01", in: other)
    try test.trade(.sell, "bitcoin", "1", at: "200", on: "2024-01-03", in: other)
    return test
  }

  func findings(_ test: TestStore) throws -> [CheckFinding] {
    try LedgerAudit(test.store).findings().findings
  }

  @Test func aBookedHistoryHasNoFindings() throws {
    let test = try history()
    let result = try LedgerAudit(test.store).findings()
    #expect(result.findings.isEmpty)
    #expect(result.trades == 6)
    #expect(result.positions == 3)
    #expect(try DatabaseAdmin(test.store).check().isSound)
  }

  @Test func rebuildReproducesTheIncrementalBookingExactly() throws {
    let test = try history()
    let incremental = try test.derivedSnapshot()
    let report = try LedgerAudit(test.store).rebuild()
    #expect(try test.derivedSnapshot() == incremental)
    #expect(
      report.removed == DerivedRowCounts(lots: 4, consumptions: 3, disposals: 2, positions: 3))
    #expect(report.portfolios.map(\.portfolio.name) == ["main", "other"])
    #expect(report.portfolios.map(\.trades) == [4, 2])
    #expect(
      report.portfolios.first?.written
        == DerivedRowCounts(lots: 3, consumptions: 2, disposals: 1, positions: 2))
    #expect(report.tradesWithoutPortfolio == 0)
  }

  @Test func aChangedTradeIsFoundAndRebuildRepairsIt() throws {
    let test = try history()
    try test.db.execute("UPDATE trades SET price = '200' WHERE id = 2")
    let found = try findings(test)
    #expect(found.count == 1)
    let finding = try #require(found.first)
    #expect(finding.kind == .outOfDate)
    #expect(finding.portfolio == "main")
    #expect(finding.coinID == "bitcoin")
    #expect(
      finding.message
        == "portfolio 'main', bitcoin: the derived tables differ from the trades (1 lot, "
        + "1 disposal, 1 lot consumption, 2 position days, the position; first difference: lot of "
        + "trade #2: cost "
        + "is '300', the trades give '200'); run 'folio db rebuild'")
    _ = try LedgerAudit(test.store).rebuild()
    #expect(try findings(test).isEmpty)
    // FIFO: 1 @ 101 + 0.5 @ 200 leave with the sell: 590 − 201 = 389.
    #expect(try test.position("bitcoin")?.realized == dec("389"))
  }

  @Test func aChangedMethodIsFound() throws {
    let test = try history()
    try test.db.execute("UPDATE portfolios SET method = 'lifo' WHERE name = 'main'")
    let found = try findings(test)
    #expect(found.map(\.coinID) == ["bitcoin", "ethereum"])
    #expect(found.allSatisfy { $0.kind == .outOfDate })
  }

  @Test func derivedRowsTypedOrLeftBehindByHandAreFound() throws {
    let test = try history()
    try test.db.execute("UPDATE lots SET remaining = '1.50' WHERE trade_id = 4")
    try test.db.execute("DELETE FROM positions WHERE coin_id = 'ethereum'")
    let found = try findings(test)
    #expect(found.count == 1)
    #expect(
      found.first?.message
        == "portfolio 'main', ethereum: the derived tables differ from the trades (1 lot, the "
        + "position; first difference: lot of trade #4: remaining is '1.50', the trades give "
        + "'3'); run 'folio db rebuild'")

    try test.db.execute("PRAGMA foreign_keys = OFF")
    try test.db.execute(
      """
      INSERT INTO positions VALUES (9, 'dogecoin', '1', '1', '0', '2024-01-01T00:00:00Z', 99, '1',
        'fifo');
      INSERT INTO lot_consumptions VALUES (98, 1, '1', '1');
      INSERT INTO lots VALUES (97, 1, 'solana', '2024-01-01T00:00:00Z', '1', '1', '1', '1');
      """)
    let more = try findings(test).map(\.message)
    #expect(
      more.contains(
        "the derived tables hold rows of dogecoin for portfolio id 9, which does not exist; run "
          + "'folio db rebuild'"))
    #expect(
      more.contains(
        "1 lot consumption(s) belong to no disposal of a recorded sell (removed by hand); run "
          + "'folio db rebuild'"))
    #expect(
      more.contains(
        "portfolio 'main', solana: the derived tables differ from the trades (1 lot; first "
          + "difference: lot of trade #97 should not exist); run 'folio db rebuild'"))
    _ = try LedgerAudit(test.store).rebuild()
    #expect(try findings(test).isEmpty)
  }

  /// A derived row belongs to the position of its trade: moved by hand to another position,
  /// it differs there; given a trade that does not exist, it is found by the position it
  /// names, and the lot consumptions left without their disposal are counted.
  @Test func aDerivedRowIsCheckedAgainstItsTradeWherePutByHand() throws {
    let test = try history()
    try test.db.execute("UPDATE lots SET coin_id = 'bitcoin' WHERE trade_id = 4")
    try test.db.execute("UPDATE disposals SET trade_id = 60 WHERE trade_id = 6")
    let found = try findings(test).map(\.message)
    #expect(
      found == [
        "portfolio 'main', ethereum: the derived tables differ from the trades (1 lot; first "
          + "difference: lot of trade #4: coin_id is 'bitcoin', the trades give 'ethereum'); "
          + "run 'folio db rebuild'",
        "portfolio 'other', bitcoin: the derived tables differ from the trades (2 disposals, "
          + "1 lot consumption; first difference: disposal of sell #6 is missing); run "
          + "'folio db rebuild'",
        "1 lot consumption(s) belong to no disposal of a recorded sell (removed by hand); run "
          + "'folio db rebuild'",
      ])
    _ = try LedgerAudit(test.store).rebuild()
    #expect(try findings(test).isEmpty)
  }

  @Test func aSellBeyondTheHoldingIsANegativePositionAndRebuildRefuses() throws {
    let test = try history()
    try test.db.execute("UPDATE trades SET quantity = '4' WHERE id = 6")
    let found = try findings(test)
    let finding = try #require(found.first)
    #expect(found.count == 1)
    #expect(finding.kind == .negativePosition)
    #expect(finding.portfolio == "other")
    #expect(finding.tradeID == 6)
    let before = try test.derivedSnapshot()
    let error = try #require(throws: RebuildError.self) { try LedgerAudit(test.store).rebuild() }
    #expect(
      error.errorDescription
        == "portfolio 'other': sell #6 of 4 bitcoin on 2024-01-03T00:00:00Z exceeds the 3 held at "
        + "that time (short by 1), so the position would go negative; fix or delete that trade "
        + "('folio tx edit' or 'folio tx delete'), then rebuild again (nothing was changed)")
    #expect(try test.derivedSnapshot() == before)
  }

  @Test func tradesBreakingFoliosWriteRulesAreListedThenSummedUp() throws {
    let test = try TestStore()
    // The INSERT guard refuses such rows; a user who drops it can still get them in.
    try test.db.execute("DROP TRIGGER trades_guard_insert")
    for day in 1...(LedgerAudit.listedTradeFindings + 2) {
      try test.db.execute(
        """
        INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, created_at)
        VALUES (1, '2024-01-\(String(format: "%02d", day))T00:00:00Z', 'buy', 'BTC', '1', '1',
          '2024-01-01T00:00:00Z')
        """)
    }
    let trades = try findings(test).filter { $0.kind == .trade }
    #expect(trades.count == LedgerAudit.listedTradeFindings + 1)
    #expect(trades.first?.tradeID == 1)
    #expect(trades.last?.message == "and 2 more trade(s) break the same rules")
  }
}
