import FolioStorage
import Foundation

/// A portfolio's trades booked in time order in memory, so positions and realized profit can
/// be read as of any moment without touching the stored derived tables (and with any method).
struct PortfolioReplay {
  let method: CostMethod
  private let trades: [Trade]
  private var next = 0
  private(set) var books: [String: PositionBook] = [:]
  /// Realized profit of the sells booked so far, in all and by coin.
  private(set) var realizedTotal = ExactDecimal.zero
  private var realizedByCoin: [String: ExactDecimal] = [:]
  /// Each sell booked so far, in time order.
  private var sells: [Standing.Sell] = []

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
        let realized = try books[trade.coinID, default: PositionBook(method: method)]
          .sell(trade, recording: false).disposal.realized
        sells.append(Standing.Sell(id: trade.id, at: trade.executedAt, realized: realized))
        realizedTotal = try realizedTotal + realized
        realizedByCoin[trade.coinID] = try realizedByCoin[trade.coinID, default: .zero] + realized
      }
      next += 1
    }
  }

  /// The coins held (quantity above zero), by id.
  var held: [Standing.Held] {
    books.keys.sorted().compactMap { coin in
      guard let book = books[coin], book.quantity.isPositive else { return nil }
      return Standing.Held(coinID: coin, quantity: book.quantity, costBasis: book.costBasis)
    }
  }

  /// What a report needs of the trades booked so far; `sells` are those since `since`.
  func standing(since: Timestamp) -> Standing {
    let since = since.description
    return Standing(
      held: held, realizedByCoin: realizedByCoin, realizedTotal: realizedTotal,
      sells: sells.filter { $0.at >= since })
  }
}
