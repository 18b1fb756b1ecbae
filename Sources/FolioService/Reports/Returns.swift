import FolioStorage
import Foundation

/// Money the owner put into (+) or took out of (−) a portfolio at one moment.
public struct CashFlow: Equatable, Sendable {
  public let at: Timestamp
  /// Zero when `unknown`.
  public let amount: ExactDecimal
  /// Why the amount is unknown (units that came or went at market value, with no market price
  /// near their time); nil when it is known. A period holding such a flow has no returns.
  public let unknown: String?
  /// For the money of one day's cash trades summed in one direction (`at` the start of the
  /// day): the sum of each amount times its seconds since midnight, which places them within
  /// the day (a `position_days` weight, signed as `amount`); nil for one flow at `at`.
  public let dayWeight: ExactDecimal?

  public init(
    at: Timestamp, amount: ExactDecimal, unknown: String? = nil, dayWeight: ExactDecimal? = nil
  ) {
    (self.at, self.amount, self.unknown, self.dayWeight) = (at, amount, unknown, dayWeight)
  }

  /// The money a buy or sell for cash paid in (+: quantity × price + fee) or took out
  /// (−: quantity × price − fee); nil for the other kinds.
  static func cashAmount(of trade: Trade) throws -> ExactDecimal? {
    switch (trade.kind, trade.side) {
    case (.trade, .buy): return try trade.quantity * trade.price + trade.fee
    case (.trade, .sell): return try trade.fee - trade.quantity * trade.price
    default: return nil
    }
  }

  /// How far into the period from `start` the flow lies, in seconds, for XIRR: a day's sum sits
  /// at its amount-weighted time of day.
  func seconds(after start: Timestamp) -> Double {
    var offset = Double(at.seconds - start.seconds)
    if let dayWeight, !amount.isZero, let seconds = try? dayWeight / amount {
      offset += Double(seconds.description) ?? 0
    }
    return offset
  }

  /// The money a row moved in or out of its portfolio, as docs/reports.md defines net flow:
  ///
  /// - a buy for cash brings in the cash paid (quantity × price + fee), a sell takes out the
  ///   cash received (quantity × price − fee);
  /// - a deposit brings in, a withdrawal takes out, its units at market value;
  /// - a transfer's arriving piece brings in its units at market value, and its leaving row
  ///   takes out what arrives, (quantity − fee) × market price: the fee's units are a cost of
  ///   the sending portfolio, as a sell's fee is, so both portfolios' flows cancel;
  /// - income is a return, not a flow, and a swap keeps both legs inside the portfolio: nil.
  ///
  /// `marketPrice` gives the market price of a row's coin near its time (nil: none known).
  /// Every kind of transaction is decided here, so one rule holds for the report,
  /// `report history` and the returns.
  public static func of(_ trade: Trade, marketPrice: (Trade) throws -> ExactDecimal?) throws
    -> CashFlow?
  {
    let at = Timestamp(seconds: Timestamp.seconds(of: trade.executedAt))
    let units: ExactDecimal
    let what: String
    switch (trade.kind, trade.side) {
    case (.trade, _): return try cashAmount(of: trade).map { CashFlow(at: at, amount: $0) }
    case (.income, _), (.swap, _): return nil
    case (.deposit, _): (units, what) = (trade.quantity, "deposit")
    case (.withdrawal, _): (units, what) = (try .zero - trade.quantity, "withdrawal")
    case (.transfer, .buy): (units, what) = (trade.quantity, "transfer in")
    case (.transfer, .sell): (units, what) = (try trade.fee - trade.quantity, "transfer out")
    }
    guard let price = try marketPrice(trade) else {
      return CashFlow(
        at: at, amount: .zero,
        unknown: "the \(what) of \(trade.quantity) \(trade.coinID) at \(trade.executedAt) is a "
          + "flow at market value, and no market price of \(trade.coinID) is known near that time")
    }
    return CashFlow(at: at, amount: try units * price)
  }
}

extension Timestamp {
  /// The seconds of a stored `YYYY-MM-DDTHH:MM:SSZ` time (0 for text of another shape, which
  /// the schema never stores).
  static func seconds(of stored: String) -> Int64 {
    (try? Timestamp(parsing: stored, .stored))?.seconds ?? 0
  }
}

/// The value of a portfolio at the end of a day (the start of the next), when known.
public struct ValuePoint: Equatable, Sendable {
  public let day: String
  public let at: Timestamp
  public let value: ExactDecimal?
  /// Why the value is unknown; nil when it is known.
  public let unknown: String?
  /// Whether TWR chain-links at this value: true for saved days; false for a value computed
  /// only as the start of a period, which must not split the other periods (a period's TWR
  /// would then depend on which other periods a report shows).
  public var linksChain = true

