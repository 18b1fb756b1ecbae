import Foundation
import Testing

@testable import FolioCLI

@Suite struct StatsTests {
  let sandbox = Sandbox()

  @Test func textStatisticsMatchTheGoldenFile() throws {
    try sandbox.useReportScenario()
    let result = sandbox.run("stats")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    Golden.check(result.out, "stats.txt")
  }

  @Test func jsonKeepsExactDecimalsAndReasons() throws {
    try sandbox.useReportScenario()
    let result = sandbox.run("stats", "--format", "json")
    #expect(result.code == 0, "\(result.err)")
    Golden.check(result.out, "stats.json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let statistics = try #require(object["statistics"] as? [String: Any])
    let value = try #require(statistics["portfolio_value"] as? [String: Any])
    #expect(value["value"] as? String == "52000.2")
    let change = try #require(statistics["portfolio_change_24h_percent"] as? [String: Any])
    #expect(change["value"] is NSNull)
    #expect((change["unavailable"] as? String)?.contains("obscure-coin") == true)
    #expect(statistics["unpriced"] as? [String] == ["obscure-coin"])
  }

  @Test func anEmptyDatabaseReadsNotAvailableWithReasons() {
    #expect(sandbox.run("db", "migrate").code == 0)
    let result = sandbox.run("stats")
    #expect(result.code == 0)
    #expect(
      result.out == """
        Statistics of portfolio 'main' (USD)

        STATISTIC        VALUE  24H
        Market Cap         n/a  n/a
        24h Volume         n/a
        BTC Dominance      n/a
        Portfolio Value  $0.00  n/a

        Market Cap, Market Cap 24h change, 24h Volume, BTC Dominance n/a: no /global
          snapshot is cached; run 'folio market refresh' (online) or
          'folio market import FILE'
        Portfolio Value 24h change n/a: the portfolio holds no coins

        """)
  }

  @Test func aStaleSnapshotWarnsOrFailsWithStrict() {
    sandbox.importUSDFixtures()
    let warned = sandbox.run("stats")
    #expect(warned.code == 0)
    #expect(
      warned.err.hasPrefix("folio: warning: the latest market snapshot (2024-01-24T00:28:58Z)"))
    let strict = sandbox.run("stats", "--strict")
    #expect(strict.code == 65)
    #expect(strict.out.isEmpty)
  }
}
