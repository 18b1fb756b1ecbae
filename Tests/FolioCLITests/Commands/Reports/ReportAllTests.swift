import Foundation
import Testing

/// `report --portfolio all` (issue 15, part 4): every portfolio of one currency as one, with
/// transfers between them netting out. Figures worked by hand.
@Suite struct ReportAllTests {
  let sandbox = Sandbox()

  /// main buys 1 BTC at 100 (2024-01-01) and sends 0.4 to cold (01-02); cold buys 2 ETH at 10
  /// (01-02). Quoted on 01-03 12:00: BTC 150, ETH 20. The transfer's flow is 0.4 × 150 = 60
  /// (the nearest quote, 36 hours later), out of main and into cold.
  /// main: value 0.6 × 150 = 90, net flow 100 − 60 = 40, market gain 50.
  /// cold: value 0.4 × 150 + 2 × 20 = 100, net flow 60 + 20 = 80, market gain 20.
  /// all: value 190, net flow 120 (the transfer nets out), market gain 70 = 50 + 20.
  init() throws {
    let quotes = sandbox.write(
      "markets.json",
      """
      [{"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 150,
        "market_cap_rank": 1},
       {"id": "ethereum", "symbol": "eth", "name": "Ethereum", "current_price": 20,
        "market_cap_rank": 2}]
      """)
    for step in [
      ["portfolio", "add", "cold"],
      ["buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01"],
      ["transfer", "bitcoin", "0.4", "--from", "main", "--to", "cold", "--date", "2024-01-02"],
      ["--portfolio", "cold", "buy", "ethereum", "2", "--price", "10", "--date", "2024-01-02"],
      ["market", "import", quotes, "--at", "2024-01-03T12:00:00Z"],
    ] {
      let result = sandbox.run(step)
      try #require(result.code == 0, "\(step): \(result.err)")
    }
  }

  func report(_ portfolio: String) throws -> [String: Any] {
    let result = sandbox.run(
      "--portfolio", portfolio, "report", "--date", "2024-01-03", "--format", "json")
    try #require(result.code == 0, "\(result.err)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }

  /// (net flow, market gain) of the period `all`.
  func sinceInception(_ report: [String: Any]) -> [String] {
    let all = (report["returns"] as? [[String: Any]])?.first { $0["period"] as? String == "all" }
    return ["net_flow", "market_gain"].map { all?[$0] as? String ?? "?" }
  }

  @Test func allIsTheSumOfThePortfoliosWithTransfersNettingOut() throws {
    #expect(sinceInception(try report("main")) == ["40", "50"])
    #expect(sinceInception(try report("cold")) == ["80", "20"])
    let all = try report("all")
    #expect(sinceInception(all) == ["120", "70"])
    let holdings = try #require(all["holdings"] as? [[String: Any]])
    #expect(
      holdings.map { row in
        ["coin", "quantity", "value", "cost_basis"].map { row[$0] as? String ?? "?" }
      } == [["bitcoin", "1", "150", "100"], ["ethereum", "2", "40", "20"]])
    let trades = sandbox.run("--portfolio", "all", "report", "--date", "2024-01-02")
    #expect(trades.code == 0, "\(trades.err)")
    #expect(trades.out.contains("transfer-out"), "\(trades.out)")
    #expect(trades.out.contains("transfer-in"), "\(trades.out)")
  }

  @Test func allRefusesMixedCurrenciesAndSave() throws {
    let save = sandbox.run("--portfolio", "all", "report", "--date", "2024-01-03", "--save")
    #expect(save.code == 65)
    #expect(save.err.contains("--save stores one portfolio's figures"), "\(save.err)")
    #expect(sandbox.run("portfolio", "add", "euro", "--currency", "eur").code == 0)
    let mixed = sandbox.run("--portfolio", "all", "report", "--date", "2024-01-03")
    #expect(mixed.code == 65)
    #expect(
      mixed.err
        == "folio: error: --portfolio all combines portfolios of one currency, but theirs "
        + "differ: cold (USD), euro (EUR), main (USD); name one portfolio with --portfolio NAME\n")
    #expect(mixed.out.isEmpty)
  }
}
