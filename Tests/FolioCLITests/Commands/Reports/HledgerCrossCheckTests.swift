import FolioTestSupport
import Foundation
import Testing

/// Folio's money-weighted return against hledger's `roi` (an independent implementation) on a
/// history from the project's generator, written both as folio's CSV and as a ledger journal.
/// Skipped, saying why, where hledger is missing; `.ci/run` installs it.
///
/// Compared: the annualised IRR of the whole history (folio's `all` XIRR), from the start of the
/// first trade's day to the end of the day the final prices are quoted. Tolerance: 0.05
/// percentage points, because hledger dates each flow by its day and prints two decimals, while
/// folio times flows to the second. Not compared: TWR, because hledger 1.25 (Debian's) prices
/// its TWR units from the postings to the --pnl accounts only, so without mark-to-market
/// postings its TWR ignores the price moves between flows; folio's TWR is checked by the
/// hand-worked cases of ReturnsTests and CashFlowTests.
@Suite(.requires(.hledger)) struct HledgerCrossCheckTests {
  let sandbox = Sandbox()

  @Test(arguments: [UInt64(7), 11, 23])
  func xirrAgreesWithHledgerRoi(seed: UInt64) throws {
    let hledger = try #require(ExternalTool.hledger.path)
    // Six years of trades from 2019-01-01; the clock after them.
    sandbox.now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15
    var generator = HistoryGenerator(trades: 60)
    generator.coinCount = 3
    generator.seed = seed
    // hledger's roi counts the cash that reaches Assets:Crypto; a fee paid from cash to
    // Expenses:Fees is not a flow there, while folio counts a buy's fee as money put in.
    generator.fees = false
    let data = sandbox.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    try generator.write(to: data)
    let imported = sandbox.run("import", "trades", data + "/trades.csv")
    try #require(imported.code == 0, "\(imported.err)")

    // The journal's final prices are dated the day after the last trade: quote them then.
    let journal = try String(contentsOfFile: data + "/journal.ledger", encoding: .utf8)
    let priceLine = try #require(journal.split(separator: "\n").last { $0.hasPrefix("P ") })
    let priceDay = String(priceLine.split(separator: " ")[1])
    let quoted = sandbox.run(
      "market", "import", data + "/markets.json", "--at", priceDay + "T12:00:00Z")
    try #require(quoted.code == 0, "\(quoted.err)")
    let report = sandbox.run("report", "--date", priceDay, "--format", "json")
    try #require(report.code == 0, "\(report.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.out.utf8)) as? [String: Any])
    let all = try #require(
      (object["returns"] as? [[String: Any]])?.first { $0["period"] as? String == "all" })
    let folio = try #require(Double(all["xirr_percent"] as? String ?? ""), "\(all)")

    let firstDay = try #require(
      try String(contentsOfFile: data + "/trades.csv", encoding: .utf8)
        .split(separator: "\n").dropFirst().first.map { String($0.prefix(10)) })
    let endDay = try #require(
      CalendarDayText.next(priceDay), "the day after \(priceDay)")
    let roi = try Binary.runTool(
      hledger,
      [
        "-f", data + "/journal.ledger", "roi", "--inv", "Assets:Crypto", "--pnl",
        "Income:Unrealized", "--value=then", "-b", firstDay, "-e", endDay,
      ])
    try #require(roi.code == 0, "\(roi.err)")
    // | 1 || 2019-01-01 | 2025-01-02 || 0 | $… | $… | $… || 12.36% | 12.11% |
    let row = try #require(roi.out.split(separator: "\n").first { $0.hasPrefix("| 1 ") })
    let percents = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasSuffix("%") }
    let irr = try #require(percents.first.flatMap { Double($0.dropLast()) }, "\(roi.out)")
    #expect(abs(folio - irr) <= 0.05, "folio \(folio)%, hledger \(irr)%\n\(roi.out)")
  }
}

/// The `YYYY-MM-DD` after a `YYYY-MM-DD`, by the calendar (UTC).
private enum CalendarDayText {
  static func next(_ day: String) -> String? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.date(from: day).map { formatter.string(from: $0.addingTimeInterval(86_400)) }
  }
}
