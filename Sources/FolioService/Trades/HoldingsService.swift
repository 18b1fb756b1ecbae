import FolioStorage
import Foundation

/// A price for a coin and where it came from.
public struct PriceQuote: Sendable, Equatable {
  public let price: ExactDecimal
  /// When the price was observed (UTC ISO-8601).
  public let asOf: String
  /// "market" for a cached market snapshot, "last trade" for the latest trade's price.
  public let source: String

  public init(price: ExactDecimal, asOf: String, source: String) {
    self.price = price
    self.asOf = asOf
    self.source = source
  }
}

/// One coin's line in the holdings. A figure too large to compute exactly is unavailable
/// (n/a) with the reason, as in `folio stats` (`Measure.computing`); the others still show.
public struct Holding: Sendable, Equatable {
  public let coinID: String
  public let quantity: ExactDecimal
  public let costBasis: ExactDecimal
  /// costBasis ÷ quantity; nil when nothing is held.
  public let averageCost: Measure?
  public let quote: PriceQuote?
  /// quantity × price; unavailable without a price.
  public let value: Measure
  /// value − costBasis; unavailable without a value.
  public let unrealized: Measure
  public let realized: ExactDecimal
  /// value ÷ total value × 100; nil when the total is zero.
  public let share: Measure?
}

/// The holdings of a portfolio with totals; a total is unavailable when one of its terms is,
/// or when the sum is too large.
public struct Holdings: Sendable, Equatable {
  public let portfolio: Portfolio
  public let method: CostMethod
  public let rows: [Holding]
  public let totalValue: Measure
  public let totalCostBasis: Measure
  public let totalUnrealized: Measure
  public let totalRealized: Measure
  /// Held coins without any price: not counted in the value totals.
  public let unpriced: [String]
}

/// Holdings, cost basis and profit per coin, from the stored positions or, for another
/// method than the portfolio's, recomputed in memory from the trades.
public struct HoldingsService {
  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// The holdings of `portfolio` with `method` (default: the portfolio's own), valued at the
  /// latest cached market price in the portfolio's currency, else at the coin's last trade price.
  public func holdings(_ portfolio: Portfolio, method: CostMethod? = nil) throws -> Holdings {
    try db.read {
      let quotes = try MarketData(store).latestQuotes(vsCurrency: portfolio.currency)
      func price(_ coin: String) -> PriceQuote? {
        quotes[coin].map { PriceQuote(price: $0.price, asOf: $0.snapshotAt, source: "market") }
      }
      let method = method ?? portfolio.method
      let positions =
        method == portfolio.method
        ? try DerivedTables(db).positions(portfolioID: portfolio.id)
        : try recomputed(portfolio, method: method)
      let unpriced: [String] = []
      let priced = positions.map { position in
        let quote =
          price(position.coinID)
          ?? PriceQuote(
            price: position.lastPrice, asOf: position.lastTrade.executedAt, source: "last trade")
        return (position, quote, Measure.computing { try position.quantity * quote.price })
      }
      let totalValue = Measure.sum(priced.map(\.2))
      let rows = priced.map { position, quote, value in
        Holding(
          coinID: position.coinID, quantity: position.quantity, costBasis: position.costBasis,
          averageCost: position.quantity.isZero
            ? nil : Measure.computing { try position.costBasis / position.quantity },
          quote: quote, value: value, unrealized: value.then { try $0 - position.costBasis },
          realized: position.realized,
          share: share(of: value, in: totalValue))
      }
      return Holdings(
        portfolio: portfolio, method: method, rows: rows, totalValue: totalValue,
        totalCostBasis: Measure.sum(positions.map { .known($0.costBasis) }),
        totalUnrealized: Measure.sum(rows.map(\.unrealized)),
        totalRealized: Measure.sum(positions.map { .known($0.realized) }), unpriced: unpriced)
    }
  }

  /// value ÷ total × 100; nil when the total is zero, unavailable when either is.
  func share(of value: Measure, in total: Measure) -> Measure? {
    switch (value, total) {
    case (.unavailable, _): return value
    case (.known, .unavailable(let reason)):
      return .unavailable("the total value is n/a (\(reason))")
    case (.known(let value), .known(let total)):
      return total.isZero
        ? nil : .computing { try ExactDecimal.scaled(value, by: .hundred, dividedBy: total) }
    }
  }

  /// Books every trade of the portfolio with `method` in memory, without writing anything.
  func recomputed(_ portfolio: Portfolio, method: CostMethod) throws -> [Position] {
    var books: [String: (book: PositionBook, last: PositionEnd)] = [:]
    try Trade.each(portfolioID: portfolio.id, filter: Trade.Filter(), db) { trade in
      // Booked in place (see `PortfolioReplay.advance`): no copy of the lots per trade.
      try books[trade.coinID, default: (PositionBook(method: method), PositionEnd(trade))].book
        .book(trade)
      books[trade.coinID]?.last.advance(trade)
    }
    return books.keys.sorted().compactMap { coin in
      guard let entry = books[coin] else { return nil }
      return Position(
        portfolioID: portfolio.id, coinID: coin, quantity: entry.book.quantity,
        costBasis: entry.book.costBasis, realized: entry.book.realized, lastTrade: entry.last.key,
        lastPrice: entry.last.price ?? .zero, method: method)
    }
  }
}