  public init(day: CalendarDay, value: ExactDecimal?, unknown: String? = nil) {
    self.day = day.description
    self.at = day.next.start
    self.value = value
    self.unknown = value == nil ? (unknown ?? "the value of \(day) is unknown") : nil
  }
}

/// The periods whose returns a report shows, each ending with the report's day.
public enum ReturnPeriod: String, CaseIterable, Sendable {
  case day = "1d"
  case week = "7d"
  case month = "30d"
  case yearToDate = "ytd"
  case year = "1y"
  case all = "all"

  /// The label reports print.
  public var label: String { self == .yearToDate ? "YTD" : rawValue }

  /// The last day before the period: the period runs from the end of that day.
  func dayBefore(_ day: CalendarDay) -> CalendarDay? {
    switch self {
    case .day: return day.adding(days: -1)
    case .week: return day.adding(days: -7)
    case .month: return day.adding(days: -30)
    case .yearToDate: return day.firstOfYear.adding(days: -1)
    case .year: return day.adding(days: -365)
    case .all: return nil
    }
  }
}

/// The returns of one period: net flow, market gain, time-weighted return (TWR, chain-linked
/// days, Modified Dietz within each) and money-weighted return (XIRR, annualised).
public struct PeriodReturn: Equatable, Sendable {
  public let period: ReturnPeriod
  /// The period runs from `start` (the end of the day before it, or, for a portfolio younger
  /// than the period, the start of its first trade's day) to the end of `through`.
  public let start: Timestamp?
  public let through: String
  /// `end of 2024-11-29` or `start of 2024-03-01` (the first trade's day).
  public var from: String {
    guard let start else { return "" }
    return start.seconds % 86_400 == 0 && fromInception
      ? "start of \(start.day)" : "end of \(start.adding(seconds: -1).day)"
  }
  /// True when the period starts with the first trade's day.
  public var fromInception = false
  public let netFlow: Measure
  public let marketGain: Measure
  /// In percent.
  public let twr: Measure
  /// Annualised, in percent.
  public let xirr: Measure
}

/// The net flow and market gain between two values, and the Modified Dietz return.
public struct SubPeriod: Equatable, Sendable {
  public let netFlow: ExactDecimal
  public let marketGain: ExactDecimal
  /// In percent, rounded to `Returns.places`; nil when nothing was invested over the period
  /// and the value changed anyway.
  public let percent: ExactDecimal?
  /// `percent` at full precision, which TWR chain-links (rounding each link first would move
  /// the printed figure).
  let exactPercent: ExactDecimal?
}

/// The arithmetic of returns, on values and cash flows alone (docs/reports.md).
public enum Returns {
  /// How many fractional digits the percentages keep.
  static let places = 6

  /// Net flow, market gain and the Modified Dietz return from `start` (value `from`) to `end`
  /// (value `to`), with `flows` those of [start, end): each flow weighs by the share of the
  /// period still to run after it.
  public static func subPeriod(
    start: Timestamp, from: ExactDecimal, end: Timestamp, to: ExactDecimal,
    flows: some Collection<CashFlow>
  ) throws(DecimalError) -> SubPeriod {
    var net = ExactDecimal.zero
    var weighted = ExactDecimal.zero
    let length = ExactDecimal(Int(max(1, end.seconds - start.seconds)))
    for flow in flows where flow.at >= start && flow.at < end {
      net = try net + flow.amount
      let remaining = ExactDecimal(Int(end.seconds - flow.at.seconds))
      if let dayWeight = flow.dayWeight {
        // A day's sum: Σ aᵢ × (end − tᵢ) exactly, each amount weighing by the time left after
        // it (the day's start + its seconds since midnight), then one rounding, as for one flow.
        let left = try flow.amount * remaining - dayWeight
        weighted = try weighted + ExactDecimal.scaled(left, by: .one, dividedBy: length)
      } else {
        weighted =
          try weighted + ExactDecimal.scaled(flow.amount, by: remaining, dividedBy: length)
      }
    }
    let gain = try to - from - net
    let invested = try from + weighted
    var percent: ExactDecimal?
    if invested.isPositive {
      percent = try ExactDecimal.scaled(gain, by: .hundred, dividedBy: invested)
    } else if gain.isZero {
      percent = .zero
    }
    return SubPeriod(
      netFlow: net, marketGain: gain, percent: percent?.rounded(places: places),
      exactPercent: percent)
  }

