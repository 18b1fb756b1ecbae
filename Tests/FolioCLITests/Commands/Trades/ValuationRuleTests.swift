import Foundation
import Testing

/// Issue 18, point 3: one valuation rule. A held coin without a market quote is left out of
/// the totals and listed as unpriced by every command and by `v_holdings`.
@Suite struct ValuationRuleTests {
  let sandbox = Sandbox()

  init() throws { try sandbox.useReportScenario() }

  func object(_ arguments: String...) throws -> [String: Any] {
    let result = sandbox.run(arguments)
    #expect(result.code == 0, "\(arguments): \(result.err)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }

  @Test func holdingsReportStatsAndTheViewAgreeOnTheValue() throws {
    // 0.4 × 97000.5 + 3 × 3600 + 10 × 240; obscure-coin (100 bought at 0.5) has no quote.
    let expected = "52000.2"
    let holdings = try object("holdings", "--format", "json")
    let totals = try #require(holdings["totals"] as? [String: Any])
    #expect(totals["value"] as? String == expected)
    // Unrealized of the priced coins only: 52000.20 − (24008 + 7503.75 + 2351).
    #expect(totals["unrealized_pnl"] as? String == "18137.45")
    #expect(totals["cost_basis"] as? String == "33912.75")
    #expect(holdings["unpriced"] as? [String] == ["obscure-coin"])
    let rows = try #require(holdings["holdings"] as? [[String: Any]])
    let obscure = try #require(rows.first { $0["coin"] as? String == "obscure-coin" })
    #expect(obscure["price"] is NSNull && obscure["value"] is NSNull)
    #expect(obscure["price_source"] is NSNull && obscure["share"] is NSNull)
    #expect(obscure["unavailable"] as? String == "no market price is cached for obscure-coin")

    let stats = try object("stats", "--format", "json")
    let statistics = try #require(stats["statistics"] as? [String: Any])
    let value = try #require(statistics["portfolio_value"] as? [String: Any])
    #expect(value["value"] as? String == expected)

    let report = try object("report", "--format", "json")
    let reportTotals = try #require(report["totals"] as? [String: Any])
    #expect(reportTotals["value"] as? String == expected, "\(reportTotals)")

    let view = try sandbox.sqliteJSON(
      "SELECT round(sum(value_real), 2) AS value, count(price) AS priced, "
        + "sum(price_source IS NULL) AS unpriced FROM v_holdings WHERE quantity <> '0'")
    #expect((view.first?["value"] as? NSNumber)?.doubleValue == 52000.2)
    #expect((view.first?["priced"] as? NSNumber)?.intValue == 3)
    #expect((view.first?["unpriced"] as? NSNumber)?.intValue == 1)
  }

  @Test func holdingsTextShowsThePriceTimeAndListsTheUnpricedCoin() {
    let result = sandbox.run("holdings")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    #expect(
      result.out.contains(
        "Prices in USD as of 2024-11-30T11:00:00Z (imported from markets-30.json)"))
    #expect(
      result.out.contains(
        "unpriced (held, no market price cached, not counted in the value): obscure-coin"))
    #expect(!result.out.contains("last trade"))
    let obscure = result.out.split(separator: "\n").first { $0.hasPrefix("obscure-coin") } ?? ""
    // COIN QUANTITY AVG-COST COST-BASIS PRICE VALUE …: no price, no value (not 0.50 and 50.00).
    let fields = obscure.split(separator: " ")
    #expect(fields.count > 5 && fields[4] == "n/a" && fields[5] == "n/a", "\(obscure)")
  }

  @Test func holdingsWarnsOnAStaleSnapshotAndStrictRefusesIt() {
    sandbox.now = Date(timeIntervalSince1970: 1_733_140_800)  // 2024-12-02T12:00:00Z
    let warned = sandbox.run("holdings")
    #expect(warned.code == 0)
    #expect(warned.err.contains("warning"), "\(warned.err)")
    #expect(warned.err.contains("2024-11-30T11:00:00Z"), "\(warned.err)")
    let fresh = sandbox.run("holdings", "--max-age", "7d")
    #expect(fresh.code == 0 && fresh.err.isEmpty, "\(fresh.err)")
    let strict = sandbox.run("holdings", "--strict")
    #expect(strict.code == 65, "\(strict.err)")
    #expect(strict.out.isEmpty)
  }

  @Test func aPriceFromAnOlderSnapshotIsMarked() {
    // A newer snapshot without ethereum and solana: their prices are the older ones.
    let page = sandbox.write(
      "btc-only.json",
      """
      [{"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 98000,
        "market_cap_rank": 1}]
      """)
    #expect(sandbox.run("market", "import", page, "--at", "2024-11-30T11:30:00Z").code == 0)
    let out = sandbox.run("holdings").out
    #expect(
      out.contains("* price from an older snapshot: ethereum (2024-11-30T11:00:00Z)"), "\(out)")
    let ethereum = out.split(separator: "\n").first { $0.hasPrefix("ethereum") } ?? ""
    #expect(ethereum.contains("*"), "\(ethereum)")
  }
}
