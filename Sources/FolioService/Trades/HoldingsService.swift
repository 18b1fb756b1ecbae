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

/// One coin's line in the holdings.
public struct Holding: Sendable, Equatable {
  public let coinID: String
  public let quantity: ExactDecimal
  public let costBasis: ExactDecimal
  /// costBasis ÷ quantity; nil when nothing is held.
  public let averageCost: ExactDecimal?
  public let quote: PriceQuote?
  /// quantity × price; nil without a price.
  public let value: ExactDecimal?
  /// value − costBasis; nil without a price.
  public let unrealized: ExactDecimal?
  public let realized: ExactDecimal
  /// value ÷ total value × 100; nil without a price or when the total is zero.
  public let share: ExactDecimal?
}

/// The holdings of a portfolio with totals.
public struct Holdings: Sendable, Equatable {
  public let portfolio: Portfolio
  public let method: CostMethod
  public let rows: [Holding]
  public let totalValue: ExactDecimal
  public let totalCostBasis: ExactDecimal
  public let totalUnrealized: ExactDecimal
  public let totalRealized: ExactDecimal
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
      var rows: [Holding] = []
      var totalValue = ExactDecimal.zero
      var totalCost = ExactDecimal.zero
      var totalUnrealized = ExactDecimal.zero
      var totalRealized = ExactDecimal.zero
      let unpriced: [String] = []
      var partial: [(Position, PriceQuote?, ExactDecimal?)] = []
      for position in positions {
        let quote =
          price(position.coinID)
          ?? PriceQuote(
            price: position.lastPrice, asOf: position.lastTrade.executedAt, source: "last trade")
        let value: ExactDecimal? = try position.quantity * quote.price
        if let value { totalValue = try totalValue + value }
        totalCost = try totalCost + position.costBasis
        totalRealized = try totalRealized + position.realized
        partial.append((position, quote, value))
      }
      for (position, quote, value) in partial {
        let unrealized = try value.map { try $0 - position.costBasis }
        if let unrealized { totalUnrealized = try totalUnrealized + unrealized }
        rows.append(
          Holding(
            coinID: position.coinID, quantity: position.quantity, costBasis: position.costBasis,
            averageCost: position.quantity.isZero
              ? nil : try position.costBasis / position.quantity,
            quote: quote, value: value, unrealized: unrealized, realized: position.realized,
            share: try value.flatMap { value in
              totalValue.isZero
                ? nil : try ExactDecimal.scaled(value, by: .hundred, dividedBy: totalValue)
            }))
      }
      return Holdings(
        portfolio: portfolio, method: method, rows: rows, totalValue: totalValue,
        totalCostBasis: totalCost, totalUnrealized: totalUnrealized, totalRealized: totalRealized,
        unpriced: unpriced)
    }
  }

  /// Books every trade of the portfolio with `method` in memory, without writing anything.
  func recomputed(_ portfolio: Portfolio, method: CostMethod) throws -> [Position] {
    var books: [String: (book: PositionBook, last: Trade)] = [:]
    try Trade.each(portfolioID: portfolio.id, filter: Trade.Filter(), db) { trade in
      // Booked in place (see `PortfolioReplay.advance`): no copy of the lots per trade.
      try books[trade.coinID, default: (PositionBook(method: method), trade)].book.book(trade)
      books[trade.coinID]?.last = trade
    }
    return books.keys.sorted().compactMap { coin in
      guard let entry = books[coin] else { return nil }
      return Position(
        portfolioID: portfolio.id, coinID: coin, quantity: entry.book.quantity,
        costBasis: entry.book.costBasis, realized: entry.book.realized, lastTrade: entry.last.key,
        lastPrice: entry.last.price, method: method)
    }
  }
}
