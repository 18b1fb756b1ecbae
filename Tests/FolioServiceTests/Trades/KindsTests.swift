import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// The kinds of transaction (docs/trades.md) with hand-worked figures under each cost method.
/// Every case starts from three buys of 1 bitcoin: at 100 on 2024-01-01, at 300 on 01-02 and at
/// 200 on 01-03 (cost basis 600).
@Suite struct KindsTests {
  let sandbox: ServiceSandbox
  var store: Store { sandbox.store }

  init() throws { sandbox = try ServiceSandbox() }

  func portfolio(_ name: String, _ method: CostMethod, currency: String = "usd") throws
    -> Portfolio
  {
    try PortfolioService(store).add(
      name: name, currency: currency, method: method, now: sandbox.now)
  }

  func threeBuys(_ portfolio: Portfolio) throws {
    for (day, price) in [("2024-01-01", "100"), ("2024-01-02", "300"), ("2024-01-03", "200")] {
      try TradeService(store).record(
        TradeDraft(side: .buy, coin: "bitcoin", quantity: "1", price: price, date: day),
        in: portfolio, coinID: "bitcoin", now: sandbox.now)
    }
  }

  func position(_ portfolio: Portfolio, _ coin: String = "bitcoin") throws -> Position? {
    try DerivedTables(store.database).position(portfolioID: portfolio.id, coinID: coin)
  }

  /// (quantity, cost, acquired day) of each open lot, in acquisition order.
  func lots(_ portfolio: Portfolio, _ coin: String = "bitcoin") throws -> [String] {
    try DerivedTables(store.database).openLots(portfolioID: portfolio.id, coinID: coin).map {
      "\($0.remaining)@\($0.remainingCost) \($0.acquiredAt.prefix(10))"
    }
  }

  func draft(_ day: String) -> TransactionDraft { TransactionDraft(date: day) }

  func tradeIDs(_ portfolio: Portfolio) throws -> [Int64] {
    try store.database.rows(
      "SELECT id FROM trades WHERE portfolio_id = ? ORDER BY id", [portfolio.id]
    ) { try $0["id"] as Int64 }
  }

  /// A withdrawal of 1.5 removes lots in the method's order and realizes nothing.
  @Test(arguments: [
    (CostMethod.fifo, "350"), (.lifo, "250"), (.hifo, "200"), (.average, "300"),
  ])
  func withdrawalRemovesLotsByTheMethodAndRealizesNothing(method: CostMethod, basis: String)
    throws
  {
    let main = try portfolio("w", method)
    try threeBuys(main)
    let row = try TransactionService(store).withdraw(
      coin: "bitcoin", quantity: "1.5", draft("2024-01-04"), in: main, now: sandbox.now)
    #expect(row.kind == .withdrawal && row.side == .sell)
    let after = try #require(try position(main))
    #expect(after.quantity == dec("1.5"))
    #expect(after.costBasis == dec(basis))
    #expect(after.realized == .zero)
    // The last market price stays the one of the last buy.
    #expect(after.lastPrice == dec("200"))
  }

