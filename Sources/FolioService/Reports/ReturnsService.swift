import FolioStorage
import Foundation

/// A coin and the quantity held of it at some moment.
struct HeldQuantity {
  let coinID: String
  let quantity: ExactDecimal
}

/// What the returns of a report or of the saved history are worked out from: the portfolio's
/// cash flows, its first trade, and its known day-end values.
struct ReturnInputs {
  var flows: [CashFlow] = []
  var inception: Timestamp?
  var points: [ValuePoint] = []
}

/// The net flow and market gain of one saved day since the saved value before it, with the
/// Modified Dietz return of that stretch (`report history`'s CHANGE).
public struct DayReturn: Equatable, Sendable {
  public let day: String
  /// Money put in (+) or taken out (−) since the previous known value; nil when there is no
  /// earlier value to measure from.
  public let netFlow: ExactDecimal?
  /// Value − previous value − net flow.
  public let marketGain: ExactDecimal?
  /// The market gain in percent of what was invested over the stretch (Modified Dietz).
  public let percent: ExactDecimal?
}

/// One direction of a day's cash flows, summed over coins: the amount and its day weight, or
/// too large to sum exactly.
private struct DayCash {
  var amount = ExactDecimal.zero
  var weight = ExactDecimal.zero
  var tooLarge = false

  mutating func add(_ more: ExactDecimal, weight moreWeight: ExactDecimal) {
    guard !tooLarge else { return }
    do {
      (amount, weight) = (try amount + more, try weight + moreWeight)
    } catch {
      tooLarge = true
    }
  }
}

extension ReportService {
  /// The flows, first trade and saved values of `portfolio` up to the end of `day`; must run
  /// inside a transaction. The cash trades' flows come summed by day from `position_days` (a
  /// report reads a few rows a day, not every trade); the flows at market value (deposits,
  /// withdrawals, transfers) are read one by one and priced near their time.
  func returnInputs(_ portfolio: Portfolio, through day: CalendarDay) throws -> ReturnInputs {
    var inputs = ReturnInputs()
    var pending: (day: String, cashIn: DayCash, cashOut: DayCash)?
    func flushDay() throws {
      guard let (text, cashIn, cashOut) = pending, let start = CalendarDay(text)?.start else {
        return
      }
      if cashIn.tooLarge || cashOut.tooLarge {
        inputs.flows.append(
          CashFlow(
            at: start, amount: .zero,
            unknown: "the money the trades of \(text) paid in or took out is too large to sum "
              + "exactly"))
        return
      }
      if !cashIn.amount.isZero {
        inputs.flows.append(CashFlow(at: start, amount: cashIn.amount, dayWeight: cashIn.weight))
      }
      if !cashOut.amount.isZero {
        inputs.flows.append(
          CashFlow(
            at: start, amount: try .zero - cashOut.amount,
            dayWeight: try .zero - cashOut.weight))
      }
    }
    for row in try DerivedTables(database).days(portfolioID: portfolio.id, through: day.description)
    {
      if inputs.inception == nil { inputs.inception = CalendarDay(row.day)?.start }
      if pending?.day != row.day {
        try flushDay()
        pending = (row.day, .init(), .init())
      }
      pending?.cashIn.add(row.cashIn, weight: row.cashInWeight)
      pending?.cashOut.add(row.cashOut, weight: row.cashOutWeight)
      if row.cashTooLarge { pending?.cashIn.tooLarge = true }
    }
    try flushDay()
    var filter = Trade.Filter(before: day.next.start)
    filter.atMarketValue = true
    try Trade.each(portfolioID: portfolio.id, filter: filter, selection: .booking, database) {
      trade in
      if let flow = try CashFlow.of(trade, marketPrice: { try flowPrice($0, portfolio) }) {
        inputs.flows.append(flow)
      }
    }
    inputs.flows.sort { $0.at < $1.at }
    inputs.points = try DailyRecord.list(
      portfolioID: portfolio.id, from: nil, through: day.description, database
    ).compactMap { row in
      CalendarDay(row.day).map {
        ValuePoint(
          day: $0, value: row.value,
          unknown: "no held coin had a market price on \(row.day) (its saved value is n/a)")
      }
    }
    return inputs
  }

