/// Sums of the derived rows of a run of one position's trades (`DerivedTables.totals`).
public struct DerivedTotals: Sendable {
  /// Units and cost the buys' lots added.
  public var added: (quantity: ExactDecimal, cost: ExactDecimal) = (.zero, .zero)
  /// Units and cost the sells consumed from lots.
  public var consumed: (quantity: ExactDecimal, cost: ExactDecimal) = (.zero, .zero)
  /// Profit the sells realized.
  public var realized = ExactDecimal.zero

  public init() {}
}
