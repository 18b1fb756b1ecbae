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
    let stored = try derived.position(portfolioID: portfolio.id, coinID: coinID)
    var book: PositionBook
    var start = key
    if let stored, let key, stored.method == portfolio.method, key > stored.lastTrade {
      // Appending after the last booked trade: nothing to undo.
      book = PositionBook(
        method: portfolio.method,
        openLots: try derived.openLots(portfolioID: portfolio.id, coinID: coinID),
        quantity: stored.quantity, costBasis: stored.costBasis, realized: stored.realized)
    } else if let stored, let key, stored.method == portfolio.method {
      book = try undo(stored, portfolio: portfolio, from: key)
    } else {
      try deleteDerived(portfolioID: portfolio.id, coinID: coinID)
      book = PositionBook(method: portfolio.method)
      start = nil
    }
    try mutate()
    try replay(&book, portfolio: portfolio, coinID: coinID, from: start, previous: stored)
  }

  /// Recomputes every position of the portfolio from its first trade.
  func rebuild(portfolio: Portfolio) throws {
    try derived.deleteAll(portfolioID: portfolio.id)
    for coin in try Trade.coins(portfolioID: portfolio.id, db) {
      var book = PositionBook(method: portfolio.method)
      try replay(&book, portfolio: portfolio, coinID: coin, from: nil, previous: nil)
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

  /// Books the trades of the position from `key` on and writes the results.
  private func replay(
    _ book: inout PositionBook, portfolio: Portfolio, coinID: String, from key: TradeKey?,
    previous: Position?
  ) throws {
    var last: Trade?
    try Trade.each(portfolioID: portfolio.id, coinID: coinID, from: key, db) { trade in
      switch trade.side {
      case .buy:
        _ = try book.buy(trade)
      case .sell:
        let result = try book.sell(trade)
        for lot in result.closedLots { try write(lot, portfolio: portfolio, coinID: coinID) }
        for consumption in result.consumptions { try derived.insert(consumption) }
        try derived.insert(result.disposal, portfolioID: portfolio.id, coinID: coinID)
      }
      last = trade
    }
    for lot in book.openLots where lot.changed {
      try write(lot, portfolio: portfolio, coinID: coinID)
    }
    let lastTrade: (key: TradeKey, price: ExactDecimal)?
    if let last {
      lastTrade = (last.key, last.price)
    } else if let previous, let key, previous.lastTrade < key {
      lastTrade = (previous.lastTrade, previous.lastPrice)
    } else {
      lastTrade = try latestTrade(portfolioID: portfolio.id, coinID: coinID)
    }
    guard let lastTrade else {
      try derived.deletePosition(portfolioID: portfolio.id, coinID: coinID)
      return
    }
    try derived.save(
      Position(
        portfolioID: portfolio.id, coinID: coinID, quantity: book.quantity,
        costBasis: book.costBasis, realized: book.realized, lastTrade: lastTrade.key,
        lastPrice: lastTrade.price, method: portfolio.method))
  }

  private func write(_ entry: BookLot, portfolio: Portfolio, coinID: String) throws {
    if entry.stored {
      try derived.update(entry.lot)
    } else {
      try derived.insert(entry.lot, portfolioID: portfolio.id, coinID: coinID)
    }
  }

  private func latestTrade(portfolioID: Int64, coinID: String) throws -> (
    key: TradeKey, price: ExactDecimal
  )? {
    try db.row(
      """
      SELECT executed_at, id, price FROM trades WHERE portfolio_id = ? AND coin_id = ?
      ORDER BY executed_at DESC, id DESC LIMIT 1
      """, [portfolioID, coinID]
    ) { (TradeKey(executedAt: $0.text(0) ?? "", id: $0.int(1) ?? 0), try $0.decimal(2) ?? .zero) }
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
