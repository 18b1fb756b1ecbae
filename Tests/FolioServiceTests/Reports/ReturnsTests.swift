import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// Net flow, market gain, TWR and XIRR worked out by hand (docs/reports.md, "Returns").
@Suite struct ReturnsTests {
  func decimal(_ text: String) -> ExactDecimal { (try? ExactDecimal(parsing: text)) ?? .zero }
  func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? CalendarDay(ordinal: 0) }
  func at(_ text: String) -> Timestamp {
    (try? Timestamp(parsing: text, .stored)) ?? Timestamp(seconds: 0)
  }
  func flow(_ time: String, _ amount: String) -> CashFlow {
    CashFlow(at: at(time), amount: decimal(amount))
  }

  @Test func aBuyIsMoneyInAndASellMoneyOutFeesIncluded() throws {
    let buy = Trade(
      portfolioID: 1, executedAt: "2024-11-30T09:30:00Z", side: .buy, coinID: "solana",
      quantity: decimal("10"), price: decimal("235"), fee: decimal("1"), createdAt: "")
    var sell = buy
    (sell.side, sell.quantity, sell.price, sell.fee) = (
      .sell, decimal("0.1"), decimal("96000"), decimal("2")
    )
    #expect(try CashFlow.of(buy) { _ in nil }?.amount == decimal("2351"))
    #expect(try CashFlow.of(sell) { _ in nil }?.amount == decimal("-9598"))
  }

  /// A day that was only a buy: the value grew by the money put in, and nothing else.
  @Test func aDayThatWasOnlyABuyHasNoMarketGain() throws {
    let part = try Returns.subPeriod(
      start: day("2024-11-30").start, from: decimal("1000"), end: day("2024-11-30").next.start,
      to: decimal("1608.5"), flows: [flow("2024-11-30T08:00:00Z", "608.5")])
    #expect(part.netFlow == decimal("608.5"))
    #expect(part.marketGain == .zero)
    #expect(part.percent == .zero)
  }

  /// The CLI report scenario's 2024-11-30: 58,000 at the start; a buy of 2,351 at 09:30 and a
  /// sell of 9,598 at 10:15; 52,000.20 at the end. Net flow −7,247; market gain
  /// 52,000.2 − 58,000 + 7,247 = 1,247.2; invested 58,000 + 2,351 × 14.5/24
  /// − 9,598 × 13.75/24 = 53,921.541666…; 1,247.2 / 53,921.541666… = 2.312990%.
  @Test func modifiedDietzWeighsEachFlowByTheTimeLeft() throws {
    let part = try Returns.subPeriod(
      start: day("2024-11-30").start, from: decimal("58000"), end: day("2024-11-30").next.start,
      to: decimal("52000.2"),
      flows: [flow("2024-11-30T09:30:00Z", "2351"), flow("2024-11-30T10:15:00Z", "-9598")])
    #expect(part.netFlow == decimal("-7247"))
    #expect(part.marketGain == decimal("1247.2"))
    #expect(part.percent == decimal("2.31299"))
  }

  /// A report reads a day's cash trades summed (`position_days`): the sum at the start of the
  /// day with its weight (Σ amount × seconds since midnight) gives the very Modified Dietz
  /// figures of the flows one by one, and the XIRR of one flow each way.
  @Test func aDaysSummedFlowsGiveTheFiguresOfTheFlowsOneByOne() throws {
    let (start, end) = (day("2024-11-30").start, day("2024-11-30").next.start)
    // 2,351 in at 09:30 (34,200 s since midnight), 9,598 out at 10:15 (36,900 s).
    let summed = [
      CashFlow(at: start, amount: decimal("2351"), dayWeight: decimal("80404200")),
      CashFlow(at: start, amount: decimal("-9598"), dayWeight: decimal("-354166200")),
    ]
    let single = [flow("2024-11-30T09:30:00Z", "2351"), flow("2024-11-30T10:15:00Z", "-9598")]
    let one = try Returns.subPeriod(
      start: start, from: decimal("58000"), end: end, to: decimal("52000.2"), flows: single)
    let sum = try Returns.subPeriod(
      start: start, from: decimal("58000"), end: end, to: decimal("52000.2"), flows: summed)
    #expect(sum == one)
    #expect(sum.percent == decimal("2.31299"))
    let xirrStart = day("2024-11-01").start
    #expect(
      Returns.xirr(
        start: xirrStart, from: decimal("50000"), end: end, to: decimal("52000.2"), flows: summed)
        == Returns.xirr(
          start: xirrStart, from: decimal("50000"), end: end, to: decimal("52000.2"), flows: single)
    )
    // Two buys in one day sit at their amount-weighted time: 100 at 06:00 and 300 at 18:00
    // weigh as 400 at 15:00 (100 × 21,600 + 300 × 64,800 = 400 × 54,000).
    let pair = try Returns.subPeriod(
      start: start, from: decimal("1000"), end: end, to: decimal("1500"),
      flows: [flow("2024-11-30T06:00:00Z", "100"), flow("2024-11-30T18:00:00Z", "300")])
    let joined = try Returns.subPeriod(
      start: start, from: decimal("1000"), end: end, to: decimal("1500"),
      flows: [CashFlow(at: start, amount: decimal("400"), dayWeight: decimal("21600000"))])
    #expect(joined == pair)
    #expect(joined.percent == decimal("8.695652"), "100 / (1000 + 100 × 0.75 + 300 × 0.25)")
    // Dust: one unit (10⁻¹⁸) bought at noon weighs half a unit, which rounds to nothing, as for
    // the flow alone: nothing was invested, so there is no percentage.
    let dust = try Returns.subPeriod(
      start: start, from: .zero, end: end, to: .zero,
      flows: [
        CashFlow(
          at: start, amount: ExactDecimal(units: 1), dayWeight: decimal("0.0000000000000432"))
      ])
    #expect(dust.percent == nil)
    #expect(
      dust
        == (try Returns.subPeriod(
          start: start, from: .zero, end: end, to: .zero,
          flows: [CashFlow(at: at("2024-11-30T12:00:00Z"), amount: ExactDecimal(units: 1))])))
  }

  /// Day 1: 100 → 110 (+10%). Day 2 opens with 110 more put in: 220 → 242 (+10%).
  /// Chain-linked: 1.1 × 1.1 − 1 = 21%, although the money grew from 100 to 242.
  @Test func theTimeWeightedReturnChainLinksTheDays() {
    let points = [
      ValuePoint(day: day("2024-03-01"), value: decimal("100")),
      ValuePoint(day: day("2024-03-02"), value: decimal("110")),
      ValuePoint(day: day("2024-03-03"), value: decimal("242")),
    ]
    let flows = [flow("2024-03-01T00:00:00Z", "100"), flow("2024-03-03T00:00:00Z", "110")]
    let all = Returns.period(
      .all, through: day("2024-03-03"), points: points, flows: flows,
      inception: day("2024-03-01").start)
    #expect(all.netFlow == .known(decimal("210")))
    #expect(all.marketGain == .known(decimal("32")))
    #expect(all.twr == .known(decimal("21")))
    #expect(all.from == "start of 2024-03-01")
    let lastDay = Returns.period(
      .day, through: day("2024-03-03"), points: points, flows: flows,
      inception: day("2024-03-01").start)
    #expect(lastDay.from == "end of 2024-03-02")
    #expect(lastDay.netFlow == .known(decimal("110")))
    #expect(lastDay.marketGain == .known(decimal("22")))
    #expect(lastDay.twr == .known(decimal("10")))
  }

  /// 100 put in, 110 a year (365 days) later: 10% a year. 100 put in and 121 two years later:
  /// also 10% a year (1.1² = 1.21).
  @Test func xirrIsAnnualised() {
    let start = day("2023-01-01").start
    #expect(
      Returns.xirr(
        start: start, from: decimal("100"), end: start.adding(seconds: 365 * 86_400),
        to: decimal("110"), flows: []) == .known(decimal("10")))
    #expect(
      Returns.xirr(
        start: start, from: decimal("100"), end: start.adding(seconds: 730 * 86_400),
        to: decimal("121"), flows: []) == .known(decimal("10")))
    // Half a year in, 100 more is put in; a year in, 210 comes out: the rate r solves
    // 100 × 1.r + 100 × 1.r^0.5 = 210 (r = 6.6% or so; checked against hledger's roi in
    // HledgerCrossCheckTests). Here: nothing in and nothing out has no rate.
    #expect(
      Returns.xirr(
        start: start, from: .zero, end: start.adding(seconds: 86_400), to: .zero, flows: []
      )
      .reason != nil)
  }

  @Test func aPeriodWithoutAStartValueReadsNAWithTheReason() {
    let points = [ValuePoint(day: day("2024-03-10"), value: decimal("500"))]
    let week = Returns.period(
      .week, through: day("2024-03-10"), points: points, flows: [],
      inception: day("2024-01-01").start)
    #expect(week.twr.reason?.contains("no value is saved for 2024-03-03") == true)
    #expect(week.marketGain.value == nil)
    let unknownEnd = Returns.period(
      .all, through: day("2024-03-11"), points: [ValuePoint(day: day("2024-03-11"), value: nil)],
      flows: [], inception: day("2024-01-01").start)
    #expect(unknownEnd.twr.reason == "the value of 2024-03-11 is unknown")
    let noTrades = Returns.period(
      .all, through: day("2024-03-11"), points: points, flows: [], inception: nil)
    #expect(noTrades.xirr.reason == "the portfolio has no trades by the end of 2024-03-11")
  }
}
