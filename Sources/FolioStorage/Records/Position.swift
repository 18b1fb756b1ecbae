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
    self.portfolioID = portfolioID
    self.coinID = coinID
    self.quantity = quantity
    self.costBasis = costBasis
    self.realized = realized
    self.lastTrade = lastTrade
    self.lastPrice = lastPrice
    self.method = method
  }
}
