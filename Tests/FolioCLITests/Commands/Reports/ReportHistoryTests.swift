import Foundation
import Testing

@testable import FolioCLI

@Suite struct ReportHistoryTests {
  let sandbox = Sandbox()

  @Test func textShowsAChartAndOneLinePerSavedDay() throws {
    try sandbox.useReportScenario()
    #expect(sandbox.run("report", "--save").code == 0)
    let result = sandbox.run("report", "history")
    #expect(result.code == 0, "\(result.err)")
    Golden.check(result.out, "history.txt")
  }

  @Test func rangesAreInclusiveAndFormatsCarryExactValues() throws {
    try sandbox.useReportScenario()
    #expect(sandbox.run("report", "--save").code == 0)
    let csv = sandbox.run("report", "history", "--since", "2024-11-29", "--format", "csv")
    #expect(csv.code == 0)
    #expect(
      csv.out == """
        day,portfolio,currency,value,cost_basis,unrealized_pnl,realized_pnl,snapshot_at,saved_at
        2024-11-29,main,usd,58000,37563.75,20486.25,495.75,2024-11-29T12:00:00Z,2024-11-30T12:00:00Z
        2024-11-30,main,usd,52000.2,33912.75,18137.45,4091.75,2024-11-30T11:00:00Z,2024-11-30T12:00:00Z

        """)
    let json = sandbox.run(
      "report", "history", "--since", "2024-11-25", "--until", "2024-11-25", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.count == 1)
    // No snapshot had been taken by then: the value is unknown, the cost basis is not.
    #expect(days.first?["value"] is NSNull)
    #expect(days.first?["cost_basis"] as? String == "37563.75")
  }

  @Test func nothingSavedSaysHowToStart() {
    #expect(sandbox.run("db", "migrate").code == 0)
    let result = sandbox.run("report", "history")
    #expect(result.code == 0)
    #expect(result.out.contains("nothing saved yet; run 'folio report --save' daily"))
  }

  @Test func aBackwardsRangeIsRefused() {
    #expect(sandbox.run("db", "migrate").code == 0)
    let result = sandbox.run("report", "history", "--since", "2024-11-30", "--until", "2024-11-01")
    #expect(result.code == 65)
    #expect(result.err.contains("--since 2024-11-30 is after --until 2024-11-01"))
  }
}
