import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// Backfill and past-date reports value a day at that day's closing price (issue 21): the
/// figures here are worked by hand from the trades and the closes.
@Suite struct DailyPriceValuationTests {
  let sandbox = Sandbox()

  /// 2024-02-04, the first day of the 300 (the sandbox's today is 2024-11-30).
  static let firstDay: Int64 = 1_707_004_800

  /// A saved market_chart response whose point at 00:00:00Z of 2024-02-04 + (k + 1) days closes
  /// day k (0 = 2024-02-04 ... 299 = 2024-11-29) at `close(k)` (nil: null), then one point at
  /// the sandbox's now.
  func chart(_ close: (Int) -> String?) -> String {
    var points: [String] = []
    for j in 0...300 {
      let price = j == 0 ? "1" : close(j - 1) ?? "null"
      points.append("[\((Self.firstDay + Int64(j) * 86_400) * 1000),\(price)]")
    }
    points.append("[\(Int64(sandbox.now.timeIntervalSince1970) * 1000),1]")
    return #"{"prices":[\#(points.joined(separator: ","))],"market_caps":[],"total_volumes":[]}"#
  }

  func run(_ arguments: String...) {
    let result = sandbox.run(arguments)
    #expect(result.code == 0, "\(arguments): \(result.err)")
  }

  func value(_ day: String) throws -> String {
    try sandbox.sqlite("SELECT value FROM portfolio_daily WHERE day = '\(day)'")
  }

