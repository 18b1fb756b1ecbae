import FolioStorage
import Foundation

/// Keeps the derived tables (lots, lot consumptions, disposals, positions, position days) in
/// step with the trade journal. After a change at time K for one coin, only what follows K is
/// recomputed: the derived rows from K on are undone (K's day row keeps the trades before K),
/// then the trades from K on are booked again.
///
/// Every method must run inside a write transaction; an `OversellError` thrown by a replay
/// rolls the whole change back.
final class Ledger {
  let db: Database
  let derived: DerivedTables

  init(_ db: Database) throws {
    self.db = db
    self.derived = try DerivedTables(db)
  }

  /// Recomputes the position of `coinID` in `portfolio` from `key` on (nil: from the start).
  func recompute(portfolio: Portfolio, coinID: String, from key: TradeKey?) throws {
    try change(portfolio: portfolio, coinID: coinID, from: key) {}
  }

  /// Undoes the derived rows from `key` on, runs `mutate` (which changes trades of this
  /// position at or after `key` only), then books the trades from `key` on again.
  func change(
    portfolio: Portfolio, coinID: String, from key: TradeKey?, _ mutate: () throws -> Void
  ) throws {
    var (stream, start) = try begin(portfolio: portfolio, coinID: coinID, from: key)
    try mutate()
    try Trade.each(
      portfolioID: portfolio.id, coinID: coinID, from: start, selection: .booking, db
    ) {
      try stream.apply($0, derived)
    }
    try finish(&stream)
  }

  /// Prepares to book the position's trades from `key` on: nothing to undo when `key` follows
  /// the last booked trade, else the derived rows from `key` on are undone (or all of them, and
  /// the returned start is nil, when the position was booked with another method).
  func begin(portfolio: Portfolio, coinID: String, from key: TradeKey?) throws -> (
    PositionStream, TradeKey?
  ) {
    let stored = try derived.position(portfolioID: portfolio.id, coinID: coinID)
    let book: PositionBook
    var start = key
    if let stored, let key, stored.method == portfolio.method, key > stored.lastTrade {
      book = PositionBook(
        method: portfolio.method,
        openLots: try derived.openLots(portfolioID: portfolio.id, coinID: coinID),
        quantity: stored.quantity, costBasis: stored.costBasis, realized: stored.realized)
    } else if let stored, let key, stored.method == portfolio.method {
      // K's day keeps what its trades before K summed (worked out before `undo` removes the
      // derived rows from K on); the stream adds the trades from K to it.
      let earlier = try dayRow(portfolioID: portfolio.id, coinID: coinID, before: key)
      book = try undo(stored, portfolio: portfolio, from: key)
      try derived.deleteDays(
        portfolioID: portfolio.id, coinID: coinID, from: DaySums.day(of: key.executedAt))
      if let earlier { try derived.save(earlier, portfolioID: portfolio.id) }
    } else {
      // No stored position means no derived rows: there is nothing to delete.
      if stored != nil { try deleteDerived(portfolioID: portfolio.id, coinID: coinID) }
      try derived.deleteDays(portfolioID: portfolio.id, coinID: coinID, from: nil)
      book = PositionBook(method: portfolio.method)
      start = nil
    }
    return (PositionStream(book: book, portfolio: portfolio, coinID: coinID), start)
  }

  /// True when trades from `key` on can be booked straight onto the stored position
  /// (nothing after `key` is booked yet).
  func canAppend(portfolio: Portfolio, coinID: String, at key: TradeKey) throws -> Bool {
    guard let stored = try derived.position(portfolioID: portfolio.id, coinID: coinID) else {
      return true
    }
    return stored.method == portfolio.method && key > stored.lastTrade
  }

