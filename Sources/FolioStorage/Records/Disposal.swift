/// The realized result of one sell.
public struct Disposal: Equatable, Sendable {
  public let tradeID: Int64
  public let disposedAt: String
  public let quantity: ExactDecimal
  /// quantity × price − fee.
  public let proceeds: ExactDecimal
  public let costBasis: ExactDecimal
  public let realized: ExactDecimal
  public let method: CostMethod

  public init(
    tradeID: Int64, disposedAt: String, quantity: ExactDecimal, proceeds: ExactDecimal,
    costBasis: ExactDecimal, realized: ExactDecimal, method: CostMethod
  ) {
    (
      self.tradeID, self.disposedAt, self.quantity, self.proceeds, self.costBasis, self.realized,
      self.method
    ) = (tradeID, disposedAt, quantity, proceeds, costBasis, realized, method)
  }
}
