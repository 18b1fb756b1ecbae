import FolioStorage
import Foundation

extension HoldingsService {
  /// The holdings of several portfolios of one currency as one (`--portfolio all`): each
  /// coin's quantity, cost basis and realized profit summed over the portfolios, valued at the
  /// market price (else the latest trade's price among them). One portfolio is its holdings.
  /// Portfolios of different currencies are refused (65).
  public func holdings(_ portfolios: [Portfolio], method: CostMethod? = nil) throws -> Holdings {
    if portfolios.count == 1, let only = portfolios.first {
      return try holdings(only, method: method)
    }
    if Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    let method = method ?? portfolios.first?.method ?? .fifo
    let each = try db.read { try portfolios.map { try holdings($0, method: method) } }
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
        if let quote = row.quote,
          entry.quote == nil
            || (entry.quote?.source != "market"
              && (quote.source == "market" || quote.asOf > (entry.quote?.asOf ?? "")))
        {
          entry.quote = quote
        }
        merged[row.coinID] = entry
      }
    }
    let values = merged.mapValues { entry in
      entry.quote.map { quote in Measure.computing { try entry.quantity * quote.price } }
        ?? .unavailable("no price")
    }
    let totalValue = Measure.sum(merged.keys.sorted().compactMap { values[$0] })
    let rows = merged.keys.sorted().compactMap { coin -> Holding? in
      guard let entry = merged[coin], let value = values[coin] else { return nil }
      return Holding(
        coinID: coin, quantity: entry.quantity, costBasis: entry.cost,
        averageCost: entry.quantity.isZero
          ? nil : Measure.computing { try entry.cost / entry.quantity },
        quote: entry.quote, value: value, unrealized: value.then { try $0 - entry.cost },
        realized: entry.realized, share: share(of: value, in: totalValue))
    }
    let first = portfolios.first
    let combined = Portfolio(
      id: 0, name: "all", currency: first?.currency ?? "usd", method: method,
      createdAt: first?.createdAt ?? "")
    return Holdings(
      portfolio: combined, method: method, rows: rows, totalValue: totalValue,
      totalCostBasis: Measure.sum(rows.map { .known($0.costBasis) }),
      totalUnrealized: Measure.sum(rows.map(\.unrealized)),
      totalRealized: Measure.sum(rows.map { .known($0.realized) }), unpriced: [])
  }
}
