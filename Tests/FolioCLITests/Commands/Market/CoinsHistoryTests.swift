import FolioTestSupport
import Testing

@testable import FolioCLI

@Suite struct CoinsHistoryTests {
  let sandbox = Sandbox()

  func importAt(_ time: String, _ price: String) {
    let file = sandbox.write(
      "btc-\(price).json",
      #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":"#
        + price + #","price_change_percentage_24h":-1.5,"market_cap":800000000000}]"#)
    #expect(sandbox.run("market", "import", "--at", time, file).code == 0)
  }

  @Test func listsEverySnapshotOldestFirst() {
    importAt("2024-11-28T12:00:00Z", "95000")
    importAt("2024-11-30T11:00:00Z", "97000.5")
    importAt("2024-11-29T12:00:00Z", "96000")
    let result = sandbox.run(["coins", "history", "btc"], environment: Sandbox.wide)
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out == """
        Bitcoin (BTC) in USD: 3 snapshot(s)

        SNAPSHOT                   PRICE     24H  MARKET CAP  SOURCE
        2024-11-28T12:00:00Z  $95,000.00  -1.50%   $800.00Bn  imported from btc-95000.json
        2024-11-29T12:00:00Z  $96,000.00  -1.50%   $800.00Bn  imported from btc-96000.json
        2024-11-30T11:00:00Z  $97,000.50  -1.50%   $800.00Bn  imported from btc-97000.5.json

        """)
  }

  @Test func sinceTakesADateOrADuration() {
    importAt("2024-11-28T12:00:00Z", "95000")
    importAt("2024-11-30T11:00:00Z", "97000.5")
    let date = sandbox.run(
      "coins", "history", "bitcoin", "--since", "2024-11-29", "--format", "csv")
    #expect(
      date.out == """
        snapshot_at,id,price,price_change_percentage_24h,market_cap,vs_currency,source,kind,day
        2024-11-30T11:00:00Z,bitcoin,97000.5,-1.5,800000000000,usd,import:\(sandbox.file("btc-97000.5.json")),snapshot,

        """)
    let duration = sandbox.run("coins", "history", "bitcoin", "--since", "3d", "--format", "json")
    #expect(duration.out.contains(#""since": "2024-11-27T12:00:00Z""#))
    #expect(duration.out.contains(#""price": "95000""#))
    #expect(sandbox.run("coins", "history", "bitcoin", "--since", "later").code == 64)
    // A duration reaching before 1970 is the whole history, not a date before year 0.
    for long in ["999999999d", "9999999999d"] {
      let all = sandbox.run("coins", "history", "bitcoin", "--since", long, "--format", "json")
      #expect(all.code == 0, "\(all.err)")
      #expect(all.out.contains(#""since": "1970-01-01T00:00:00Z""#), "\(all.out)")
      #expect(all.out.contains(#""price": "95000""#))
    }
  }

  @Test func anUnknownCoinExits66AndAStaleCacheWarns() {
    importAt("2024-11-01T00:00:00Z", "70000")
    #expect(sandbox.run("coins", "history", "ethereum").code == 66)
    let stale = sandbox.run("coins", "history", "bitcoin")
    #expect(stale.code == 0)
    #expect(stale.err.contains("is 29d12h old, older than --max-age 1d"))
  }

  @Test func aCoinWithOnlyDailyClosesListsThemAsCSV() {
    let chart = Fixtures.path("coingecko/charts/market_chart_bitcoin_usd.json")
    #expect(sandbox.run("market", "import", chart, "--coin", "bitcoin").code == 0)
    let result = sandbox.run(
      "coins", "history", "bitcoin", "--format", "csv", "--since", "2024-11-27")
    #expect(result.code == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(lines.count == 4, "\(result.out)")
    guard lines.count == 4, lines.allSatisfy({ $0.count == 9 }) else { return }
    #expect(
      lines[0]
        == [
          "snapshot_at", "id", "price", "price_change_percentage_24h", "market_cap",
          "vs_currency", "source", "kind", "day",
        ])
    let source = "import:\(chart)"
    #expect(
      lines[1]
        == [
          "2024-11-28T00:00:00Z", "bitcoin", "95962.53105221745", "", "", "usd", source,
          "daily_close", "2024-11-27",
        ])
    #expect(Array(lines[2][0...2]) == ["2024-11-29T00:00:00Z", "bitcoin", "95652.4683723181"])
    #expect(lines[2][3].hasPrefix("-0.323"), "\(lines[2])")  // 95652.47 / 95962.53 − 1
    #expect(Array(lines[2][7...8]) == ["daily_close", "2024-11-28"])
    #expect(lines[3][2] == "97461.52380164011")
    #expect(lines[3][3].hasPrefix("1.891"), "\(lines[3])")
  }
}
