/// A lot: the units one buy acquired, and what is left of them after later sells.
public struct Lot: Equatable, Sendable {
  /// The buy that opened the lot (the lot's key).
  public let tradeID: Int64
  public let acquiredAt: String
  public let quantity: ExactDecimal
  /// quantity × price + fee of the buy.
  public let cost: ExactDecimal
  public var remaining: ExactDecimal
  /// cost − the cost that left with consumed units.
  public var remainingCost: ExactDecimal

  public init(
    tradeID: Int64, acquiredAt: String, quantity: ExactDecimal, cost: ExactDecimal,
    remaining: ExactDecimal, remainingCost: ExactDecimal
  ) {
    (self.tradeID, self.acquiredAt, self.quantity, self.cost, self.remaining, self.remainingCost) =
      (tradeID, acquiredAt, quantity, cost, remaining, remainingCost)
  }

  public var key: TradeKey { TradeKey(executedAt: acquiredAt, id: tradeID) }
}

/// One sell's consumption of one lot.
public struct LotConsumption: Equatable, Sendable {
  public let sellTradeID: Int64
  public let lotTradeID: Int64
  public let quantity: ExactDecimal
  /// The cost basis that left the position with these units.
  public let cost: ExactDecimal

  public init(sellTradeID: Int64, lotTradeID: Int64, quantity: ExactDecimal, cost: ExactDecimal) {
    (self.sellTradeID, self.lotTradeID, self.quantity, self.cost) = (
      sellTradeID, lotTradeID, quantity, cost
    )
  }
}