  /// How far from a row's time a market price may be to value the units a deposit, a
  /// withdrawal or a transfer moved (a flow at market value).
  static let flowPriceMaxAge: Int64 = 2 * 86_400

  /// The market price of `row`'s coin in the portfolio's currency nearest the row's time,
  /// within `flowPriceMaxAge` either side: a snapshot quote or a daily close (priced at its
  /// day's end), the nearer; of two as near, the earlier. nil when there is none.
  func flowPrice(_ row: Trade, _ portfolio: Portfolio) throws -> ExactDecimal? {
    let quote = try MarketRecords.nearestPrice(
      database, coinID: row.coinID, vsCurrency: portfolio.currency, time: row.executedAt,
      maxSeconds: Self.flowPriceMaxAge)
    let close = try DailyPriceRecords.nearestPrice(
      database, coinID: row.coinID, vsCurrency: portfolio.currency, time: row.executedAt,
      maxSeconds: Self.flowPriceMaxAge)
    switch (quote, close) {
    case (let quote?, let close?):
      return (close.distance, close.at) < (quote.distance, quote.at) ? close.price : quote.price
    case (let quote?, nil): return quote.price
    case (nil, let close?): return close.price
    case (nil, nil): return nil
    }
  }

  /// The returns of every period ending with `day`, whose value is `value` (the report's own
  /// figure). A period start without a saved value is valued from the trades and the market
  /// snapshots taken within `backfillMaxAge` before its end, as backfill would. `inputs` are
  /// each portfolio's `returnInputs` through `day`.
  func periodReturns(
    _ portfolios: [Portfolio], inputs: [ReturnInputs], through day: CalendarDay,
    value: ExactDecimal?, reason: String?
  ) throws -> [PeriodReturn] {
    var parts: [ReturnInputs] = []
    for (portfolio, part) in zip(portfolios, inputs) {
      var part = part
      part.points.removeAll { $0.day == day.description }
      try addMissingStarts(
        &part, portfolio: portfolio,
        days: ReturnPeriod.allCases.compactMap { $0.dayBefore(day) })
      parts.append(part)
    }
    var inputs = Self.combine(parts)
    inputs.points.append(
      ValuePoint(
        day: day, value: value,
        unknown: reason ?? "no held coin has a market price at the end of \(day)"))
    return ReturnPeriod.allCases.map {
      Returns.period(
        $0, through: day, points: inputs.points, flows: inputs.flows, inception: inputs.inception)
    }
  }

  /// The returns over the report's chart: from the first day of the window with a known value
  /// to the report's day; nil when the window has fewer than two known values.
  func windowReturn(
    inputs parts: [ReturnInputs], history: [HistoryPoint], through day: CalendarDay,
    value: ExactDecimal?
  ) -> PeriodReturn? {
    guard let first = history.first(where: { $0.value != nil }), first.day != day.description,
      let firstDay = CalendarDay(first.day), let firstValue = first.value, value != nil
    else { return nil }
    var inputs = Self.combine(parts)
    inputs.points.removeAll { $0.day == day.description }
    inputs.points.append(ValuePoint(day: day, value: value))
    return Returns.window(
      .month, start: firstDay.next.start, from: firstValue, through: day,
      points: inputs.points, flows: inputs.flows)
  }

  /// The inputs of several portfolios as those of their sum: every flow (a transfer between
  /// them is a flow out of one and the same flow into the other, so it nets out), the first
  /// trade of any, and the day-end values summed (`combinePoints`). One part is itself.
  static func combine(_ parts: [ReturnInputs]) -> ReturnInputs {
    if parts.count == 1, let only = parts.first { return only }
    var result = ReturnInputs()
    result.flows = parts.flatMap(\.flows).sorted { $0.at < $1.at }
    result.inception = parts.compactMap(\.inception).min()
    result.points = combinePoints(parts.map { (inception: $0.inception, points: $0.points) })
    return result
  }

