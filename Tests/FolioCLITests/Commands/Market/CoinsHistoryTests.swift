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
    let result = sandbox.run("coins", "history", "btc")
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
        snapshot_at,id,price,price_change_percentage_24h,market_cap,vs_currency,source
        2024-11-30T11:00:00Z,bitcoin,97000.5,-1.5,800000000000,usd,import:\(sandbox.file("btc-97000.5.json"))

        """)
    let duration = sandbox.run("coins", "history", "bitcoin", "--since", "3d", "--format", "json")
    #expect(duration.out.contains(#""since": "2024-11-27T12:00:00Z""#))
    #expect(duration.out.contains(#""price": "95000""#))
    #expect(sandbox.run("coins", "history", "bitcoin", "--since", "later").code == 64)
  }

  @Test func anUnknownCoinExits66AndAStaleCacheWarns() {
    importAt("2024-11-01T00:00:00Z", "70000")
    #expect(sandbox.run("coins", "history", "ethereum").code == 66)
    let stale = sandbox.run("coins", "history", "bitcoin")
    #expect(stale.code == 0)
    #expect(stale.err.contains("is 29d12h old, older than --max-age 1d"))
  }
}
