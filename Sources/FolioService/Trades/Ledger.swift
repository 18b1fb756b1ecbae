import FolioStorage
import Foundation

/// Keeps the derived tables (lots, lot consumptions, disposals, positions) in step with the
/// trade journal. After a change at time K for one coin, only what follows K is recomputed:
/// the derived rows from K on are undone, then the trades from K on are booked again.
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
      book = try undo(stored, portfolio: portfolio, from: key)
    } else {
      // No stored position means no derived rows: there is nothing to delete.
      if stored != nil { try deleteDerived(portfolioID: portfolio.id, coinID: coinID) }
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

  /// Writes the lots still open and the position after the last booked trade.
  func finish(_ stream: inout PositionStream) throws {
    try stream.flushOpenLots(derived)
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

  init(book: PositionBook, portfolio: Portfolio, coinID: String) {
    self.book = book
    self.portfolio = portfolio
    self.coinID = coinID
  }

  mutating func apply(_ trade: Trade, _ derived: DerivedTables) throws {
    switch trade.side {
    case .buy:
      _ = try book.buy(trade)
    case .sell:
      let result = try book.sell(trade)
      for lot in result.closedLots { try write(lot, derived) }
      for consumption in result.consumptions { try derived.insert(consumption) }
      try derived.insert(result.disposal, portfolioID: portfolio.id, coinID: coinID)
    }
    if last == nil { last = PositionEnd(trade) } else { last?.advance(trade) }
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
