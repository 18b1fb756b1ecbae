import FolioTestSupport
import Foundation
import Testing

/// Coin ids from market files follow the same rule as ids typed on the command line, so a
/// page cannot store an id with control characters (which `coins list --format csv` would then
/// print raw) or one no command could name.
@Suite struct MarketCoinIDTests {
  let sandbox = Sandbox()

  @Test(arguments: ["bit\u{1B}[31mcoin", "bit\u{0}coin", "Bitcoin", "-bitcoin", "bit coin"])
  func aPageWithAnIDThatIsNotACoinIDIsRefused(id: String) throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100").code == 0)
    let before = try sandbox.dump()
    let escaped = String(data: try JSONEncoder().encode(id), encoding: .utf8) ?? "\"\""
    let page = sandbox.write(
      "page.json",
      """
      [{"id": \(escaped), "symbol": "btc", "name": "Bitcoin", "current_price": 60000,
        "last_updated": "2024-11-30T10:00:00.000Z"}]
      """)
    let result = sandbox.run("market", "import", page)
    #expect(result.code == 65, "\(result.err)")
    #expect(result.err.contains("is not a CoinGecko coin id"), "\(result.err)")
    #expect(!result.err.contains("\u{1B}"))
    #expect(try sandbox.dump() == before)
  }
}
