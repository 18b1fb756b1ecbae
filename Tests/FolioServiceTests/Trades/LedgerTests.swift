import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// Cost-basis methods on a hand-worked history:
/// buy 1 @ 100, buy 1 @ 300, buy 1 @ 200, then sell 1.5 @ 400 with a 10 fee (proceeds 590).
@Suite struct LedgerTests {
  func history(_ method: CostMethod) throws -> TestStore {
    let test = try TestStore()
    if method != .fifo { _ = try PortfolioService(test.store).setMethod("main", method) }
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "300", on: "2024-01-02")
    try test.trade(.buy, "bitcoin", "1", at: "200", on: "2024-01-03")
    try test.trade(.sell, "bitcoin", "1.5", at: "400", fee: "10", on: "2024-01-04")
    return test
  }

  @Test(arguments: [
    (CostMethod.fifo, "340", "350"), (.lifo, "240", "250"), (.hifo, "190", "200"),
    (.average, "290", "300"),
  ])
  func methodOnHandWorkedHistory(method: CostMethod, realized: String, basis: String) throws {
    let test = try history(method)
    let position = try #require(try test.position("bitcoin"))
    #expect(position.quantity == dec("1.5"))
    #expect(position.realized == dec(realized))
    #expect(position.costBasis == dec(basis))
  }

  @Test func fifoConsumesPartOfTheSecondLot() throws {
    let test = try history(.fifo)
    let sell = try #require(try test.db.scalarInt("SELECT id FROM trades WHERE side = 'sell'"))
    let pieces = try DerivedTables(test.db).consumptions(sellTradeID: sell)
    #expect(pieces.map(\.quantity) == [dec("1"), dec("0.5")])
    #expect(pieces.map(\.cost) == [dec("100"), dec("150")])
    let open = try DerivedTables(test.db).openLots(portfolioID: test.main().id, coinID: "bitcoin")
    #expect(open.map(\.remaining) == [dec("0.5"), dec("1")])
    #expect(open.map(\.remainingCost) == [dec("150"), dec("200")])
  }

  /// HIFO with equal unit costs takes the earliest of the tied lots, so the later
  /// acquisition dates (and holding periods) are the ones that remain.
  @Test func hifoTieConsumesTheEarliestLot() throws {
    let test = try TestStore()
    _ = try PortfolioService(test.store).setMethod("main", .hifo)
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "50", on: "2024-01-02")
    // 0.5 at 200 plus a fee of 100 is also 400 a unit: tied with the first lot.
    try test.trade(.buy, "bitcoin", "0.5", at: "200", fee: "100", on: "2024-01-03")
    try test.trade(.buy, "bitcoin", "2", at: "200", on: "2024-01-04")
    try test.trade(.buy, "bitcoin", "1", at: "400", on: "2024-01-05")
    // Unit costs: 100, 50, 400, 200, 400. The two lots at 400 tie: #3 goes first, then #5.
    let sell = try test.trade(.sell, "bitcoin", "1", at: "500", on: "2024-01-06")
    let pieces = try DerivedTables(test.db).consumptions(sellTradeID: sell.id)
    #expect(pieces.map(\.lotTradeID) == [3, 5])
    #expect(pieces.map(\.quantity) == [dec("0.5"), dec("0.5")])
    #expect(pieces.map(\.cost) == [dec("200"), dec("200")])
    let open = try DerivedTables(test.db).openLots(portfolioID: test.main().id, coinID: "bitcoin")
    #expect(open.map(\.tradeID) == [1, 2, 4, 5])
    #expect(open.last?.acquiredAt == "2024-01-05T00:00:00Z")
    #expect(open.map(\.remaining) == [dec("1"), dec("1"), dec("2"), dec("0.5")])
  }

  /// A lot whose unit cost is beyond the decimal range (a fee of 1,000 on 10⁻¹⁸ units is
  /// 10²¹ a unit) is still the most expensive: HIFO sells it first. Unit costs are compared
  /// exactly: 1 for 3 units is more than 0.333333333333333333 a unit, which division ties.
  @Test func hifoSellsAnOverflowingUnitCostFirst() throws {
    let test = try TestStore()
    _ = try PortfolioService(test.store).setMethod("main", .hifo)
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "0.000000000000000001", at: "0", fee: "1000", on: "2024-01-02")
    try test.trade(.buy, "bitcoin", "1", at: "0.333333333333333333", on: "2024-01-03")
    try test.trade(.buy, "bitcoin", "3", at: "0", fee: "1", on: "2024-01-04")
    let first = try test.trade(.sell, "bitcoin", "0.000000000000000001", at: "1", on: "2024-01-05")
    let pieces = try DerivedTables(test.db).consumptions(sellTradeID: first.id)
    #expect(pieces.map(\.lotTradeID) == [2])
    #expect(pieces.map(\.cost) == [dec("1000")])
    let next = try test.trade(.sell, "bitcoin", "2", at: "1", on: "2024-01-06")
    let rest = try DerivedTables(test.db).consumptions(sellTradeID: next.id)
    #expect(rest.map(\.lotTradeID) == [1, 4])
    #expect(rest.map(\.quantity) == [dec("1"), dec("1")])
  }

  /// Under average cost the pieces of a sell are rounded shares of its cost; the last piece
  /// takes what is left, so they add up to exactly the sell's cost basis.
  @Test func averageCostLastPieceTakesTheRemainder() throws {
    let test = try TestStore()
    _ = try PortfolioService(test.store).setMethod("main", .average)
    // 3 units for 0.1 + 0.2 + 0.7 = 1; selling 2 costs 2/3.
    try test.trade(.buy, "bitcoin", "1", at: "0.1", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "1", at: "0.2", on: "2024-01-02")
    try test.trade(.buy, "bitcoin", "1", at: "0.7", on: "2024-01-03")
    let sell = try test.trade(.sell, "bitcoin", "2", at: "1", on: "2024-01-04")
    let disposal = try #require(try DerivedTables(test.db).disposal(tradeID: sell.id))
    #expect(disposal.costBasis == dec("0.666666666666666667"))
    #expect(disposal.realized == dec("1.333333333333333333"))
    // Half of 0.666666666666666667 rounds (half-even) to ...334; the last piece is the rest.
    let pieces = try DerivedTables(test.db).consumptions(sellTradeID: sell.id)
    #expect(pieces.map(\.cost) == [dec("0.333333333333333334"), dec("0.333333333333333333")])
    let position = try #require(try test.position("bitcoin"))
    #expect(position.quantity == dec("1"))
    #expect(position.costBasis == dec("0.333333333333333333"))
  }

  @Test func buyFeeAddsToCostAndSellFeeReducesProceeds() throws {
    let test = try TestStore()
    try test.trade(.buy, "ethereum", "2", at: "1000", fee: "5", on: "2024-01-01")
    try test.trade(.sell, "ethereum", "1", at: "1500", fee: "3", on: "2024-01-02")
    let position = try #require(try test.position("ethereum"))
    #expect(position.costBasis == dec("1002.5"))
    #expect(position.realized == dec("494.5"))  // 1497 − 1002.5
  }

  @Test func tenthsSellToExactlyZero() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "0.1", at: "1", on: "2024-01-01")
    try test.trade(.buy, "bitcoin", "0.2", at: "1", on: "2024-01-02")
    try test.trade(.sell, "bitcoin", "0.3", at: "1", on: "2024-01-03")
    let position = try #require(try test.position("bitcoin"))
    #expect(position.quantity.isZero)
    #expect(position.costBasis.isZero)
  }

  @Test func backDatedBuyRecomputesLaterSells() throws {
    let test = try history(.fifo)
    try test.trade(.buy, "bitcoin", "1", at: "50", on: "2023-12-31")
    let position = try #require(try test.position("bitcoin"))
    #expect(position.quantity == dec("2.5"))
    #expect(position.realized == dec("490"))  // 590 − (50 + 50)
    #expect(position.costBasis == dec("550"))
  }

  @Test(arguments: CostMethod.allCases)
  func incrementalChangesEqualAFullRebuild(method: CostMethod) throws {
    let test = try history(method)
    let service = TradeService(test.store)
    let main = try test.main()
    try test.trade(.buy, "bitcoin", "0.7", at: "120", on: "2023-06-01")
    try test.trade(.sell, "bitcoin", "0.2", at: "500", on: "2024-01-03T12:00:00Z")
    _ = try service.edit(
      id: 2, TradeChanges(price: "310", date: "2024-01-05"), in: main, now: Date())
    _ = try service.delete(id: 3, in: main)
    try test.trade(.sell, "bitcoin", "0.4", at: "90", on: "2024-02-01")
    let incremental = try test.derivedSnapshot()
    try test.db.write { try Ledger(test.db).rebuild(portfolio: main) }
    #expect(try test.derivedSnapshot() == incremental)
  }

  @Test func oversellIsRefusedAndNothingIsWritten() throws {
    let test = try history(.fifo)
    let before = try test.derivedSnapshot()
    let count = try test.db.scalarInt("SELECT count(*) FROM trades")
    #expect {
      try test.trade(.sell, "bitcoin", "1.6", at: "1", on: "2024-02-01")
    } throws: { error in
      let oversell = error as? OversellError
      return oversell?.shortfall == dec("0.1") && oversell?.tradeID == 0
    }
    #expect(try test.db.scalarInt("SELECT count(*) FROM trades") == count)
    #expect(try test.derivedSnapshot() == before)
  }

  @Test func deleteOrEditThatMakesALaterSellOversellIsRefused() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.trade(.sell, "bitcoin", "0.8", at: "200", on: "2024-01-02")
    let main = try test.main()
    let before = try test.derivedSnapshot()
    let service = TradeService(test.store)
    #expect(throws: OversellError.self) { try service.delete(id: 1, in: main) }
    #expect(throws: OversellError.self) {
      try service.edit(id: 1, TradeChanges(quantity: "0.5"), in: main, now: Date())
    }
    #expect(throws: OversellError.self) {
      try service.edit(id: 1, TradeChanges(date: "2024-02-01"), in: main, now: Date())
    }
    #expect(throws: OversellError.self) {
      try service.edit(id: 2, TradeChanges(quantity: "1.2"), in: main, now: Date())
    }
    #expect(try test.derivedSnapshot() == before)
    #expect(try service.find(1, in: main).executedAt == "2024-01-01T00:00:00Z")
  }

  @Test func methodOverrideDoesNotWrite() throws {
    let test = try history(.fifo)
    let before = try test.derivedSnapshot()
    let holdings = try HoldingsService(test.store).holdings(test.main(), method: .hifo)
    #expect(holdings.rows.first?.realized == dec("190"))
    #expect(try test.derivedSnapshot() == before)
  }

  @Test func changingTheMethodRebuildsTheLots() throws {
    let test = try history(.fifo)
    _ = try PortfolioService(test.store).setMethod("main", .lifo)
    #expect(try test.position("bitcoin")?.realized == dec("240"))
  }
}
