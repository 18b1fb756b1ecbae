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
        == "saved 6 day(s) of portfolio 'main' from 2024-11-20 through 2024-11-30; "
        + "5 day(s) were already saved\n")
    #expect(
      try sandbox.sqlite("SELECT min(day), max(day), count(*) FROM portfolio_daily")
        == "2024-11-20|2024-11-30|11\n")
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
    #expect(missing.err.hasPrefix("folio: error: missing --since\n"))
    let future = sandbox.run("report", "backfill", "--since", "2024-11-01", "--until", "2025-01-01")
    #expect(future.code == 65)
    #expect(try sandbox.dump() == before)
  }
}
