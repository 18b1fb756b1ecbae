/// The state of one coin in one portfolio after all its trades.
public struct Position: Equatable, Sendable {
  public let portfolioID: Int64
  public let coinID: String
  public var quantity: ExactDecimal
  public var costBasis: ExactDecimal
  public var realized: ExactDecimal
  public var lastTrade: TradeKey
  /// The price of the latest trade.
  public var lastPrice: ExactDecimal
  public var method: CostMethod

  public init(
    portfolioID: Int64, coinID: String, quantity: ExactDecimal, costBasis: ExactDecimal,
    realized: ExactDecimal, lastTrade: TradeKey, lastPrice: ExactDecimal, method: CostMethod
  ) {
    (
      self.portfolioID, self.coinID, self.quantity, self.costBasis, self.realized, self.lastTrade,
      self.lastPrice, self.method
    ) = (portfolioID, coinID, quantity, costBasis, realized, lastTrade, lastPrice, method)
  }
}
