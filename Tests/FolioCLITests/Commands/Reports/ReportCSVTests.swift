import Foundation
import Testing

/// Issue 18, point 4: `report --format csv` accounts for every realized profit, closed
/// positions included, so its realized_pnl column sums to the all-time realized profit.
@Suite struct ReportCSVTests {
  let sandbox = Sandbox()

  @Test func realizedColumnSumsToTheAllTimeRealizedProfit() throws {
    let steps: [[String]] = [
      ["buy", "bitcoin", "1", "--price", "40000", "--fee", "10", "--date", "2024-01-01"],
      ["sell", "bitcoin", "0.5", "--price", "50000", "--fee", "5", "--date", "2024-02-01"],
      // Closed: bought and sold out, realized 2 × (3000 − 2500) − 4 − 6 = 990.
      ["buy", "ethereum", "2", "--price", "2500", "--fee", "4", "--date", "2024-03-01"],
      ["sell", "ethereum", "2", "--price", "3000", "--fee", "6", "--date", "2024-04-01"],
      // Closed at a loss: 100 × (0.25 − 0.5) = −25.
      ["buy", "obscure-coin", "100", "--price", "0.5", "--date", "2024-05-01", "--new-coin"],
      ["sell", "obscure-coin", "100", "--price", "0.25", "--date", "2024-06-01"],
    ]
    for step in steps { #expect(sandbox.run(step).code == 0, "\(step)") }
    let json = sandbox.run("report", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let realized = try #require(object["realized_pnl"] as? [String: Any])
    // bitcoin: 0.5 × 50000 − 5 − (40010 / 2) = 4990; + 990 − 25.
    #expect(realized["all_time"] as? String == "5955")

    let csv = sandbox.run("report", "--format", "csv")
    #expect(csv.code == 0, "\(csv.err)")
    let lines = csv.out.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let column = try #require(header.firstIndex(of: "realized_pnl"))
    let quantity = try #require(header.firstIndex(of: "quantity"))
    var byCoin: [String: (String, String)] = [:]
    for line in lines.dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      byCoin[fields[3]] = (fields[quantity], fields[column])
    }
    #expect(byCoin["bitcoin"]?.0 == "0.5" && byCoin["bitcoin"]?.1 == "4990")
    #expect(byCoin["ethereum"]?.0 == "0" && byCoin["ethereum"]?.1 == "990")
    #expect(byCoin["obscure-coin"]?.0 == "0" && byCoin["obscure-coin"]?.1 == "-25")
    #expect(byCoin.count == 3)
  }

  @Test func aPositionClosedAfterTheDayIsStillHeldThatDay() throws {
    let steps: [[String]] = [
      ["buy", "ethereum", "2", "--price", "2500", "--date", "2024-03-01"],
      ["sell", "ethereum", "2", "--price", "3000", "--date", "2024-04-01"],
    ]
    for step in steps { #expect(sandbox.run(step).code == 0, "\(step)") }
    let before = sandbox.run("report", "--date", "2024-03-15", "--format", "csv").out
    let lines = before.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }.filter { $0 != [""] }
    let header = try #require(lines.first)
    let rows = lines.dropFirst()
    #expect(rows.count == 1)
    let row = try #require(rows.first)
    let realized = try #require(header.firstIndex(of: "realized_pnl"))
    #expect(row[header.firstIndex(of: "coin") ?? 0] == "ethereum")
    #expect(row[realized] == "0", "\(rows)")  // held, nothing realized yet
  }
}