  @Test func aBackfillOver300DaysIsQuantityTimesTheDailyClose() throws {
    run("buy", "bitcoin", "2", "--price", "30000", "--date", "2024-02-04")
    run("buy", "ethereum", "10", "--price", "2000", "--date", "2024-05-14")
    run("sell", "bitcoin", "0.5", "--price", "60000", "--date", "2024-08-22")
    // Bitcoin closes at 40000 + 100k, with no price for days 35-38 (2024-03-10 to 03-13);
    // ethereum at 2000.25 + 3k.
    let bitcoin = sandbox.write(
      "btc.json", chart { (35...38).contains($0) ? nil : "\(40000 + 100 * $0)" })
    let ethereum = sandbox.write("eth.json", chart { "\(2000 + 3 * $0).25" })
    run("market", "import", bitcoin, "--coin", "bitcoin", "--vs", "usd")
    run("market", "import", ethereum, "--coin", "ethereum", "--vs", "usd")
    // A snapshot taken on 2024-05-14 (bitcoin at 43,011.23 there): the day's close wins.
    run(
      "market", "import", Fixtures.path("coingecko/markets_usd.json"), "--at",
      "2024-05-14T12:00:00Z")

    let backfill = sandbox.run(
      "report", "backfill", "--since", "2024-02-04", "--until", "2024-11-29")
    #expect(backfill.code == 0, "\(backfill.err)")
    #expect(
      backfill.out
        == "saved 298 day(s) of portfolio 'main' from 2024-02-04 through 2024-11-29; skipped 2 "
        + "day(s) with no market snapshot or daily price within 2d before the day's end\n")
    // 2 BTC × 40000.
    #expect(try value("2024-02-04") == "80000\n")
    // 2 BTC × 50000 + 10 ETH × 2300.25 (day 100).
    #expect(try value("2024-05-14") == "123002.5\n")
    // 1.5 BTC × 60000 + 10 ETH × 2600.25 (day 200).
    #expect(try value("2024-08-22") == "116002.5\n")
    // 1.5 BTC × 69900 + 10 ETH × 2897.25 (day 299).
    #expect(try value("2024-11-29") == "133822.5\n")
    // 2024-03-10 and 03-11 take the close of 03-09 (43400, priced 03-10T00:00:00Z: within 2d
    // of their end); 03-12 and 03-13 have no price that recent: n/a, not saved.
    #expect(try value("2024-03-11") == "86800\n")
    #expect(try value("2024-03-12") == "")
    #expect(try value("2024-03-13") == "")
    #expect(
      try sandbox.sqlite("SELECT snapshot_at FROM portfolio_daily WHERE day = '2024-03-11'")
        == "2024-03-10T00:00:00Z\n")
    #expect(
      try sandbox.sqlite("SELECT snapshot_at FROM portfolio_daily WHERE day = '2024-05-14'")
        == "2024-05-15T00:00:00Z\n")

    // report history shows them.
    let history = sandbox.run("report", "history", "--since", "2024-11-29", "--format", "csv")
    #expect(history.code == 0, "\(history.err)")
    #expect(history.out.contains("2024-11-29,main,usd,133822.5,"), "\(history.out)")
  }

  @Test func aPastDateReportTakesTheDaysCloseOverAnEarlierSnapshot() throws {
    run("buy", "bitcoin", "2", "--price", "30000", "--date", "2024-02-04")
    run("buy", "ethereum", "10", "--price", "2000", "--date", "2024-05-14")
    run("sell", "bitcoin", "0.5", "--price", "60000", "--date", "2024-08-22")
    let bitcoin = sandbox.write("btc.json", chart { "\(40000 + 100 * $0)" })
    let ethereum = sandbox.write("eth.json", chart { "\(2000 + 3 * $0).25" })
    run("market", "import", bitcoin, "--coin", "bitcoin", "--vs", "usd")
    run("market", "import", ethereum, "--coin", "ethereum", "--vs", "usd")
    run(
      "market", "import", Fixtures.path("coingecko/markets_usd.json"), "--at",
      "2024-05-14T12:00:00Z")
    // 2024-08-22: the snapshot is 100 days old, the day's closes are fresh: no warning, and
    // 1.5 BTC × 60000 + 10 ETH × 2600.25.
    let report = sandbox.run("report", "--date", "2024-08-22", "--save")
    #expect(report.code == 0, "\(report.err)")
    #expect(report.err.isEmpty, "\(report.err)")
    #expect(try value("2024-08-22") == "116002.5\n")
    #expect(report.out.contains("$60,000.00†"), "\(report.out)")
    #expect(
      report.out.contains(
        "† daily closing price: BTC (2024-08-23T00:00:00Z), ETH (2024-08-23T00:00:00Z)"))
    // 24h change from the close of the day before: 60000 / 59900 − 1.
    #expect(report.out.contains("+0.17%"), "\(report.out)")
    // 2024-05-14: the snapshot of 12:00 is older than the day's close, which wins.
    let may = sandbox.run("report", "--date", "2024-05-14", "--save")
    #expect(may.code == 0, "\(may.err)")
    #expect(try value("2024-05-14") == "123002.5\n")
  }

  @Test func anOldCloseIsNeverUsedAndAFreshOneDoesNotHideAnOldSnapshot() throws {
    run("buy", "bitcoin", "1", "--price", "30000", "--date", "2024-01-01")
    run("buy", "ethereum", "10", "--price", "2000", "--date", "2024-01-01")
    run(
      "market", "import", Fixtures.path("coingecko/markets_usd.json"), "--at",
      "2024-01-24T00:00:00Z")
    // Closes of 2019-12-31 and 2020-01-01 only: far older than --max-age, never a price.
    let old = sandbox.write("old.json", #"{"prices":[[1577836800000,7000],[1577923200000,7100]]}"#)
    run("market", "import", old, "--coin", "bitcoin", "--vs", "usd")
    let stale = sandbox.run("report", "--max-age", "2d")
    #expect(stale.code == 0)
    #expect(!stale.out.contains("†"), "\(stale.out)")
    #expect(!stale.out.contains("$7,100.00"), "\(stale.out)")
    #expect(stale.out.contains("is 311d"), "\(stale.out)")
    #expect(sandbox.run("report", "--max-age", "2d", "--strict").code == 65)

    // A fresh close of bitcoin (2024-11-29, priced at 2024-11-30T00:00:00Z) prices it, but
    // ethereum is still priced from the old snapshot: the warning stands.
    let fresh = sandbox.write(
      "fresh.json", #"{"prices":[[1732838400000,90000],[1732924800000,91000],[1732968000000,1]]}"#)
    run("market", "import", fresh, "--coin", "bitcoin", "--vs", "usd")
    let mixed = sandbox.run(["report", "--max-age", "2d"], environment: Sandbox.wide)
    #expect(mixed.code == 0)
    #expect(mixed.out.contains("$91,000.00†"), "\(mixed.out)")
    #expect(mixed.out.contains("older than 2d"), "\(mixed.out)")
    #expect(sandbox.run("report", "--max-age", "2d", "--strict").code == 65)
  }

  @Test func aDayWithSomeHeldCoinsUnpricedIsNAAndTheCoinsAreNamed() throws {
    run("buy", "bitcoin", "1", "--price", "30000", "--date", "2024-11-20")
    run("buy", "ethereum", "10", "--price", "2000", "--date", "2024-11-20")
    // Ethereum has no close for 2024-11-25 to 11-27 (days 295-297); bitcoin has every one.
    let bitcoin = sandbox.write("btc.json", chart { "\(40000 + 100 * $0)" })
    let ethereum = sandbox.write(
      "eth.json", chart { (295...297).contains($0) ? nil : "\(2000 + 3 * $0).25" })
    run("market", "import", bitcoin, "--coin", "bitcoin", "--vs", "usd")
    run("market", "import", ethereum, "--coin", "ethereum", "--vs", "usd")
    let backfill = sandbox.run(
      "report", "backfill", "--since", "2024-11-20", "--until", "2024-11-29", "--max-age", "1d")
    #expect(backfill.code == 0, "\(backfill.err)")
    // 11-25 takes ethereum's close of 11-24 (priced 11-25T00:00:00Z, exactly 1d before the
    // end); 11-26 and 11-27 have none that recent: n/a, not valued at bitcoin alone.
    #expect(
      backfill.out
        == "saved 8 day(s) of portfolio 'main' from 2024-11-20 through 2024-11-29; skipped 2 "
        + "day(s) as n/a because held coins had no market snapshot or daily price within 1d "
        + "before the day's end: ethereum (2 day(s), 2024-11-26 to 2024-11-27)\n")
    #expect(try value("2024-11-26") == "")
    #expect(try value("2024-11-27") == "")
    // 1 BTC × 69500 (its close of 11-25, day 295) + 10 ETH × 2882.25 (the close of 11-24).
    #expect(try value("2024-11-25") == "98322.5\n")
  }

  /// A past day on which ethereum has a close (3 × 3000) but bitcoin only a stale snapshot:
  /// the report shows the priced part and says what is missing, and --save refuses to store
  /// 9000 as the day's value (65), as backfill leaves such a day out.
  @Test func savingAPastDayWithPartOfItsPricesIsRefused() throws {
    run("buy", "bitcoin", "1", "--price", "30000", "--date", "2024-01-01")
    run("buy", "ethereum", "3", "--price", "2000", "--date", "2024-01-01")
    run(
      "market", "import", Fixtures.path("coingecko/markets_usd.json"), "--at",
      "2024-01-24T00:00:00Z")
    let close = sandbox.write(
      "eth.json", #"{"prices":[[1709251200000,3000],[1709294400000,3100]]}"#)
    run("market", "import", close, "--coin", "ethereum", "--vs", "usd")
    let shown = sandbox.run(["report", "--date", "2024-03-01"], environment: Sandbox.wide)
    #expect(shown.code == 0, "\(shown.err)")
    #expect(shown.out.contains("Portfolio Value  $9,000.00"), "\(shown.out)")
    let saved = sandbox.run("report", "--date", "2024-03-01", "--save")
    #expect(saved.code == 65)
    #expect(
      saved.err
        == "folio: error: the value of 2024-03-01 is n/a: no market price within 1d before the "
        + "end of 2024-03-01 for bitcoin, so the day is not saved; run 'folio market history "
        + "--since 2024-03-01' for its closing prices, or give a larger --max-age\n")
    #expect(try value("2024-03-01") == "")
  }

  @Test func aPastDateWithOnlyAStaleSnapshotIsNAWithTheReason() throws {
    run("buy", "bitcoin", "1", "--price", "30000", "--date", "2024-01-01")
    run(
      "market", "import", Fixtures.path("coingecko/markets_usd.json"), "--at",
      "2024-01-24T00:00:00Z")
    // 2024-03-01: the only snapshot is 37 days older than the day's end, no close at all.
    let report = sandbox.run(
      ["report", "--date", "2024-03-01", "--save"], environment: Sandbox.wide)
    #expect(report.code == 0, "\(report.err)")
    #expect(!report.out.contains("$39,935.30"), "\(report.out)")  // bitcoin's stale price
    #expect(
      report.out.contains(
        "unpriced (held, no market price within 1d before the end of 2024-03-01, not counted "
          + "in the value): bitcoin"), "\(report.out)")
    #expect(
      report.out.contains(
        "no market price within 1d before the end of 2024-03-01 for bitcoin"), "\(report.out)")
    // The snapshot's age, and what would price the day: its daily close, not a refresh.
    #expect(
      report.out.contains(
        "is 38d old, older than 1d; run 'folio market history --since 2024-03-01' for the "
          + "closing prices of that day\n"), "\(report.out)")
    #expect(try value("2024-03-01") == "\n")  // saved as NULL: no value
    let json = sandbox.run("report", "--date", "2024-03-01", "--format", "json")
    #expect(json.code == 0)
    #expect(
      json.out.contains(
        #""unavailable": "no market price within 1d before the end of 2024-03-01 for bitcoin""#),
      "\(json.out)")
    #expect(sandbox.run("report", "--date", "2024-03-01", "--strict").code == 65)
    // Within --max-age the snapshot prices it as before.
    let wide = sandbox.run("report", "--date", "2024-03-01", "--max-age", "60d")
    #expect(wide.code == 0)
    #expect(wide.err.isEmpty, "\(wide.err)")
    #expect(!wide.out.contains("unpriced"), "\(wide.out)")
  }
}