  @Test func withdrawingMoreThanHeldIsRefusedAndWritesNothing() throws {
    let main = try portfolio("w", .fifo)
    try threeBuys(main)
    #expect(throws: OversellError.self) {
      try TransactionService(store).withdraw(
        coin: "bitcoin", quantity: "3.1", draft("2024-01-04"), in: main, now: sandbox.now)
    }
    #expect(try sandbox.count("trades") == 3)
  }

  /// A deposit enters at its cost and acquisition date; FIFO then takes it first (it was
  /// acquired first), LIFO last.
  @Test(arguments: [
    (CostMethod.fifo, "50", "600"), (.lifo, "200", "450"), (.hifo, "300", "350"),
    (.average, "162.5", "487.5"),
  ])
  func depositEntersAtItsCostAndDate(method: CostMethod, left: String, kept: String) throws {
    let main = try portfolio("d", method)
    try threeBuys(main)
    let row = try TransactionService(store).deposit(
      coin: "bitcoin", quantity: "1", cost: "50", acquired: "2023-06-01", draft("2024-01-05"),
      in: main, now: sandbox.now)
    #expect(row.amount == dec("50") && row.acquiredAt == "2023-06-01T00:00:00Z")
    #expect(try lots(main).first == "1@50 2023-06-01")
    let before = try #require(try position(main))
    #expect(before.costBasis == dec("650"))
    let out = try TransactionService(store).withdraw(
      coin: "bitcoin", quantity: "1", draft("2024-01-06"), in: main, now: sandbox.now)
    let disposal = try #require(try DerivedTables(store.database).disposal(tradeID: out.id))
    #expect(disposal.costBasis == dec(left))
    #expect(disposal.realized == .zero)
    #expect(try position(main)?.costBasis == dec(kept))
  }

  @Test func aDepositAcquiredAfterItsDateIsRefused() throws {
    let main = try portfolio("d", .fifo)
    #expect(throws: TransactionError.self) {
      try TransactionService(store).deposit(
        coin: "bitcoin", quantity: "1", cost: "5", acquired: "2024-02-01", draft("2024-01-05"),
        in: main, now: sandbox.now)
    }
    #expect(try sandbox.count("trades") == 0)
  }

  /// Income is an acquisition at market value: a lot of quantity × price, nothing realized.
  @Test(arguments: CostMethod.allCases)
  func incomeIsAnAcquisitionAtMarketValue(method: CostMethod) throws {
    let main = try portfolio("i", method)
    try threeBuys(main)
    let row = try TransactionService(store).income(
      coin: "bitcoin", quantity: "0.1", price: "400", type: .staking, draft("2024-01-04"),
      in: main, now: sandbox.now)
    #expect(row.kind == .income && row.incomeType == .staking)
    let lot = try #require(try DerivedTables(store.database).lot(tradeID: row.id))
    #expect(lot.cost == dec("40"))
    let after = try #require(try position(main))
    #expect(after.quantity == dec("3.1") && after.costBasis == dec("640"))
    #expect(after.realized == .zero && after.lastPrice == dec("400"))
  }

  /// A swap of 1 bitcoin for 20 ethereum valued 500: the bitcoin leaves at 500 (realizing
  /// 500 − the basis the method takes) and the ethereum arrives with a basis of 500.
  @Test(arguments: [
    (CostMethod.fifo, "400"), (.lifo, "300"), (.hifo, "200"), (.average, "300"),
  ])
  func swapDisposesAndAcquiresAtOneValue(method: CostMethod, realized: String) throws {
    let main = try portfolio("s", method)
    try threeBuys(main)
    let rows = try TransactionService(store).swap(
      give: "bitcoin", giveQuantity: "1", get: "ethereum", getQuantity: "20", value: "500",
      fee: "0.5", feeCoin: "ethereum", maxAge: 86_400, draft("2024-01-04"), in: main,
      now: sandbox.now)
    #expect(rows.map(\.kind) == [.swap, .swap] && rows.map(\.side) == [.sell, .buy])
    #expect(rows.map(\.linkID) == [rows[0].id, rows[0].id])
    #expect(rows[1].fee == dec("0.5") && rows[1].price == dec("25"))
    #expect(try position(main)?.realized == dec(realized))
    let eth = try #require(try position(main, "ethereum"))
    #expect(eth.quantity == dec("20") && eth.costBasis == dec("500") && eth.realized == .zero)
  }

  @Test func swapValueComesFromTheNearestCachedQuoteElseIsRefused() throws {
    let main = try portfolio("s", .fifo)
    try threeBuys(main)
    let service = TransactionService(store)
    #expect {
      try service.swap(
        give: "bitcoin", giveQuantity: "1", get: "ethereum", getQuantity: "20", value: nil,
        fee: nil, feeCoin: nil, maxAge: 86_400, draft("2024-01-04"), in: main, now: sandbox.now)
    } throws: {
      ($0 as? TransactionError)?.errorDescription
        == "no value for the swap: give --value, or cache a usd quote of bitcoin or ethereum "
        + "within 1d of 2024-01-04T00:00:00Z ('folio market refresh' or 'folio market import')"
    }
    #expect(try sandbox.count("trades") == 3)
    let db = store.database
    try db.write {
      try db.execute(
        "INSERT INTO market_snapshots (id, fetched_at, source, vs_currency) VALUES "
          + "(1, '2024-01-03T20:00:00Z', 'test', 'usd'), (2, '2024-01-04T02:00:00Z', 'test', 'usd')"
      )
      try db.execute(
        "INSERT INTO market_quotes (snapshot_id, coin_id, current_price) VALUES "
          + "(1, 'bitcoin', '450'), (2, 'ethereum', '24')")
    }
    let rows = try service.swap(
      give: "bitcoin", giveQuantity: "1", get: "ethereum", getQuantity: "20", value: nil,
      fee: nil, feeCoin: nil, maxAge: 86_400, draft("2024-01-04"), in: main, now: sandbox.now)
    // The ethereum quote is 2 hours away, the bitcoin one 4: 20 × 24.
    #expect(rows.map(\.amount) == [dec("480"), dec("480")])
  }

  /// A transfer of 1.5 with a fee of 0.1: 1.4 arrives, in pieces that keep the acquisition
  /// dates and carry the whole basis that left (the fee's units come off the last acquired
  /// piece); nothing is realized on either side.
  @Test(arguments: [
    (CostMethod.fifo, ["1@100 2024-01-01", "0.4@150 2024-01-02"], "350"),
    (.lifo, ["0.5@150 2024-01-02", "0.9@200 2024-01-03"], "250"),
    (.hifo, ["1@300 2024-01-02", "0.4@100 2024-01-03"], "200"),
    (.average, ["1@200 2024-01-01", "0.4@100 2024-01-02"], "300"),
  ])
  func transferKeepsDatesAndBasis(method: CostMethod, arrived: [String], kept: String) throws {
    let source = try portfolio("p", method)
    let target = try portfolio("q", .fifo)
    try threeBuys(source)
    let rows = try TransactionService(store).transfer(
      coin: "bitcoin", quantity: "1.5", fee: "0.1", from: source, to: target,
      draft("2024-01-04"), now: sandbox.now)
    #expect(rows.count == 3 && rows.allSatisfy { $0.kind == .transfer && $0.linkID == rows[0].id })
    #expect(try lots(target) == arrived)
    let left = try #require(try position(source))
    #expect(left.quantity == dec("1.5") && left.costBasis == dec(kept) && left.realized == .zero)
    let moved = try #require(try position(target))
    let basis = try dec("600") - dec(kept)
    #expect(moved.quantity == dec("1.4") && moved.costBasis == basis)
    #expect(moved.realized == .zero)
  }

  @Test func transferBetweenCurrenciesOrBeyondTheHoldingIsRefused() throws {
    let source = try portfolio("p", .fifo)
    let euros = try portfolio("e", .fifo, currency: "eur")
    let target = try portfolio("q", .fifo)
    try threeBuys(source)
    let service = TransactionService(store)
    #expect(throws: TransactionError.self) {
      try service.transfer(
        coin: "bitcoin", quantity: "1", fee: nil, from: source, to: euros, draft("2024-01-04"),
        now: sandbox.now)
    }
    #expect(throws: OversellError.self) {
      try service.transfer(
        coin: "bitcoin", quantity: "4", fee: nil, from: source, to: target, draft("2024-01-04"),
        now: sandbox.now)
    }
    #expect(throws: TransactionError.feeTooLarge(fee: dec("1"), quantity: dec("1"))) {
      try service.transfer(
        coin: "bitcoin", quantity: "1", fee: "1", from: source, to: target, draft("2024-01-04"),
        now: sandbox.now)
    }
    #expect(try sandbox.count("trades") == 3)
  }

  /// A buy recorded in the source before a transfer changes the lots that moved: the arriving
  /// pieces follow, and `db check` finds nothing wrong.
  @Test func anEarlierChangeInTheSourceMovesTheArrivingPieces() throws {
    let source = try portfolio("p", .fifo)
    let target = try portfolio("q", .fifo)
    try threeBuys(source)
    try TransactionService(store).transfer(
      coin: "bitcoin", quantity: "1", fee: nil, from: source, to: target, draft("2024-01-04"),
      now: sandbox.now)
    #expect(try lots(target) == ["1@100 2024-01-01"])
    let arriving = try tradeIDs(target)
    try TradeService(store).record(
      TradeDraft(side: .buy, coin: "bitcoin", quantity: "1", price: "10", date: "2023-12-01"),
      in: source, coinID: "bitcoin", now: sandbox.now)
    #expect(try lots(target) == ["1@10 2023-12-01"])
    #expect(try position(target)?.costBasis == dec("10"))
    #expect(try position(source)?.costBasis == dec("600"))
    // The arriving row was rewritten in place: it keeps its id, which exports name it by.
    #expect(try tradeIDs(target) == arriving)
  }

  /// A transfer that now draws on two lots gets a second arriving row; the first keeps its id.
  @Test func anArrivingPieceSplitKeepsTheFirstRowsId() throws {
    let source = try portfolio("p", .fifo)
    let target = try portfolio("q", .fifo)
    try TradeService(store).record(
      TradeDraft(side: .buy, coin: "bitcoin", quantity: "2", price: "100", date: "2024-01-01"),
      in: source, coinID: "bitcoin", now: sandbox.now)
    try TransactionService(store).transfer(
      coin: "bitcoin", quantity: "1", fee: nil, from: source, to: target, draft("2024-01-04"),
      now: sandbox.now)
    let arriving = try tradeIDs(target)
    try #require(arriving.count == 1)
    try TradeService(store).record(
      TradeDraft(side: .buy, coin: "bitcoin", quantity: "0.5", price: "10", date: "2023-12-01"),
      in: source, coinID: "bitcoin", now: sandbox.now)
    #expect(try lots(target) == ["0.5@5 2023-12-01", "0.5@50 2024-01-01"])
    let after = try tradeIDs(target)
    #expect(after.count == 2 && after.first == arriving.first)
  }
}
