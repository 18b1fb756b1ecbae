import FolioStorage
import Foundation

/// The positions and realized profit of a portfolio as of a moment, as a report shows them:
/// from the stored derived rows (`stored`) or from a replay of the trades (`PortfolioReplay`).
struct Standing {
  struct Held {
    let coinID: String
    let quantity: ExactDecimal
    let costBasis: ExactDecimal
  }

  struct Sell {
    let id: Int64
    /// When the sell was executed (stored form).
    let at: String
    let realized: ExactDecimal
  }

  /// The coins held (quantity above zero), by id.
  var held: [Held]
  /// Realized profit of every sell before the moment, by coin.
  var realizedByCoin: [String: ExactDecimal]
  var realizedTotal: ExactDecimal
  /// The sells of a recent period before the moment, in time order.
  var sells: [Sell]

  /// The standing of several portfolios as one: each coin's quantity, cost basis and realized
  /// profit summed, every sell in time order. One standing is itself.
  static func merged(_ parts: [Standing]) throws -> Standing {
    if parts.count == 1, let only = parts.first { return only }
    var quantity: [String: ExactDecimal] = [:]
    var cost: [String: ExactDecimal] = [:]
    var byCoin: [String: ExactDecimal] = [:]
    var total = ExactDecimal.zero
    for part in parts {
      for coin in part.held {
        quantity[coin.coinID] = try quantity[coin.coinID, default: .zero] + coin.quantity
        cost[coin.coinID] = try cost[coin.coinID, default: .zero] + coin.costBasis
      }
      for (coin, realized) in part.realizedByCoin {
        byCoin[coin] = try byCoin[coin, default: .zero] + realized
      }
      total = try total + part.realizedTotal
    }
    let held = quantity.keys.sorted().map {
      Held(coinID: $0, quantity: quantity[$0] ?? .zero, costBasis: cost[$0] ?? .zero)
    }
    let sells = parts.flatMap(\.sells).sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    return Standing(held: held, realizedByCoin: byCoin, realizedTotal: total, sells: sells)
  }

  /// Realized profit of the sells executed at or after `start` (within `sells`).
  func realized(since start: Timestamp) throws -> ExactDecimal {
    let start = start.description
    return try sells.reduce(ExactDecimal.zero) { try $1.at >= start ? $0 + $1.realized : $0 }
  }

  /// Reads the standing at the end of `day` from the stored positions and derived rows, without
  /// booking any trade again: each stored position less what the days after `day` moved
  /// (`position_days`: a few rows a day, not every trade). `sells` are those since `since`.
  /// Nil when a stored position was booked with another method than `method`.
  static func stored(
    _ db: Database, portfolioID: Int64, method: CostMethod, through day: CalendarDay,
    since: Timestamp
  ) throws -> Standing? {
    let derived = try DerivedTables(db)
    let bound = day.next.start
    let positions = try derived.positions(portfolioID: portfolioID)
    guard positions.allSatisfy({ $0.method == method }) else { return nil }
    var later: [String: (quantity: ExactDecimal, cost: ExactDecimal, realized: ExactDecimal)] = [:]
    if positions.contains(where: { $0.lastTrade.executedAt >= bound.description }) {
      for row in try derived.days(portfolioID: portfolioID, from: day.next.description) {
        let sum = later[row.coinID] ?? (.zero, .zero, .zero)
        later[row.coinID] = (
          try sum.quantity + row.quantityChange, try sum.cost + row.costChange,
          try sum.realized + row.realized
        )
      }
    }
    var held: [Held] = []
    var byCoin: [String: ExactDecimal] = [:]
    var total = ExactDecimal.zero
    for position in positions {
      var (quantity, cost, realized) = (position.quantity, position.costBasis, position.realized)
      if let after = later[position.coinID] {
        quantity = try quantity - after.quantity
        cost = try cost - after.cost
        realized = try realized - after.realized
      }
      if quantity.isPositive {
        held.append(Held(coinID: position.coinID, quantity: quantity, costBasis: cost))
      }
      byCoin[position.coinID] = realized
      total = try total + realized
    }
    let sells = try derived.disposals(
      portfolioID: portfolioID, since: since.description, before: bound.description
    ).map { Sell(id: $0.tradeID, at: $0.disposedAt, realized: $0.realized) }
    return Standing(held: held, realizedByCoin: byCoin, realizedTotal: total, sells: sells)
  }
}
