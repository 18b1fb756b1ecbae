import Foundation
import Testing

@testable import FolioCLI

@Suite struct CoinsShowTests {
  let sandbox = Sandbox()
  let fresh = ["--max-age", "400d"]

  @Test func showsOverviewStatisticsChartDescriptionAndLinks() {
    sandbox.importUSDFixtures()
    let result = sandbox.run(["coins", "show", "BTC"] + fresh)
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    let lines = result.out.components(separatedBy: "\n")
    #expect(lines.first == "Bitcoin (BTC)  ·  bitcoin")
    #expect(lines[1] == "Prices in USD as of 2024-01-24T00:28:58Z (imported from markets_usd.json)")
    for expected in [
      "  Current price           $39,935.30",
      "  Market cap              $781.52Bn (+0.29%)",
      "  Rank                    #1",
      "  Volume                  $29.49Bn",
      "  24h high                $40,089.90",
      "  24h low                 $38,594.10",
      "  24h price change        $250.661 (+0.63%)",
      "  24h market cap change   $2.26Bn (+0.29%)",
      "  Block time              10 min",
      "  Hashing algorithm       SHA-256",
      "7 days  $40,274.93 → $39,935.30 (-0.84%)",
      "About (details as of 2024-01-24T00:28:42Z)",
      "  Homepage   http://www.bitcoin.org",
      "  Subreddit  https://www.reddit.com/r/Bitcoin/",
    ] {
      #expect(lines.contains(expected), "missing line: \(expected)")
    }
    // The chart: six rows of block characters between the high and the low.
    let chart = lines.filter { $0.contains(" ┤") }
    #expect(chart.count == 6)
    #expect(chart.first?.hasPrefix("  $40,412.46 ┤") == true)  // 40412.465, half to even
    #expect(chart.last?.hasPrefix("  $38,223.04 ┤") == true)
    #expect(chart.last?.contains("█") == true)
    // The description is plain text, wrapped.
    #expect(!result.out.contains("<a"))
    #expect(result.out.contains("running the SHA-256 proof-of-work algorithm"))
    #expect(lines.allSatisfy { $0.count <= 80 })
  }

  @Test func aCoinWithoutDetailsSaysHowToFetchThem() {
    sandbox.importUSDFixtures()
    let result = sandbox.run(["coins", "show", "solana"] + fresh)
    #expect(result.code == 0)
    #expect(result.out.contains("Solana (SOL)  ·  solana"))
    #expect(result.out.contains("No details cached; run 'folio coins show solana --refresh'"))
  }

  @Test func jsonHasTheFieldsTheSparklineAndTheDetails() throws {
    sandbox.importUSDFixtures()
    let result = sandbox.run(["coins", "show", "ethereum", "--format", "json"] + fresh)
    #expect(result.code == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(object["id"] as? String == "ethereum")
    #expect(object["current_price"] as? String == "2240.97")
    #expect(object["snapshot_at"] as? String == "2024-01-24T00:28:58Z")
    #expect((object["sparkline_7d"] as? [String])?.count == 168)
    let details = try #require(object["details"] as? [String: Any])
    #expect(details["hashing_algorithm"] as? String == "Ethash")
    #expect((details["description"] as? String)?.contains("<") == false)
  }

  @Test func unknownCoinsExit66AndAnAmbiguousSymbolTakesTheBestRank() throws {
    sandbox.importUSDFixtures()
    let unknown = sandbox.run("coins", "show", "nocoin")
    #expect(unknown.code == 66)
    #expect(unknown.err.hasPrefix("folio: error: no cached market data or details for 'nocoin'"))
    let invalid = sandbox.run("coins", "show", "no coin")
    #expect(invalid.code == 64)
    let twins = sandbox.write(
      "twins.json",
      #"[{"id":"alpha-one","symbol":"alp","name":"A","current_price":1,"market_cap_rank":7},{"id":"alpha-two","symbol":"alp","name":"B","current_price":2,"market_cap_rank":3}]"#
    )
    #expect(sandbox.run("market", "import", twins).code == 0)
    let ambiguous = sandbox.run("coins", "show", "ALP")
    #expect(ambiguous.code == 0)
    #expect(
      ambiguous.err
        == "folio: note: 'ALP' is the symbol of 2 coins; chose 'alpha-two' (B, ALP, rank 3) over "
        + "'alpha-one' (A, ALP, rank 7); give the id to choose another\n")
    #expect(ambiguous.out.contains("alpha-two"))
  }

  @Test func staleStrictRefusesBeforePrinting() {
    sandbox.importUSDFixtures()
    let result = sandbox.run("coins", "show", "bitcoin", "--strict")
    #expect(result.code == 65)
    #expect(result.out.isEmpty)
  }
}
