import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct ReportBackfillTests {
  let sandbox = Sandbox()

  @Test func fillsTheMissingDaysThroughToday() throws {
    try sandbox.useReportScenario()  // saves 2024-11-25 through 2024-11-29
    let result = sandbox.run("report", "backfill", "--since", "2024-11-20")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out
        == "saved 1 day(s) of portfolio 'main' from 2024-11-20 through 2024-11-30; "
        + "5 day(s) were already saved; skipped 5 day(s) with no market snapshot or daily price within "
        + "2d before the day's end\n")
    #expect(
      try sandbox.sqlite("SELECT min(day), max(day), count(*) FROM portfolio_daily")
        == "2024-11-25|2024-11-30|6\n")
    // Running it again changes nothing.
    let before = try sandbox.dump()
    let again = sandbox.run("report", "backfill", "--since", "2024-11-20")
    #expect(again.out.hasPrefix("saved 0 day(s)"))
    #expect(try sandbox.dump() == before)
  }

  @Test func replaceRecomputesSavedDays() throws {
    try sandbox.useReportScenario()
    #expect(
      try sandbox.sqlite("UPDATE portfolio_daily SET value = '1' WHERE day = '2024-11-29'").isEmpty)
    let result = sandbox.run(
      "report", "backfill", "--since", "2024-11-29", "--until", "2024-11-29", "--replace")
    #expect(result.code == 0)
    #expect(
      try sandbox.sqlite("SELECT value FROM portfolio_daily WHERE day = '2024-11-29'") == "58000\n")
  }

  @Test func sinceIsRequiredAndTheFutureIsRefused() throws {
    try sandbox.useReportScenario()
    let before = try sandbox.dump()
    let missing = sandbox.run("report", "backfill")
    #expect(missing.code == 64)
    #expect(missing.err.hasPrefix("folio: error: missing option '--since <yyyy-mm-dd>'\n"))
    let future = sandbox.run("report", "backfill", "--since", "2024-11-01", "--until", "2025-01-01")
    #expect(future.code == 65)
    // A --since after today is named as a day in the future, not as a range after a --until
    // that was not given.
    let late = sandbox.run("report", "backfill", "--since", "2030-01-01")
    #expect(late.code == 65)
    #expect(
      late.err
        == "folio: error: 2030-01-01 is in the future (today is 2024-11-30 in UTC); give a day "
        + "up to today\n")
    #expect(try sandbox.dump() == before)
  }

  // MARK: - Issue 13 point 3: stale snapshots and saved history

  /// `market prune` then `backfill --replace`: the saved days have no snapshot left within
  /// --max-age, so they are skipped and keep their rows (known values are never replaced by
  /// n/a), and the summary says so.
  @Test func replaceAfterPruneKeepsTheSavedHistory() throws {
    try sandbox.useReportScenario()  // saves 2024-11-25 through 2024-11-29 (29th: 58000)
    let pruned = sandbox.run("market", "prune", "--keep-days", "0")
    #expect(pruned.code == 0, "\(pruned.err)")
    let before = try sandbox.dump()
    let result = sandbox.run(
      "report", "backfill", "--since", "2024-11-25", "--until", "2024-11-29", "--replace")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out
        == "saved 0 day(s) of portfolio 'main' from 2024-11-25 through 2024-11-29; skipped 5 "
        + "day(s) with no market snapshot or daily price within 2d before the day's end (5 of them kept "
        + "their saved row)\n")
    #expect(try sandbox.dump() == before)
    #expect(
      try sandbox.sqlite("SELECT value FROM portfolio_daily WHERE day = '2024-11-29'")
        == "58000\n")
  }

  /// One old snapshot values only the days within --max-age (default 2d) of it; the later days
  /// are skipped and counted. A snapshot taken after a day's end never values that day.
  @Test func aDayIsValuedOnlyWithASnapshotTakenWithinMaxAgeBeforeItsEnd() throws {
    let page = sandbox.write(
      "markets.json",
      sandbox.marketsPage(bitcoin: ("70000", nil), ethereum: ("2600", nil), solana: ("150", nil)))
    for step in [
      ["market", "import", page, "--at", "2024-11-01T12:00:00Z"],
      ["buy", "bitcoin", "1", "--price", "60000", "--date", "2024-10-01"],
    ] {
      let result = sandbox.run(step)
      #expect(result.code == 0, "\(step): \(result.err)")
    }
    let result = sandbox.run("report", "backfill", "--since", "2024-10-31")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out
        == "saved 2 day(s) of portfolio 'main' from 2024-10-31 through 2024-11-30; skipped 29 "
        + "day(s) with no market snapshot or daily price within 2d before the day's end\n")
    // 10-31 ends before the snapshot; 11-03 ends 60 hours after it.
    #expect(
      try sandbox.sqlite("SELECT day, value, snapshot_at FROM portfolio_daily ORDER BY day")
        == "2024-11-01|70000|2024-11-01T12:00:00Z\n2024-11-02|70000|2024-11-01T12:00:00Z\n")
    // A longer --max-age fills the rest.
    let longer = sandbox.run("report", "backfill", "--since", "2024-10-31", "--max-age", "30d")
    #expect(longer.code == 0, "\(longer.err)")
    #expect(
      longer.out
        == "saved 28 day(s) of portfolio 'main' from 2024-10-31 through 2024-11-30; 2 day(s) "
        + "were already saved; skipped 1 day(s) with no market snapshot or daily price within 30d "
        + "before the day's end\n")
    let bad = sandbox.run("report", "backfill", "--since", "2024-10-31", "--max-age", "soon")
    #expect(bad.code == 64)
  }

  /// Days outside 1970-01-01 … 9999-12-31 are usage errors that say so, in every command that
  /// takes a day or a time to store; never a raw CHECK-constraint message.
  @Test func daysOutsideTheStoredYearsAreExplained() throws {
    try sandbox.useReportScenario()
    let before = try sandbox.dump()
    let markets = Fixtures.path("coingecko/markets_usd.json")
    let cases: [[String]] = [
      ["report", "backfill", "--since", "0001-01-01"],
      ["report", "backfill", "--since", "1969-12-31", "--until", "1970-01-01"],
      ["report", "--date", "1969-12-31", "--save"],
      ["report", "history", "--since", "0001-01-01"],
      ["market", "import", markets, "--at", "0001-01-01T00:00:00Z"],
      ["market", "import", markets, "--at", "9999-12-31T23:00:00-14:00"],
    ]
    for arguments in cases {
      let result = sandbox.run(arguments)
      #expect(result.code == 64, "\(arguments)")
      #expect(result.err.contains("from 1970"), "\(arguments): \(result.err)")
      #expect(!result.err.contains("CHECK"), "\(arguments)")
    }
    for arguments in [
      ["buy", "bitcoin", "1", "--price", "1", "--date", "0001-01-01"],
      ["tx", "list", "--since", "1969-12-31"],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.err.contains("outside the years 1970 to 9999"), "\(arguments)")
    }
    #expect(try sandbox.dump() == before)
  }
}