  /// Writes the lots still open, the last day's sums and the position after the last booked
  /// trade.
  func finish(_ stream: inout PositionStream) throws {
    try stream.flushOpenLots(derived)
    try stream.flushDay(derived)
    let (portfolioID, coinID) = (stream.portfolio.id, stream.coinID)
    let last =
      try stream.last
      ?? Trade.latest(portfolioID: portfolioID, coinID: coinID, db).map { PositionEnd($0) }
    guard let last else {
      try derived.deletePosition(portfolioID: portfolioID, coinID: coinID)
      return
    }
    // The last market price: of the rows booked now, else of the rows before them.
    let price =
      try last.price
      ?? Trade.latestPrice(portfolioID: portfolioID, coinID: coinID, before: last.key, db)
      ?? .zero
    try derived.save(
      Position(
        portfolioID: portfolioID, coinID: coinID, quantity: stream.book.quantity,
        costBasis: stream.book.costBasis, realized: stream.book.realized, lastTrade: last.key,
        lastPrice: price, method: stream.portfolio.method))
  }

  /// Recomputes every position of the portfolio from its first trade.
  func rebuild(portfolio: Portfolio) throws {
    try derived.deleteAll(portfolioID: portfolio.id)
    for coin in try Trade.coins(portfolioID: portfolio.id, db) {
      var stream = PositionStream(
        book: PositionBook(method: portfolio.method), portfolio: portfolio, coinID: coin)
      try Trade.each(
        portfolioID: portfolio.id, coinID: coin, from: nil, selection: .booking, db
      ) {
        try stream.apply($0, derived)
      }
      try finish(&stream)
    }
  }

  /// Removes the derived rows of trades at or after `key` and returns the book as it stood
  /// just before `key`, adding back to each lot what the undone sells had consumed.
  private func undo(_ stored: Position, portfolio: Portfolio, from key: TradeKey) throws
    -> PositionBook
  {
    var quantity = stored.quantity
    var costBasis = stored.costBasis
    var realized = stored.realized
    var restored: [Int64: (quantity: ExactDecimal, cost: ExactDecimal)] = [:]
    for disposal in try derived.disposals(
      portfolioID: portfolio.id, coinID: stored.coinID, from: key)
    {
      for piece in try derived.consumptions(sellTradeID: disposal.tradeID) {
        let previous = restored[piece.lotTradeID] ?? (.zero, .zero)
        restored[piece.lotTradeID] = (
          try previous.quantity + piece.quantity, try previous.cost + piece.cost
        )
        quantity = try quantity + piece.quantity
        costBasis = try costBasis + piece.cost
      }
      realized = try realized - disposal.realized
      try derived.deleteSell(tradeID: disposal.tradeID)
    }
    let later = try derived.lots(portfolioID: portfolio.id, coinID: stored.coinID, from: key)
    for lot in later {
      quantity = try quantity - lot.quantity
      costBasis = try costBasis - lot.cost
      restored[lot.tradeID] = nil
    }
    try derived.deleteLots(portfolioID: portfolio.id, coinID: stored.coinID, from: key)
    for (tradeID, back) in restored {
      guard var lot = try derived.lot(tradeID: tradeID) else { continue }
      lot.remaining = try lot.remaining + back.quantity
      lot.remainingCost = try lot.remainingCost + back.cost
      try derived.update(lot)
    }
    return PositionBook(
      method: portfolio.method,
      openLots: try derived.openLots(portfolioID: portfolio.id, coinID: stored.coinID),
      quantity: quantity, costBasis: costBasis, realized: realized)
  }

  private func deleteDerived(portfolioID: Int64, coinID: String) throws {
    let start = TradeKey(executedAt: "", id: 0)
    for disposal in try derived.disposals(portfolioID: portfolioID, coinID: coinID, from: start) {
      try derived.deleteSell(tradeID: disposal.tradeID)
    }
    try derived.deleteLots(portfolioID: portfolioID, coinID: coinID, from: start)
    try derived.deletePosition(portfolioID: portfolioID, coinID: coinID)
    try derived.deleteDays(portfolioID: portfolioID, coinID: coinID, from: nil)
  }

