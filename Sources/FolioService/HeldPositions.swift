import FolioStorage

/// The coins a portfolio holds now, as market data needs them (`coins list` holdings and the
/// held coins `market refresh` must fetch).
///
/// This is the one place market code reads the trades tables, so it can be swapped for the
/// trades service's own function later.
public enum HeldPositions {
  /// The non-zero quantity per coin id of portfolio `portfolio`, read from `positions`.
  /// Throws `MarketError.unknownPortfolio` (exit 65) when no portfolio has that name.
  public static func quantities(_ store: Store, portfolio: String) throws -> [String: ExactDecimal]
  {
    let database = store.database
    guard
      let portfolioID = try database.scalarInt(
        "SELECT id FROM portfolios WHERE name = ?", [portfolio])
    else {
      let names = try database.rows("SELECT name FROM portfolios ORDER BY name") {
        $0.text(0) ?? ""
      }
      throw MarketError.unknownPortfolio(portfolio, known: names)
    }
    var held: [String: ExactDecimal] = [:]
    let rows = try database.rows(
      "SELECT coin_id, quantity FROM positions WHERE portfolio_id = ?", [portfolioID]
    ) { row in (row.text(0) ?? "", try row.decimal(1) ?? .zero) }
    for (coinID, quantity) in rows where !quantity.isZero {
      held[coinID] = quantity
    }
    return held
  }
}