  /// The day-end values of several portfolios summed, day by day: a day is known when every
  /// portfolio that had a trade by its end has a known value for it (one without trades yet
  /// counts 0); unknown, with the first reason, when one of them has an unknown value; left
  /// out when one of them has no value saved for it. One part is itself.
  static func combinePoints(_ parts: [(inception: Timestamp?, points: [ValuePoint])])
    -> [ValuePoint]
  {
    if parts.count == 1, let only = parts.first { return only.points }
    let byDay = parts.map { part in
      Dictionary(part.points.map { ($0.day, $0) }, uniquingKeysWith: { _, new in new })
    }
    var result: [ValuePoint] = []
    days: for text in Set(parts.flatMap { $0.points.map(\.day) }).sorted() {
      guard let day = CalendarDay(text) else { continue }
      var total: ExactDecimal? = .zero
      var unknown: String?
      var linksChain = true
      for (index, part) in parts.enumerated() {
        if let point = byDay[index][text] {
          linksChain = linksChain && point.linksChain
          if let value = point.value {
            total = total.flatMap { try? $0 + value }
            if total == nil { unknown = unknown ?? Measure.tooLarge }
          } else {
            unknown = unknown ?? point.unknown
          }
        } else if let inception = part.inception, inception < day.next.start {
          continue days
        }
      }
      var point = ValuePoint(day: day, value: unknown == nil ? total : nil, unknown: unknown)
      point.linksChain = linksChain
      result.append(point)
    }
    return result
  }

  /// Values the `days` that have no saved row (after the first trade), from the trades and the
  /// prices `report backfill` would use (`endOfDayPrices`, within `backfillMaxAge` before the
  /// day's end); a day with a held coin unpriced stays unknown.
  func addMissingStarts(_ inputs: inout ReturnInputs, portfolio: Portfolio, days: [CalendarDay])
    throws
  {
    guard let inception = inputs.inception else { return }
    let saved = Set(inputs.points.map(\.day))
    let missing = Set(days.filter { $0.next.start > inception && !saved.contains($0.description) })
      .sorted()
    guard !missing.isEmpty else { return }
    let heldByDay = try heldQuantities(portfolio, inception: inception, at: missing)
    for (day, held) in zip(missing, heldByDay) {
      guard !held.isEmpty else {
        var point = ValuePoint(day: day, value: .zero)
        point.linksChain = false
        inputs.points.append(point)
        continue
      }
      // Priced as backfill prices a day: the snapshot quote or daily close nearer its end.
      let bound = day.next.start.description
      let oldest = Timestamp.format(day.next.start.date.addingTimeInterval(-Self.backfillMaxAge))
      let snapshot = try MarketRecords.latestSnapshot(
        database, vsCurrency: portfolio.currency, before: bound)
      let prices = try Self.endOfDayPrices(
        database, coinIDs: held.map(\.coinID), vsCurrency: portfolio.currency, day: day,
        oldest: oldest, freshSnapshot: (snapshot?.fetchedAt ?? "") >= oldest
      ).prices.mapValues(\.price)
      let unpriced = held.filter { prices[$0.coinID] == nil }.map(\.coinID)
      guard unpriced.isEmpty else {
        inputs.points.append(
          ValuePoint(
            day: day, value: nil,
            unknown: "no value is saved for \(day) and no market price of "
              + unpriced.joined(separator: ", ")
              + " is known within 2d before its end; run 'folio report backfill --since \(day)'"
          ))
        continue
      }
      let value = Measure.sum(
        held.map { coin in Measure.computing { try coin.quantity * (prices[coin.coinID] ?? .zero) }
        })
      var point = ValuePoint(day: day, value: value.value, unknown: value.reason)
      point.linksChain = false
      inputs.points.append(point)
    }
  }