  /// Writes the day rows of every position when `position_days` holds none while there are
  /// trades: a database migrated from before that table (run in the migration's transaction).
  func writeMissingDays() throws {
    guard !(try derived.hasDays()) else { return }
    for portfolio in try Portfolio.all(db) {
      for coin in try Trade.coins(portfolioID: portfolio.id, db) {
        for row in try sums(portfolioID: portfolio.id, coinID: coin, from: nil, before: nil) {
          try derived.save(row, portfolioID: portfolio.id)
        }
      }
    }
  }

  /// The row of K's day with only the day's trades before K: the stored row less what the
  /// day's booked trades from K on added (a few, as a rule: a day may hold thousands of
  /// trades, and a write in the same second as the last one comes here), or those before K
  /// summed when the stored row cannot be taken apart; nil when none comes before K.
  private func dayRow(portfolioID: Int64, coinID: String, before key: TradeKey) throws
    -> PositionDay?
  {
    let day = DaySums.day(of: key.executedAt)
    let dayStart = TradeKey(executedAt: day + "T00:00:00Z", id: 0)
    guard
      try Trade.exists(portfolioID: portfolioID, coinID: coinID, from: dayStart, before: key, db)
    else { return nil }
    let nextDay = TradeKey(
      executedAt: (CalendarDay(day)?.next.description ?? day) + "T00:00:00Z", id: 0)
    let later = try sums(
      portfolioID: portfolioID, coinID: coinID, from: key, before: nextDay, bookedOnly: true)
    if var row = try derived.day(portfolioID: portfolioID, coinID: coinID, day: day),
      !row.cashTooLarge
    {
      guard let later = later.first else { return row }
      if !later.cashTooLarge, (try? row.subtract(later)) != nil { return row }
    }
    return try sums(portfolioID: portfolioID, coinID: coinID, from: dayStart, before: key).first
  }

  /// The day sums of the position's trades from `start` before `end` (nil: no bound), from
  /// the trades and what their stored derived rows hold, with no booking; with `bookedOnly`,
  /// trades not booked yet (with no lot or disposal, such as one just inserted) are left out.
  private func sums(
    portfolioID: Int64, coinID: String, from start: TradeKey?, before end: TradeKey?,
    bookedOnly: Bool = false
  ) throws -> [PositionDay] {
    var sums = DaySums()
    var rows: [PositionDay] = []
    try derived.eachTradeWithDerived(
      portfolioID: portfolioID, coinID: coinID, from: start, before: end
    ) { trade, lotCost, sold in
      if bookedOnly && (trade.side == .buy ? lotCost == nil : sold == nil) { return }
      // As booked: a missing derived row counts nothing (`folio db check` reports it).
      let booked: DaySums.Booked =
        trade.side == .buy
        ? .figures(cost: lotCost ?? .zero, realized: .zero)
        : .figures(cost: try .zero - (sold?.cost ?? .zero), realized: sold?.realized ?? .zero)
      if let closed = try sums.add(trade, booked) { rows.append(closed) }
    }
    if let last = sums.close() { rows.append(last) }
    return rows
  }
}

/// Books one position's trades in time order and writes the rows they derive: a sell writes
/// its consumptions, its disposal and the lots it emptied at once; lots still open are written
/// by `flushOpenLots`, so a lot is written once however many sells touch it.
struct PositionStream {
  private(set) var book: PositionBook
  let portfolio: Portfolio
  let coinID: String
  /// The last trade booked, with the last market price of the rows booked.
  private(set) var last: PositionEnd?
  /// The sums of the day being booked; the stored row of the first day booked is read first,
  /// as it may hold the day's earlier trades.
  private var days = DaySums()
  private var resumed = false
  /// The day of the stored row the sums resumed, if any: the one day whose row is replaced,
  /// not added.
  private var storedDay: String?

  init(book: PositionBook, portfolio: Portfolio, coinID: String) {
    self.book = book
    self.portfolio = portfolio
    self.coinID = coinID
  }

