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

  /// Reads the standing before `bound` from the stored positions and derived rows, without
  /// booking any trade again: for each coin, the sums of what its trades before `bound`
  /// derived, or the stored position less what the trades from `bound` on derived (as `Ledger`
  /// undoes them), whichever reads fewer rows by time. `sells` are those since `since`. Nil
  /// when a stored position was booked with another method than `method`.
  static func stored(
    _ db: Database, portfolioID: Int64, method: CostMethod, before bound: Timestamp,
    since: Timestamp
  ) throws -> Standing? {
    let derived = try DerivedTables(db)
    let key = TradeKey(executedAt: bound.description, id: 0)
    var held: [Held] = []
    var byCoin: [String: ExactDecimal] = [:]
    var total = ExactDecimal.zero
    for position in try derived.positions(portfolioID: portfolioID) {
      guard position.method == method else { return nil }
      var (quantity, cost, realized) = (position.quantity, position.costBasis, position.realized)
      if position.lastTrade >= key {
        let coin = position.coinID
        let first = try derived.firstTradeAt(portfolioID: portfolioID, coinID: coin)
        let seconds = { (text: String?) in
          (try? Timestamp(parsing: text ?? "", .stored))?.seconds ?? bound.seconds
        }
        let forward = 2 * bound.seconds < seconds(first) + seconds(position.lastTrade.executedAt)
        let part = try derived.totals(
          portfolioID: portfolioID, coinID: coin, key: key, before: forward)
        if forward {
          quantity = try part.added.quantity - part.consumed.quantity
          cost = try part.added.cost - part.consumed.cost
          realized = part.realized
        } else {
          quantity = try quantity - part.added.quantity + part.consumed.quantity
          cost = try cost - part.added.cost + part.consumed.cost
          realized = try realized - part.realized
        }
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