  /// The quantity of each coin held at the end of each of `days` (sorted), above zero only.
  /// Valuing a day needs no lots, only quantities: the stored positions less what the days
  /// after it moved, or the sum of what the days through it moved (`position_days`), whichever
  /// side of the history is shorter, read once for all the days.
  func heldQuantities(_ portfolio: Portfolio, inception: Timestamp, at days: [CalendarDay])
    throws -> [[HeldQuantity]]
  {
    guard let first = days.first, let last = days.last else { return [] }
    let texts = days.map(\.description)
    let derived = try DerivedTables(database)
    let positions = try derived.positions(portfolioID: portfolio.id)
    let latest = positions.map { Timestamp.seconds(of: $0.lastTrade.executedAt) }.max() ?? 0
    let backward = 2 * first.next.start.seconds > inception.seconds + latest
    // What the days between consecutive bounds moved: bucket k holds the days after texts[k]
    // through texts[k + 1] (backward) or after texts[k - 1] through texts[k] (forward), by coin.
    var buckets = [[String: ExactDecimal]](repeating: [:], count: days.count)
    let rows =
      backward
      ? try derived.days(portfolioID: portfolio.id, from: first.next.description)
      : try derived.days(portfolioID: portfolio.id, through: last.description)
    for row in rows {
      let passed = texts.count { $0 < row.day }
      let bucket = backward ? passed - 1 : passed
      guard buckets.indices.contains(bucket) else { continue }
      buckets[bucket][row.coinID] =
        try buckets[bucket][row.coinID, default: .zero]
        + row.quantityChange
    }
    var quantities: [String: ExactDecimal] = [:]
    if backward {
      for position in positions { quantities[position.coinID] = position.quantity }
    }
    var result = [[HeldQuantity]](repeating: [], count: days.count)
    for index in backward ? Array(days.indices.reversed()) : Array(days.indices) {
      for (coin, moved) in buckets[index] {
        let held = quantities[coin, default: .zero]
        quantities[coin] = backward ? try held - moved : try held + moved
      }
      result[index] = quantities.keys.sorted().compactMap { coin in
        guard let quantity = quantities[coin], quantity.isPositive else { return nil }
        return HeldQuantity(coinID: coin, quantity: quantity)
      }
    }
    return result
  }

  /// For each saved row, the net flow and market gain since the known value before it (the
  /// last saved value before the row, or 0 before the first trade).
  public func dayReturns(_ portfolio: Portfolio, rows: [DailyRecord]) throws -> [DayReturn] {
    guard let last = rows.last.flatMap({ CalendarDay($0.day) }) else { return [] }
    return try database.read {
      let inputs = try returnInputs(portfolio, through: last)
      let known = inputs.points.filter { $0.value != nil }.sorted { $0.at < $1.at }
      return rows.map { row in
        guard let day = CalendarDay(row.day), let value = row.value else {
          return DayReturn(day: row.day, netFlow: nil, marketGain: nil, percent: nil)
        }
        let end = day.next.start
        var start: Timestamp?
        var from = ExactDecimal.zero
        if let previous = known.last(where: { $0.at < end }), let previousValue = previous.value {
          (start, from) = (previous.at, previousValue)
        } else if let inception = inputs.inception, inception < end {
          start = inception
        }
        guard let start else {
          return DayReturn(day: row.day, netFlow: nil, marketGain: nil, percent: nil)
        }
        let inside = Returns.flows(inputs.flows, from: start, before: end)
        guard !inside.contains(where: { $0.unknown != nil }),
          let part = try? Returns.subPeriod(
            start: start, from: from, end: end, to: value, flows: inside)
        else { return DayReturn(day: row.day, netFlow: nil, marketGain: nil, percent: nil) }
        return DayReturn(
          day: row.day, netFlow: part.netFlow, marketGain: part.marketGain,
          percent: part.percent)
      }
    }
  }

  /// The returns of every period ending with the last saved day of `rows` (its saved value),
  /// for `report history --format json`.
  public func historyReturns(_ portfolio: Portfolio, rows: [DailyRecord]) throws
    -> [PeriodReturn]
  {
    guard let last = rows.last, let day = CalendarDay(last.day) else { return [] }
    return try database.read {
      try periodReturns(
        [portfolio], inputs: [try returnInputs(portfolio, through: day)], through: day,
        value: last.value, reason: nil)
    }
  }
}