  mutating func apply(_ trade: Trade, _ derived: DerivedTables) throws {
    let booked: DaySums.Booked
    switch trade.side {
    case .buy:
      booked = .bought(try book.buy(trade))
    case .sell:
      let result = try book.sell(trade)
      for lot in result.closedLots { try write(lot, derived) }
      for consumption in result.consumptions { try derived.insert(consumption) }
      try derived.insert(result.disposal, portfolioID: portfolio.id, coinID: coinID)
      booked = .sold(result.disposal)
    }
    if last == nil { last = PositionEnd(trade) } else { last?.advance(trade) }
    if !resumed {
      let day = DaySums.day(of: trade.executedAt)
      let stored = try derived.day(portfolioID: portfolio.id, coinID: coinID, day: day)
      storedDay = stored == nil ? nil : day
      days.resume(stored)
      resumed = true
    }
    if let closed = try days.add(trade, booked) { try save(closed, derived) }
  }

  /// Writes the sums of the last day booked.
  mutating func flushDay(_ derived: DerivedTables) throws {
    if let open = days.close() { try save(open, derived) }
    resumed = false
  }

  /// Writes a day's sums: a new row, but for the day resumed from a stored row.
  private func save(_ day: PositionDay, _ derived: DerivedTables) throws {
    try derived.save(day, portfolioID: portfolio.id, replacing: day.day == storedDay)
  }

  /// Writes the open lots that changed since they were loaded.
  mutating func flushOpenLots(_ derived: DerivedTables) throws {
    for lot in book.openLots where lot.changed { try write(lot, derived) }
    book.markWritten()
  }

  private func write(_ entry: BookLot, _ derived: DerivedTables) throws {
    if entry.stored {
      try derived.update(entry.lot)
    } else {
      try derived.insert(entry.lot, portfolioID: portfolio.id, coinID: coinID)
    }
  }
}

/// The last row booked of a position, and the last market price its rows recorded (rows of a
/// kind with a price: a transfer, a deposit or a withdrawal keeps the price before it).
struct PositionEnd {
  private(set) var key: TradeKey
  private(set) var price: ExactDecimal?

  init(_ trade: Trade) {
    key = trade.key
    price = trade.kind.hasPrice ? trade.price : nil
  }

  mutating func advance(_ trade: Trade) {
    key = trade.key
    if trade.kind.hasPrice { price = trade.price }
  }
}

/// Sums one position's trades, taken in time order, into their UTC days (`PositionDay`, the
/// rows of `position_days`).
struct DaySums {
  /// What booking a trade derived: its lot, or its disposal, or their figures as stored.
  enum Booked {
    case bought(Lot)
    case sold(Disposal)
    /// The cost the lots gained (a sell: less the cost basis taken out) and the profit realized.
    case figures(cost: ExactDecimal, realized: ExactDecimal)

    /// The money `trade` paid in (+) or took out (−) if it is a buy or sell for cash
    /// (`CashFlow.cashAmount`): its lot's cost or its disposal's proceeds, which booking has
    /// already worked out by the same rule (quantity × price ± fee).
    func cashAmount(of trade: Trade) throws -> ExactDecimal? {
      guard trade.kind == .trade else { return nil }
      switch self {
      case .bought(let lot): return lot.cost
      case .sold(let disposal): return try .zero - disposal.proceeds
      case .figures: return try CashFlow.cashAmount(of: trade)
      }
    }

    var figures: (cost: ExactDecimal, realized: ExactDecimal) {
      get throws {
        switch self {
        case .bought(let lot): return (lot.cost, .zero)
        case .sold(let disposal): return (try .zero - disposal.costBasis, disposal.realized)
        case .figures(let cost, let realized): return (cost, realized)
        }
      }
    }
  }

  private(set) var open: PositionDay?

  /// `YYYY-MM-DD` of a stored time.
  /// (Its first ten bytes: `prefix(10)` walks Characters, a tenth of `gains`' replay.)
  static func day(of executedAt: String) -> String {
    String(decoding: executedAt.utf8.prefix(10), as: UTF8.self)
  }