  /// The returns of `period` ending with the end of `day`. `points` are the known day-end
  /// values (any order, the end day's among them); `flows` every cash flow of the portfolio;
  /// `inception` the start of the first trade's day (nil: no trades), before which the
  /// portfolio was worth 0.
  public static func period(
    _ period: ReturnPeriod, through day: CalendarDay, points: [ValuePoint], flows: [CashFlow],
    inception: Timestamp?
  ) -> PeriodReturn {
    func unavailable(_ from: Timestamp?, _ reason: String) -> PeriodReturn {
      PeriodReturn(
        period: period, start: from, through: day.description, netFlow: .unavailable(reason),
        marketGain: .unavailable(reason), twr: .unavailable(reason), xirr: .unavailable(reason))
    }
    guard let inception else {
      return unavailable(nil, "the portfolio has no trades by the end of \(day)")
    }
    let end = day.next.start
    var start = period.dayBefore(day)?.next.start ?? inception
    let before = period.dayBefore(day)?.description ?? ""
    var startValue: ExactDecimal
    let byTime = Dictionary(points.map { ($0.at, $0) }, uniquingKeysWith: { _, new in new })
    if start <= inception {
      start = min(inception, end)
      startValue = .zero
    } else {
      guard let point = byTime[start] else {
        return unavailable(
          start, "no value is saved for \(before); run 'folio report backfill --since \(before)'")
      }
      guard let value = point.value else {
        return unavailable(start, point.unknown ?? "the value of \(before) is unknown")
      }
      startValue = value
    }
    var result = window(
      period, start: start, from: startValue, through: day, points: points, flows: flows)
    result.fromInception = start == inception
    return result
  }

  /// The returns from `start` (value `startValue`) to the end of `day`; `points` hold the
  /// known day-end values in between and the end day's.
  public static func window(
    _ period: ReturnPeriod, start: Timestamp, from startValue: ExactDecimal,
    through day: CalendarDay, points: [ValuePoint], flows: [CashFlow]
  ) -> PeriodReturn {
    func unavailable(_ from: Timestamp?, _ reason: String) -> PeriodReturn {
      PeriodReturn(
        period: period, start: from, through: day.description, netFlow: .unavailable(reason),
        marketGain: .unavailable(reason), twr: .unavailable(reason), xirr: .unavailable(reason))
    }
    let end = day.next.start
    guard let last = points.last(where: { $0.at == end }) else {
      return unavailable(start, "the value of \(day) is unknown")
    }
    guard let endValue = last.value else {
      return unavailable(start, last.unknown ?? "the value of \(day) is unknown")
    }
    var inside = flows.filter { $0.at >= start && $0.at < end }
    // In time order, for `flows(_:from:before:)` (a report's flows already are).
    if zip(inside, inside.dropFirst()).contains(where: { $0.at > $1.at }) {
      inside.sort { $0.at < $1.at }
    }
    if let unknown = inside.first(where: { $0.unknown != nil })?.unknown {
      return unavailable(start, unknown)
    }
    let whole: SubPeriod
    do {
      whole = try subPeriod(start: start, from: startValue, end: end, to: endValue, flows: inside)
    } catch {
      return unavailable(start, Measure.tooLarge)
    }
    // Chain-link the known values in between.
    let known =
      points.filter { $0.at > start && $0.at < end && $0.value != nil && $0.linksChain }
      .sorted { $0.at < $1.at }
      + [last]
    var twr: Measure
    do {
      var growth = ExactDecimal.one
      var (from, fromValue) = (start, startValue)
      var failure: String?
      for point in known {
        guard let value = point.value else { continue }
        let part = try subPeriod(
          start: from, from: fromValue, end: point.at, to: value,
          flows: Self.flows(inside, from: from, before: point.at))
        guard let percent = part.exactPercent else {
          failure =
            "nothing was invested from \(from.day) through \(point.day) while the value changed"
          break
        }
        growth =
          try growth
          * (ExactDecimal.one + ExactDecimal.scaled(percent, by: .one, dividedBy: .hundred))
        (from, fromValue) = (point.at, value)
      }
      if let failure {
        twr = .unavailable(failure)
      } else {
        twr = .known(
          try ExactDecimal.scaled(growth - .one, by: .hundred, dividedBy: .one).rounded(
            places: places))
      }
    } catch {
      twr = .unavailable(Measure.tooLarge)
    }
    return PeriodReturn(
      period: period, start: start, through: day.description, netFlow: .known(whole.netFlow),
      marketGain: .known(whole.marketGain), twr: twr,
      xirr: xirr(start: start, from: startValue, end: end, to: endValue, flows: inside))
  }

