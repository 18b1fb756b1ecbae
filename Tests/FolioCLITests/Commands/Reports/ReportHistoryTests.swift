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
        day,portfolio,currency,value,net_flow,market_gain,change_percent,cost_basis,unrealized_pnl,realized_pnl,snapshot_at,saved_at
        2024-11-29,main,usd,58000,37068,20932,61.616566,37563.75,20486.25,495.75,2024-11-29T12:00:00Z,2024-11-30T12:00:00Z
        2024-11-30,main,usd,52000.2,-7247,1247.2,2.31299,33912.75,18137.45,4091.75,2024-11-30T11:00:00Z,2024-11-30T12:00:00Z

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

  /// 2024-11-30 was a buy of 2,351 and a sell of 9,598: the value fell by 5,999.80, yet the
  /// market gained 1,247.20 (ReturnsTests.modifiedDietzWeighsEachFlowByTheTimeLeft works it
  /// out by hand); the CHANGE is that gain, never the money moved.
  @Test func theChangeIsTheMarketGainNotTheMoneyPutInOrTakenOut() throws {
    try sandbox.useReportScenario()
    #expect(sandbox.run("report", "--save").code == 0)
    let json = sandbox.run("report", "history", "--format", "json")
    #expect(json.code == 0, "\(json.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let last = try #require((object["days"] as? [[String: Any]])?.last)
    #expect(last["net_flow"] as? String == "-7247")
    #expect(last["market_gain"] as? String == "1247.2")
    #expect(last["change_percent"] as? String == "2.31299")
    let returns = try #require(object["returns"] as? [[String: Any]])
    #expect(returns.map { $0["period"] as? String } == ["1d", "7d", "30d", "ytd", "1y", "all"])
    #expect(returns.first?["twr_percent"] as? String == "2.31299")
    #expect(returns.first?["market_gain"] as? String == "1247.2")
    // No value is known for the end of 2024-11-23: the week reads n/a and says why.
    #expect(returns[1]["twr_percent"] is NSNull)
    #expect(
      (returns[1]["twr_percent_unavailable"] as? String)?.contains("2024-11-23") == true)
    let text = sandbox.run("report", "history")
    #expect(text.out.contains("$52,000.20   -$7,247.00   +$1,247.20   +2.31%"))
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
