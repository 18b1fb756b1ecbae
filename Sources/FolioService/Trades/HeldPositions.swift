import FolioStorage

/// The coins a portfolio holds now, as market data needs them (`coins list` holdings and the
/// held coins `market refresh` must fetch).
public enum HeldPositions {
  /// The non-zero quantity per coin id of portfolio `portfolio`, from its stored positions.
  /// Throws `PortfolioError.notFound` (exit 65) when no portfolio has that name.
  public static func quantities(_ store: Store, portfolio: String) throws -> [String: ExactDecimal]
  {
    let owner = try PortfolioService(store).resolve(portfolio)
    var held: [String: ExactDecimal] = [:]
    for position in try DerivedTables(store.database).positions(portfolioID: owner.id)
    where !position.quantity.isZero {
      held[position.coinID] = position.quantity
    }
    return held
  }
}
