import FolioStorage
import Foundation

/// A portfolio's trades booked in time order in memory, so positions and realized profit can
/// be read as of any moment without touching the stored derived tables (and with any method).
struct PortfolioReplay {
  let method: CostMethod
  private let trades: [Trade]
  private var next = 0
  private(set) var books: [String: PositionBook] = [:]
  /// Realized profit of each sell booked so far, by trade id.
  private(set) var realizedBySell: [Int64: ExactDecimal] = [:]
  /// (disposed at, realized) of each sell booked so far, in time order.
  private(set) var disposals: [(at: String, realized: ExactDecimal)] = []

  /// `trades` must be in time order (executed_at, id).
  init(method: CostMethod, trades: [Trade]) {
    self.method = method
    self.trades = trades
  }

  /// Books every remaining trade executed before `bound`.
  mutating func advance(before bound: Timestamp) throws {
    let bound = bound.description
    while next < trades.count, trades[next].executedAt < bound {
      let trade = trades[next]
      // Booked in place: a copy of the book out of the dictionary and back would copy its
      // lots on every trade, quadratic in the open lots (hourly DCA buys).
      switch trade.side {
      case .buy: _ = try books[trade.coinID, default: PositionBook(method: method)].buy(trade)
      case .sell:
        let disposal = try books[trade.coinID, default: PositionBook(method: method)].sell(trade)
          .disposal
        realizedBySell[trade.id] = disposal.realized
        disposals.append((trade.executedAt, disposal.realized))
      }
      next += 1
    }
  }

  /// Realized profit of the sells booked so far that were executed at or after `start` (all of
  /// them when nil).
  func realized(since start: Timestamp? = nil) throws -> ExactDecimal {
    let start = start?.description
    var total = ExactDecimal.zero
    for disposal in disposals.reversed() {
      if let start, disposal.at < start { break }
      total = try total + disposal.realized
    }
    return total
  }

  /// The coins held (quantity above zero), by id.
  var held: [(coinID: String, book: PositionBook)] {
    books.keys.sorted().compactMap { coin in
      guard let book = books[coin], book.quantity.isPositive else { return nil }
      return (coin, book)
    }
  }
}