  /// The seconds since midnight of a stored time, `YYYY-MM-DDTHH:MM:SSZ` (the schema's CHECK);
  /// 0 for text of another shape. Read from the bytes: this runs for every trade booked.
  static func secondsIntoDay(_ executedAt: String) -> Int {
    var text = executedAt
    return text.withUTF8 { bytes in
      func digit(_ index: Int) -> Int? {
        let value = Int(bytes[index]) - 48
        return (0...9).contains(value) ? value : nil
      }
      guard bytes.count == 20, let h1 = digit(11), let h2 = digit(12), let m1 = digit(14),
        let m2 = digit(15), let s1 = digit(17), let s2 = digit(18)
      else { return 0 }
      let total = (h1 * 10 + h2) * 3_600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2
      return total < 86_400 ? total : 0
    }
  }

  /// Continues from `stored`, the stored row of the day of the next trade (nil: none).
  mutating func resume(_ stored: PositionDay?) {
    if open == nil { open = stored }
  }

  /// Adds `trade`, which is not earlier than those added before, with what booking it derived;
  /// returns the previous day's sums when `trade` starts a new day.
  mutating func add(_ trade: Trade, _ booked: Booked) throws -> PositionDay? {
    var closed: PositionDay?
    // Ten ASCII bytes: a small string, compared by its bits (comparing the two UTF-8 views
    // byte by byte, through generic code, took 2–3 % of an import's reading thread).
    let day = Self.day(of: trade.executedAt)
    if open?.day != day {
      closed = open
      open = PositionDay(coinID: trade.coinID, day: day)
    }
    let (cost, realized) = try booked.figures
    let amount = try booked.cashAmount(of: trade) ?? .zero
    // Σ amount × seconds since midnight: exact, so a day's weights give the very figures of its
    // flows one by one.
    let weight = try? amount.magnitude * ExactDecimal(Self.secondsIntoDay(trade.executedAt))
    // In place (optional chaining on `open`): a copy per trade would cost as much as the sums.
    try open?.add(
      trade.side == .buy ? trade.quantity : try .zero - trade.quantity, cash: amount,
      weight: weight, cost: cost, realized: realized)
    return closed
  }

  /// The sums of the last day added, which no later trade will change.
  mutating func close() -> PositionDay? {
    defer { open = nil }
    return open
  }
}

extension PositionDay {
  /// Takes away what `other`, the sums of some of the same day's trades, added.
  fileprivate mutating func subtract(_ other: PositionDay) throws {
    (quantityChange, cashIn, cashInWeight, cashOut, cashOutWeight, costChange, realized) = (
      try quantityChange - other.quantityChange, try cashIn - other.cashIn,
      try cashInWeight - other.cashInWeight, try cashOut - other.cashOut,
      try cashOutWeight - other.cashOutWeight, try costChange - other.costChange,
      try realized - other.realized
    )
  }

  /// Adds one trade's figures: its units (signed), the cash it paid in (+) or took out (−)
  /// with that amount's weight (nil: too large), the cost its lots gained and the profit it
  /// realized. Cash sums too large to hold exactly mark the day (`cashTooLarge`) instead of
  /// refusing the trade: the position itself stays within range.
  fileprivate mutating func add(
    _ quantity: ExactDecimal, cash: ExactDecimal, weight: ExactDecimal?, cost: ExactDecimal,
    realized: ExactDecimal
  ) throws {
    quantityChange = try quantityChange + quantity
    costChange = try costChange + cost
    self.realized = try self.realized + realized
    guard !cash.isZero, !cashTooLarge else { return }
    do {
      guard let weight else { throw DecimalError.overflow }
      if cash.isPositive {
        (cashIn, cashInWeight) = (try cashIn + cash, try cashInWeight + weight)
      } else {
        (cashOut, cashOutWeight) = (try cashOut + cash.magnitude, try cashOutWeight + weight)
      }
    } catch {
      (cashIn, cashInWeight, cashOut, cashOutWeight) = (.zero, .zero, .zero, .zero)
      cashTooLarge = true
    }
  }
}
