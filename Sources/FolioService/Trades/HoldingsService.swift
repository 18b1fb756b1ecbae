import FolioStorage
import Foundation

/// A price for a coin and where it came from.
public struct PriceQuote: Sendable, Equatable {
  public let price: ExactDecimal
  /// When the price was observed (UTC ISO-8601).
  public let asOf: String
  /// "market": a price from a cached market snapshot (the only kind holdings use).
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
  /// value ÷ total value × 100; nil when the total is zero or the coin has no price.
  public let share: Measure?
  /// False for a held coin without a market price: left out of the totals.
  public let isPriced: Bool
}

/// The holdings of a portfolio with totals; a total is unavailable when one of its terms is,
/// or when the sum is too large.
public struct Holdings: Sendable, Equatable {
  public let portfolio: Portfolio
  public let method: MethodInUse
  public let rows: [Holding]
  public let totalValue: Measure
  public let totalCostBasis: Measure
  public let totalUnrealized: Measure
  public let totalRealized: Measure
  /// Held coins without a market price: not counted in the value and profit totals.
  public let unpriced: [String]
  /// The newest market snapshot in the portfolio's currency, for the freshness check.
  public let snapshot: MarketSnapshotRef?
}

/// Holdings, cost basis and profit per coin, from the stored positions or, for another
/// method than the portfolio's, recomputed in memory from the trades.
public struct HoldingsService {
  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// The holdings of `portfolio` with `method` (default: the portfolio's own), valued at the
  /// latest cached market price of each coin in the portfolio's currency. A held coin without
  /// one is valued by the rule every command follows (`Measure.total(of:)`): its value,
  /// profit and share read n/a, it is left out of the totals and listed in `unpriced`.
  public func holdings(_ portfolio: Portfolio, method: CostMethod? = nil) throws -> Holdings {
    try db.read {
      let method = method ?? portfolio.method
      let positions =
        method == portfolio.method
        ? try DerivedTables(db).positions(portfolioID: portfolio.id)
        : try recomputed(portfolio, method: method)
      let quotes = try MarketRecords.latestQuotes(
        db, coinIDs: positions.map(\.coinID), vsCurrency: portfolio.currency, before: nil)
      let unpriced = positions.filter { !$0.quantity.isZero && quotes[$0.coinID] == nil }
        .map(\.coinID)
      let missing = Measure.unavailable(
        "no market price is cached for " + Statistics.list(unpriced))
      let priced = positions.map { position in
        let quote = quotes[position.coinID].map {
          PriceQuote(price: $0.price, asOf: $0.snapshotAt, source: "market")
        }
        let value: Measure? =
          position.quantity.isZero
          ? .known(.zero)
          : quote.map { quote in Measure.computing { try position.quantity * quote.price } }
        return (position, quote, value)
      }
      let totalValue = Measure.total(of: priced.map(\.2)) ?? missing
      let rows = priced.map { position, quote, value in
        let unrealized = value?.then { try $0 - position.costBasis }
        return Holding(
          coinID: position.coinID, quantity: position.quantity, costBasis: position.costBasis,
          averageCost: position.quantity.isZero
            ? nil : Measure.computing { try position.costBasis / position.quantity },
          quote: quote,
          value: value ?? .unavailable("no market price is cached for \(position.coinID)"),
          unrealized: unrealized
            ?? .unavailable("no market price is cached for \(position.coinID)"),
          realized: position.realized,
          share: value.flatMap { share(of: $0, in: totalValue) }, isPriced: value != nil)
      }
      return Holdings(
        portfolio: portfolio, method: .one(method), rows: rows, totalValue: totalValue,
        totalCostBasis: Measure.sum(positions.map { .known($0.costBasis) }),
        totalUnrealized: Measure.total(
          of: rows.map { $0.isPriced ? $0.unrealized : nil }) ?? missing,
        totalRealized: Measure.sum(positions.map { .known($0.realized) }), unpriced: unpriced,
        snapshot: try MarketRecords.latestSnapshot(db, vsCurrency: portfolio.currency))
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
    var books: [String: Replayed] = [:]
    // Booking costs about as much as SQLite's reading: they run on two threads.
    try Trade.each(
      portfolioID: portfolio.id, filter: Trade.Filter(), selection: .booking, readingAhead: true,
      db
    ) { trade in
      // Booked in place (see `PortfolioReplay.advance`): no copy of the lots per trade, and
      // one lookup of the coin (a `default:` entry would also copy the trade on every call).
      if let index = books.index(forKey: trade.coinID) {
        try books.values[index].book(trade)
      } else {
        var entry = Replayed(method: method, first: trade)
        try entry.book(trade)
        books[trade.coinID] = entry
      }
    }
    return books.keys.sorted().compactMap { coin in
      guard let entry = books[coin] else { return nil }
      return Position(
        portfolioID: portfolio.id, coinID: coin, quantity: entry.book.quantity,
        costBasis: entry.book.costBasis, realized: entry.book.realized, lastTrade: entry.last.key,
        lastPrice: entry.last.price ?? .zero, method: method)
    }
  }

  /// One coin's lots and last trade as a replay books them.
  private struct Replayed {
    var book: PositionBook
    var last: PositionEnd

    init(method: CostMethod, first: Trade) {
      book = PositionBook(method: method)
      last = PositionEnd(first)
    }

    mutating func book(_ trade: Trade) throws {
      try book.book(trade)
      last.advance(trade)
    }
  }
}