  /// The flows of `flows` (in time order) from `start` to before `end`, found by binary search:
  /// a history of daily values chain-links thousands of stretches over a million flows.
  static func flows(_ flows: [CashFlow], from start: Timestamp, before end: Timestamp)
    -> ArraySlice<CashFlow>
  {
    func firstIndex(notBefore time: Timestamp) -> Int {
      var (low, high) = (flows.startIndex, flows.endIndex)
      while low < high {
        let middle = low + (high - low) / 2
        if flows[middle].at < time { low = middle + 1 } else { high = middle }
      }
      return low
    }
    let lower = firstIndex(notBefore: start)
    return flows[lower..<max(lower, firstIndex(notBefore: end))]
  }

  /// The annual rate r at which the owner's cash flows balance: the value at the start paid
  /// in, each flow paid in (or, negative, taken out), the value at the end taken out, each
  /// discounted by (1 + r) to the power of its years after the start (365 days a year). Solved
  /// by bisection on ln(1 + r) in binary floating point: a rate is neither money nor a
  /// quantity, and it is printed rounded. Flows that change sign more than once can balance at
  /// several rates: the one nearest 0 % is given, found by bracketing from 0 outwards.
  public static func xirr(
    start: Timestamp, from: ExactDecimal, end: Timestamp, to: ExactDecimal, flows: [CashFlow]
  ) -> Measure {
    func double(_ value: ExactDecimal) -> Double { Double(value.description) ?? 0 }
    let year = 365.0 * 86_400
    var terms: [(years: Double, amount: Double)] = [(0, -double(from))]
    for flow in flows {
      terms.append((flow.seconds(after: start) / year, -double(flow.amount)))
    }
    terms.append((Double(end.seconds - start.seconds) / year, double(to)))
    terms = terms.filter { $0.amount != 0 }
    let span = terms.map(\.years).max() ?? 0
    guard terms.contains(where: { $0.amount > 0 }), terms.contains(where: { $0.amount < 0 }),
      span > 0
    else {
      return .unavailable(
        "the money paid in and taken out do not both occur, so no rate balances them")
    }
    // The sign of the present value at ln(1 + r) = x, scaled so that no term overflows.
    func sign(_ x: Double) -> Double {
      var total = 0.0
      for term in terms {
        let exponent = x < 0 ? x * (span - term.years) : -x * term.years
        total += term.amount * exp(exponent)
      }
      return total
    }
    guard let bracket = nearestBracket(sign) else {
      return .unavailable("no rate makes the money paid in and taken out balance")
    }
    var (low, high) = bracket
    let lowSign = sign(low)
    if lowSign == 0 { high = low }
    for _ in 0..<200 {
      let middle = (low + high) / 2
      // The bounds are adjacent doubles: no later step could move them (each would cost a
      // pass over every flow, a million on a long history).
      if middle == low || middle == high { break }
      let value = sign(middle)
      if value == 0 {
        (low, high) = (middle, middle)
        break
      }
      if (value < 0) == (lowSign < 0) { low = middle } else { high = middle }
    }
    let rate = (exp((low + high) / 2) - 1) * 100
    return known(rate)
  }

  /// The interval of ln(1 + r) nearest r = 0 at whose ends `value` has opposite signs (or is 0
  /// at the lower end): the steps from 0 grow by half each time, up to ±1000, and of a bracket
  /// found on each side the one whose rate is nearer 0 wins.
  static func nearestBracket(_ value: (Double) -> Double) -> (Double, Double)? {
    let atZero = value(0)
    if atZero == 0 { return (0, 0) }
    func firstBracket(direction: Double) -> (low: Double, high: Double, rate: Double)? {
      var (previous, previousValue) = (0.0, atZero)
      var step = 0.001
      while step <= 1500 {
        let x = direction * min(step, 1000)
        let current = value(x)
        if current == 0 || (current < 0) != (previousValue < 0) {
          let (low, high) = direction > 0 ? (previous, x) : (x, previous)
          return (low, high, abs(exp(direction > 0 ? low : high) - 1))
        }
        if step >= 1000 { break }
        (previous, previousValue) = (x, current)
        step *= 1.5
      }
      return nil
    }
    let candidates = [firstBracket(direction: 1), firstBracket(direction: -1)].compactMap { $0 }
    return candidates.min { $0.rate < $1.rate }.map { ($0.low, $0.high) }
  }

  /// A rate in percent as a measure: n/a when it is not finite or too large to show.
  private static func known(_ rate: Double) -> Measure {
    guard rate.isFinite, abs(rate) < 1e15,
      let exact = try? ExactDecimal(parsing: String(format: "%.6f", rate))
    else {
      return .unavailable("the annualised rate is too large to show")
    }
    return .known(exact.isZero ? .zero : exact)
  }
}
