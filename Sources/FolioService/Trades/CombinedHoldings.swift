import FolioStorage
import Foundation

extension HoldingsService {
  /// The holdings of several portfolios of one currency as one (`--portfolio all`): each
  /// portfolio booked with its own method (or `method` for all), then each coin's quantity,
  /// cost basis and realized profit summed over the portfolios, valued at the newest market
  /// price among them (a coin without one is unpriced, as for one portfolio).
  /// One portfolio is its holdings.
  /// Portfolios of different currencies are refused (65).
  public func holdings(_ portfolios: [Portfolio], method: CostMethod? = nil) throws -> Holdings {
    if portfolios.count == 1, let only = portfolios.first {
      return try holdings(only, method: method)
    }
    if Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    let methods = MethodInUse(portfolios, method: method)
    let each = try db.read {
      try portfolios.map { try holdings($0, method: methods.method(for: $0)) }
    }
    var merged:
      [String: (
        quantity: ExactDecimal, cost: ExactDecimal, realized: ExactDecimal,
        quote: PriceQuote?
      )] = [:]
    for part in each {
      for row in part.rows {
        var entry = merged[row.coinID] ?? (.zero, .zero, .zero, nil)
        entry.quantity = try entry.quantity + row.quantity
        entry.cost = try entry.cost + row.costBasis
        entry.realized = try entry.realized + row.realized
        if let quote = row.quote, quote.asOf > (entry.quote?.asOf ?? "") { entry.quote = quote }
        merged[row.coinID] = entry
      }
    }
    // The one valuation rule (as for one portfolio): a coin held without a market quote has
    // no value, is listed as unpriced and is left out of the totals.
    let coins = merged.keys.sorted()
    let values = merged.mapValues { entry -> Measure? in
      entry.quantity.isZero
        ? .known(.zero)
        : entry.quote.map { quote in Measure.computing { try entry.quantity * quote.price } }
    }
    let unpriced = coins.filter { values[$0].flatMap { $0 } == nil }
    let missing = Measure.unavailable("no market price is cached for " + Statistics.list(unpriced))
    let totalValue = Measure.total(of: coins.map { values[$0].flatMap { $0 } }) ?? missing
    let rows = coins.compactMap { coin -> Holding? in
      guard let entry = merged[coin] else { return nil }
      let value = values[coin].flatMap { $0 }
      let noPrice = Measure.unavailable("no market price is cached for \(coin)")
      return Holding(
        coinID: coin, quantity: entry.quantity, costBasis: entry.cost,
        averageCost: entry.quantity.isZero
          ? nil : Measure.computing { try entry.cost / entry.quantity },
        quote: entry.quote, value: value ?? noPrice,
        unrealized: value?.then { try $0 - entry.cost } ?? noPrice,
        realized: entry.realized, share: value.flatMap { share(of: $0, in: totalValue) },
        isPriced: value != nil)
    }
    let first = portfolios.first
    let combined = Portfolio(
      id: 0, name: "all", currency: first?.currency ?? "usd",
      method: methods.single ?? first?.method ?? .fifo, createdAt: first?.createdAt ?? "")
    return Holdings(
      portfolio: combined, method: methods, rows: rows, totalValue: totalValue,
      totalCostBasis: Measure.sum(rows.map { .known($0.costBasis) }),
      totalUnrealized: Measure.total(of: rows.map { $0.isPriced ? $0.unrealized : nil })
        ?? missing,
      totalRealized: Measure.sum(rows.map { .known($0.realized) }), unpriced: unpriced,
      snapshot: each.compactMap(\.snapshot).max { $0.fetchedAt < $1.fetchedAt })
  }
}
