import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// Returns as documented to the last printed digit: TWR chained at full precision and split
/// only at saved values; XIRR the balancing rate nearest 0 % when there are several.
@Suite struct ReturnsPrecisionTests {
  func decimal(_ text: String) -> ExactDecimal { (try? ExactDecimal(parsing: text)) ?? .zero }
  func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? CalendarDay(ordinal: 0) }

  /// 90,000 → 90,300 → 90,601: two links of 1/3 % each. Exactly, TWR = 601/90,000 =
  /// 0.6677777…%, printed 0.667778; links rounded to 6 decimals first would give 0.667777.
  @Test func twrChainsTheLinksAtFullPrecision() {
    let points = [
      ValuePoint(day: day("2024-01-02"), value: decimal("90300")),
      ValuePoint(day: day("2024-01-03"), value: decimal("90601")),
    ]
    let result = Returns.window(
      .week, start: day("2024-01-02").start, from: decimal("90000"), through: day("2024-01-03"),
      points: points, flows: [])
    #expect(result.twr.value == decimal("0.667778"))
  }

  /// A value computed only as another period's start does not split this period: the 30-day
  /// TWR is the same with or without the 7-day period's start among the points.
  @Test func aPeriodsStartValueDoesNotSplitTheOtherPeriods() {
    let saved = [
      ValuePoint(day: day("2024-03-01"), value: decimal("1000")),
      ValuePoint(day: day("2024-03-31"), value: decimal("1100")),
    ]
    var computed = ValuePoint(day: day("2024-03-24"), value: decimal("1500"))
    computed.linksChain = false
    let flows = [
      CashFlow(at: day("2024-03-10").start, amount: decimal("100")),
      CashFlow(at: day("2024-03-27").start, amount: decimal("-300")),
    ]
    let inception = day("2024-01-01").start
    let alone = Returns.period(
      .month, through: day("2024-03-31"), points: saved, flows: flows, inception: inception)
    let withOther = Returns.period(
      .month, through: day("2024-03-31"), points: saved + [computed], flows: flows,
      inception: inception)
    #expect(alone.twr.value != nil)
    #expect(withOther.twr == alone.twr)
    // The 7-day period itself starts from that value.
    let week = Returns.period(
      .week, through: day("2024-03-31"), points: saved + [computed], flows: flows,
      inception: inception)
    #expect(week.start == day("2024-03-25").start)
  }

  /// 200 paid in, 2,100 taken out a year later, 1,000 paid in a year after that, worth 0:
  /// balanced at −50 % and at +900 % a year ((1 + r) = 1/2 and 10). The one nearest 0 % is shown.
  @Test func xirrGivesTheRateNearestZeroWhenSeveralBalance() {
    let start = day("2022-01-01").start
    let flows = [
      CashFlow(at: start.adding(seconds: 365 * 86_400), amount: decimal("-2100")),
      CashFlow(at: start.adding(seconds: 730 * 86_400), amount: decimal("1000")),
    ]
    let rate = Returns.xirr(
      start: start, from: decimal("200"), end: start.adding(seconds: 730 * 86_400), to: .zero,
      flows: flows)
    #expect(rate.value == decimal("-50"))
  }

  /// A single sign change has one rate, found as before.
  @Test func xirrOfOneInvestmentIsItsAnnualGrowth() {
    let start = day("2022-01-01").start
    let rate = Returns.xirr(
      start: start, from: decimal("1000"), end: start.adding(seconds: 365 * 86_400),
      to: decimal("1100"), flows: [])
    #expect(rate.value == decimal("10"))
  }

  /// YTD runs from the end of 31 December, the value saved for that day.
  @Test func yearToDateStartsAtTheEndOfTheLastDayOfTheYearBefore() {
    let points = [
      ValuePoint(day: day("2023-12-31"), value: decimal("1000")),
      ValuePoint(day: day("2024-03-31"), value: decimal("1100")),
    ]
    let ytd = Returns.period(
      .yearToDate, through: day("2024-03-31"), points: points, flows: [],
      inception: day("2023-01-01").start)
    #expect(ytd.start == day("2024-01-01").start)
    #expect(ytd.twr.value == decimal("10"))
  }
}
