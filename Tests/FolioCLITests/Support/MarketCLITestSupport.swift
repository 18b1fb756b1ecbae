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

  /// Records a buy of `quantity` of `coin` at 1 in `portfolio`, so the coin is held.
  func hold(_ coin: String, _ quantity: String, portfolio: String = "main") throws {
    let result = run(
      "--portfolio", portfolio, "buy", coin, quantity, "--price", "1", "--date", "2024-01-01")
    #expect(result.code == 0, "\(result.err)")
  }
}
