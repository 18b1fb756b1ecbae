import FolioStorage

/// The cost-basis method figures were computed with. Several portfolios shown as one
/// (`--portfolio all`) are each booked with their own method and then added up: a combined
/// view never re-books a portfolio under another portfolio's method.
public enum MethodInUse: Equatable, Sendable {
  /// Every portfolio was booked with this method (`--method`, or the one they all use).
  case one(CostMethod)
  /// Each portfolio was booked with its own method, and they differ; by portfolio name.
  case eachOwn([NamedMethod])

  /// A portfolio's name and its method.
  public struct NamedMethod: Equatable, Sendable {
    public let portfolio: String
    public let method: CostMethod
  }

  /// `method` for every portfolio when given, else each portfolio's own.
  public init(_ portfolios: [Portfolio], method: CostMethod?) {
    if let method {
      self = .one(method)
    } else if let first = portfolios.first, portfolios.allSatisfy({ $0.method == first.method }) {
      self = .one(first.method)
    } else {
      self = .eachOwn(portfolios.map { NamedMethod(portfolio: $0.name, method: $0.method) })
    }
  }

  /// The one method, or nil when each portfolio used its own.
  public var single: CostMethod? {
    if case .one(let method) = self { return method }
    return nil
  }

  /// The method `portfolio` is booked with.
  public func method(for portfolio: Portfolio) -> CostMethod { single ?? portfolio.method }
}
