import FolioTestSupport
import Foundation
import Testing

/// Issue 14, point 5: CSV dates as exchanges write them, and `--timezone`.
@Suite struct ImportDatesTests {
  let sandbox = Sandbox()
  let header = "date,side,coin,quantity,price,fee,note\n"

  @Test func timesWithoutAZoneAndUnixTimeAreRead() throws {
    let file = sandbox.write(
      "exchange.csv",
      header + "2024-03-01 12:00:00,buy,bitcoin,1,100,0,local\n"
        + "1709380800,buy,bitcoin,1,100,0,seconds\n"
        + "1709467200000,sell,bitcoin,1,100,0,milliseconds\n"
        + "2024-03-04,buy,bitcoin,1,100,0,day\n"
        + "2024-03-05T12:00:00Z,buy,bitcoin,1,100,0,zoned\n")
    let utc = sandbox.run("import", "trades", file, "--dry-run")
    #expect(utc.code == 0, "\(utc.err)")
    let result = sandbox.run("import", "trades", file, "--timezone", "Europe/Berlin")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      try sandbox.sqlite("SELECT note, executed_at FROM trades ORDER BY id")
        == "local|2024-03-01T11:00:00Z\nseconds|2024-03-02T12:00:00Z\n"
        + "milliseconds|2024-03-03T12:00:00Z\nday|2024-03-03T23:00:00Z\n"
        + "zoned|2024-03-05T12:00:00Z\n")
    // Without --timezone, UTC: the same file is another set of instants for the two rows
    // without a zone, so those two are new trades.
    let again = sandbox.run("import", "trades", file)
    #expect(again.out == "imported 2 trade(s) from 5 row(s); skipped 3 already present\n")
    #expect(
      try sandbox.sqlite("SELECT executed_at FROM trades WHERE id > 5 ORDER BY id")
        == "2024-03-01T12:00:00Z\n2024-03-04T00:00:00Z\n")
  }

  @Test func anUnknownTimeZoneIsAUsageError() throws {
    _ = sandbox.run("db", "migrate")
    let before = try sandbox.dump()
    let file = sandbox.write("one.csv", header + "2024-03-01 12:00:00,buy,bitcoin,1,100,0,\n")
    for zone in ["Mars/Olympus", "europe/berlin", "", "+01:00"] {
      let result = sandbox.run("import", "trades", file, "--timezone", zone)
      #expect(result.code == 64, "\(zone): \(result.err)")
      #expect(
        result.err.contains(
          "invalid value '\(zone)' for --timezone: expected an IANA time zone name"),
        "\(result.err)")
    }
    #expect(try sandbox.dump() == before)
    let help = sandbox.run("import", "trades", "--help")
    let helpText = help.out.replacingOccurrences(
      of: #"\n +"#, with: " ", options: .regularExpression)
    #expect(help.out.contains("--timezone"))
    #expect(helpText.contains("(default: UTC)"))
    #expect(helpText.contains("13 digits"))
  }

  /// A local time the clocks skip or repeat, digits that are neither seconds nor
  /// milliseconds, and garbage are refused with FILE:LINE; nothing is imported.
  @Test func badDatesNameTheirLine() throws {
    _ = sandbox.run("db", "migrate")
    let before = try sandbox.dump()
    let file = sandbox.write(
      "bad.csv",
      header + "2024-03-31 02:30:00,buy,bitcoin,1,100,0,\n"
        + "2024-10-27 02:30:00,buy,bitcoin,1,100,0,\n" + "17093804001,buy,bitcoin,1,100,0,\n"
        + "2024,buy,bitcoin,1,100,0,\n" + "yesterday,buy,bitcoin,1,100,0,\n"
        + "2024-10-27 02:30:00+02:00,buy,bitcoin,1,100,0,\n")
    let result = sandbox.run("import", "trades", file, "--timezone", "Europe/Berlin")
    #expect(result.code == 65)
    for expected in [
      "\(file):2: date: '2024-03-31 02:30:00' does not exist in Europe/Berlin",
      "\(file):3: date: '2024-10-27 02:30:00' occurs twice in Europe/Berlin",
      "\(file):4: date: '17093804001' is not a date: a Unix time has 10 digits (seconds) or 13",
      "\(file):5: date: '2024' is not a date: a Unix time has 10 digits",
      "\(file):6: date: 'yesterday' is not a date",
    ] {
      #expect(result.err.contains(expected), "\(result.err)")
    }
    #expect(!result.err.contains("\(file):7:"))
    #expect(try sandbox.dump() == before)
  }
}
