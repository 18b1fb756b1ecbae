import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

extension Sandbox {
  /// Imports the USD fixtures (markets page, /global, bitcoin and ethereum details).
  func importUSDFixtures() {
    let result = run(
      ["market", "import"]
        + [
          "coingecko/markets_usd.json", "coingecko/global_usd.json", "coingecko/coin_bitcoin.json",
          "coingecko/coin_ethereum.json",
        ].map(Fixtures.path))
    #expect(result.code == 0, "\(result.err)")
  }

  /// Records a current position the way the trades tables hold it.
  func hold(_ coin: String, _ quantity: String, portfolio: String = "main") throws {
    _ = try sqlite(
      """
      INSERT INTO positions (portfolio_id, coin_id, quantity, cost_basis, realized_pnl,
        last_trade_at, last_price, method)
      SELECT id, '\(coin)', '\(quantity)', '0', '0', '2024-01-01T00:00:00Z', '1', 'fifo'
      FROM portfolios WHERE name = '\(portfolio)'
      """)
  }
}
