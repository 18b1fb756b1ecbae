import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// The net flow of every kind of transaction (docs/reports.md, "Returns"): cash paid for buys
/// − cash received for sells + deposits − withdrawals + transfers in − transfers out, the last
/// four at market value; income and swaps are no flow. Figures worked by hand.
@Suite struct CashFlowTests {
  let sandbox: ServiceSandbox
  var store: Store { sandbox.store }

  init() throws { sandbox = try ServiceSandbox() }

  func row(
    _ kind: TradeKind, _ side: TradeSide, _ quantity: String, price: String = "0",
    fee: String = "0"
  ) -> Trade {
    var trade = Trade(
      portfolioID: 1, executedAt: "2024-01-02T12:00:00Z", side: side, coinID: "bitcoin",
      quantity: dec(quantity), price: dec(price), fee: dec(fee), createdAt: "")
    trade.kind = kind
    return trade
  }

  /// The market price of bitcoin near every row: 120.
  func at120(_ trade: Trade) -> ExactDecimal? { dec("120") }

  @Test func eachKindHasItsFlow() throws {
    // Cash: 2 × 100 + 1 paid; 2 × 100 − 1 received.
    #expect(
      try CashFlow.of(row(.trade, .buy, "2", price: "100", fee: "1"), marketPrice: at120)?.amount
        == dec("201"))
    #expect(
      try CashFlow.of(row(.trade, .sell, "2", price: "100", fee: "1"), marketPrice: at120)?.amount
        == dec("-199"))
    // At market value, whatever the row's cost: 2 × 120.
    var deposit = row(.deposit, .buy, "2")
    deposit.amount = dec("50")
    #expect(try CashFlow.of(deposit, marketPrice: at120)?.amount == dec("240"))
    #expect(
      try CashFlow.of(row(.withdrawal, .sell, "2"), marketPrice: at120)?.amount == dec("-240"))
    // A transfer of 1 with a fee of 0.1: 0.9 arrives, so 0.9 × 120 leaves and arrives.
    #expect(
      try CashFlow.of(row(.transfer, .sell, "1", fee: "0.1"), marketPrice: at120)?.amount
        == dec("-108"))
    #expect(try CashFlow.of(row(.transfer, .buy, "0.9"), marketPrice: at120)?.amount == dec("108"))
    // A return, and an exchange inside the portfolio.
    #expect(try CashFlow.of(row(.income, .buy, "0.5", price: "120"), marketPrice: at120) == nil)
    #expect(try CashFlow.of(row(.swap, .sell, "1", price: "120"), marketPrice: at120) == nil)
    #expect(try CashFlow.of(row(.swap, .buy, "20", price: "6"), marketPrice: at120) == nil)
  }

  @Test func aFlowAtMarketValueWithoutAPriceIsUnknownWithTheReason() throws {
    let flow = try #require(try CashFlow.of(row(.deposit, .buy, "2")) { _ in nil })
    #expect(
      flow.unknown
        == "the deposit of 2 bitcoin at 2024-01-02T12:00:00Z is a flow at market value, and no "
        + "market price of bitcoin is known near that time")
    // A cash buy needs no market price.
    #expect(try CashFlow.of(row(.trade, .buy, "1", price: "100")) { _ in nil }?.unknown == nil)
  }

  // MARK: - Through the report

  /// Bitcoin quoted at 100 (01-01 12:00), 120 (01-02 12:00) and 150 (01-03 12:00).
  func quoteBitcoin() throws {
    let db = store.database
    try db.write {
      try db.execute(
        "INSERT OR IGNORE INTO coins (id, symbol, name, updated_at) VALUES "
          + "('bitcoin', 'btc', 'Bitcoin', '2024-01-01T00:00:00Z')")
      try db.execute(
        "INSERT INTO market_snapshots (id, fetched_at, source, vs_currency) VALUES "
          + "(1, '2024-01-01T12:00:00Z', 'test', 'usd'), (2, '2024-01-02T12:00:00Z', 'test', 'usd'), "
          + "(3, '2024-01-03T12:00:00Z', 'test', 'usd')")
      try db.execute(
        "INSERT INTO market_quotes (snapshot_id, coin_id, current_price) VALUES "
          + "(1, 'bitcoin', '100'), (2, 'bitcoin', '120'), (3, 'bitcoin', '150')")
    }
  }

  func draft(_ time: String) -> TransactionDraft { TransactionDraft(date: time) }

  /// main: a buy of 1 at 100 (01-01 10:00, +100); a deposit of 2 at a cost of 50 (01-02 12:00,
  /// +2 × 120 = +240); income of 0.5 at 120 (01-02 13:00, no flow); a withdrawal of 1 (01-03
  /// 12:00, −150); a transfer of 1 to q with a fee of 0.1 (01-03 12:00, −0.9 × 150 = −135).
  /// Values: 01-02 end 3.5 × 120 = 420; 01-03 end 1.5 × 150 = 225.
  /// All: net flow 100 + 240 − 150 − 135 = 55, market gain 225 − 55 = 170 (bitcoin's rise on
  /// the first coin, 50, on the deposit, 2 × 30 = 60, and on the income, 0.5 × 30 = 15, the
  /// income itself, 60, less the fee, 0.1 × 150 = 15).
  /// 1d: net flow −285, market gain 225 − 420 + 285 = 90 (3.5 × 30 − 15); Modified Dietz
  /// 90 / (420 − 285 × 12/24) = 90 / 277.5 = 32.432432%.
  /// q: +135 in, worth 0.9 × 150 = 135: no gain.
  @Test func theReportCountsDepositsWithdrawalsAndTransfersAtMarketValueAndIncomeAsGain() throws {
    try quoteBitcoin()
    let portfolios = PortfolioService(store)
    let main = try portfolios.resolve(nil)
    let q = try portfolios.add(name: "q", now: sandbox.now)
    try TradeService(store).record(
      TradeDraft(
        side: .buy, coin: "bitcoin", quantity: "1", price: "100", date: "2024-01-01T10:00:00Z"),
      in: main, coinID: "bitcoin", now: sandbox.now)
    let service = TransactionService(store)
    _ = try service.deposit(
      coin: "bitcoin", quantity: "2", cost: "50", acquired: nil, draft("2024-01-02T12:00:00Z"),
      in: main, now: sandbox.now)
    _ = try service.income(
      coin: "bitcoin", quantity: "0.5", price: "120", type: .staking,
      draft("2024-01-02T13:00:00Z"), in: main, now: sandbox.now)
    _ = try service.withdraw(
      coin: "bitcoin", quantity: "1", draft("2024-01-03T12:00:00Z"), in: main, now: sandbox.now)
    _ = try service.transfer(
      coin: "bitcoin", quantity: "1", fee: "0.1", from: main, to: q, draft("2024-01-03T12:00:00Z"),
      now: sandbox.now)

    let report = try ReportService(store).report(
      main, day: CalendarDay("2024-01-03") ?? CalendarDay(ordinal: 0), now: sandbox.now)
    #expect(report.figures.value == dec("225"))
    let all = try #require(report.returns.first { $0.period == .all })
    #expect(all.netFlow == .known(dec("55")))
    #expect(all.marketGain == .known(dec("170")))
    let day = try #require(report.returns.first { $0.period == .day })
    #expect(day.netFlow == .known(dec("-285")))
    #expect(day.marketGain == .known(dec("90")))
    #expect(day.twr == .known(dec("32.432432")))

    let other = try ReportService(store).report(
      q, day: CalendarDay("2024-01-03") ?? CalendarDay(ordinal: 0), now: sandbox.now)
    let received = try #require(other.returns.first { $0.period == .all })
    #expect(received.netFlow == .known(dec("135")))
    #expect(received.marketGain == .known(.zero))
  }

  /// A swap moves no money in or out: bitcoin 1 at 100 for 20 ethereum (value 120) is a flow
  /// of nothing; the day's market gain is the value's change, 20 × 6 − 100 = +20.
  @Test func aSwapIsNoFlow() throws {
    try quoteBitcoin()
    let db = store.database
    try db.write {
      try db.execute(
        "INSERT OR IGNORE INTO coins (id, symbol, name, updated_at) VALUES "
          + "('ethereum', 'eth', 'Ethereum', '2024-01-01T00:00:00Z')")
      try db.execute(
        "INSERT INTO market_quotes (snapshot_id, coin_id, current_price) VALUES (2, 'ethereum', '6')"
      )
    }
    let main = try PortfolioService(store).resolve(nil)
    try TradeService(store).record(
      TradeDraft(
        side: .buy, coin: "bitcoin", quantity: "1", price: "100", date: "2024-01-01T10:00:00Z"),
      in: main, coinID: "bitcoin", now: sandbox.now)
    _ = try TransactionService(store).swap(
      give: "bitcoin", giveQuantity: "1", get: "ethereum", getQuantity: "20", value: "120",
      fee: nil, feeCoin: nil, maxAge: 86_400, draft("2024-01-02T06:00:00Z"), in: main,
      now: sandbox.now)
    let report = try ReportService(store).report(
      main, day: CalendarDay("2024-01-02") ?? CalendarDay(ordinal: 0), now: sandbox.now)
    let day = try #require(report.returns.first { $0.period == .day })
    #expect(day.netFlow == .known(.zero))
    #expect(day.marketGain == .known(dec("20")))
  }

  /// A deposit with no market price within 2 days of it: the periods holding it are n/a, and
  /// say why; a period after it is not affected.
  @Test func aDepositWithoutAMarketPriceMakesItsPeriodsNA() throws {
    try quoteBitcoin()
    let main = try PortfolioService(store).resolve(nil)
    _ = try TransactionService(store).deposit(
      coin: "bitcoin", quantity: "1", cost: "10", acquired: nil, draft("2023-12-20T00:00:00Z"),
      in: main, now: sandbox.now)
    let report = try ReportService(store).report(
      main, day: CalendarDay("2024-01-03") ?? CalendarDay(ordinal: 0), now: sandbox.now)
    let all = try #require(report.returns.first { $0.period == .all })
    #expect(
      all.netFlow.reason
        == "the deposit of 1 bitcoin at 2023-12-20T00:00:00Z is a flow at market value, and no "
        + "market price of bitcoin is known near that time")
    #expect(all.twr.reason == all.netFlow.reason)
    // 01-02 end: 120; 01-03 end: 150; nothing moved in between.
    let day = try #require(report.returns.first { $0.period == .day })
    #expect(day.netFlow == .known(.zero))
    #expect(day.marketGain == .known(dec("30")))
  }
}
