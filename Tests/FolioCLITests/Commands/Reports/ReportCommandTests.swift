import FolioService
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct ReportCommandTests {
  let sandbox = Sandbox()

  init() throws { try sandbox.useReportScenario() }

  // MARK: - Content per format (golden files)

  @Test(arguments: ["text", "md", "json", "csv", "html"])
  func todaysReportMatchesTheGoldenFile(format: String) {
    let result = sandbox.run("report", "--format", format)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    let ending = format == "text" ? "txt" : format
    // The JSON names the file each snapshot was imported from, in a folder made for the run.
    let output = result.out.replacingOccurrences(
      of: ReportScenario.template.importedFrom, with: "/SCENARIO")
    Golden.check(output, "report-2024-11-30.\(ending)")
  }

  @Test func aPastDayMatchesTheGoldenFile() {
    let result = sandbox.run("report", "--date", "2024-11-29", "--format", "md")
    #expect(result.code == 0, "\(result.err)")
    Golden.check(result.out, "report-2024-11-29.md")
  }

  @Test func theTextReportStatesTheFiguresWorkedOutByHand() {
    let out = sandbox.run(["report"], environment: Sandbox.wide).out
    let lines = out.split(separator: "\n").map(String.init)
    func line(_ label: String) -> String { lines.first { $0.hasPrefix(label + " ") } ?? "" }
    // 0.4 × 97000.5 + 3 × 3600 + 10 × 240; obscure-coin has no price.
    #expect(line("Portfolio Value").hasSuffix(" $52,000.20     n/a"))
    #expect(
      out.contains(
        "unpriced (held, no market price cached, not counted in the value): obscure-coin"))
    // Realized: 3596 today, 495.75 earlier in November.
    #expect(line("Day").hasSuffix(" +$3,596.00"))
    #expect(line("Month to date").hasSuffix(" +$4,091.75"))
    #expect(line("All time").hasSuffix(" +$4,091.75"))
    // Cost basis: 24008 + 7503.75 + 2351 + 50; unrealized of the priced coins.
    #expect(
      line("TOTAL").hasSuffix(" $52,000.20     n/a                       $33,912.75  +$18,137.45"))
    #expect(
      out.contains("Prices in USD as of 2024-11-30T11:00:00Z (imported from markets-30.json)"))
    #expect(!out.contains("warning"))
  }

  // MARK: - --date

  @Test func dateReportsAsOfTheEndOfThatDay() throws {
    let result = sandbox.run("report", "--date", "2024-11-29", "--format", "json")
    #expect(result.code == 0, "\(result.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(object["day"] as? String == "2024-11-29")
    #expect((object["snapshot"] as? [String: Any])?["at"] as? String == "2024-11-29T12:00:00Z")
    let holdings = try #require(object["holdings"] as? [[String: Any]])
    // Today's solana buy and bitcoin sell are not in it yet.
    #expect(holdings.map { $0["coin"] as? String } == ["bitcoin", "ethereum", "obscure-coin"])
    #expect(holdings.first?["quantity"] as? String == "0.5")
    #expect(holdings.first?["price"] as? String == "95000")
    let trades = try #require(object["trades"] as? [Any])
    #expect(trades.isEmpty)
    // No /global snapshot was taken by then.
    let statistics = try #require(object["statistics"] as? [String: Any])
    let cap = try #require(statistics["market_cap"] as? [String: Any])
    #expect(cap["value"] is NSNull)
    #expect(
      cap["unavailable"] as? String == "no /global snapshot was taken by the end of 2024-11-29")
  }

  @Test func aFutureOrMalformedDateIsRefused() throws {
    let before = try sandbox.dump()
    let future = sandbox.run("report", "--date", "2024-12-01", "--save")
    #expect(future.code == 65)
    #expect(
      future.err
        == "folio: error: 2024-12-01 is in the future (today is 2024-11-30 in UTC); "
        + "give a day up to today\n")
    let malformed = sandbox.run("report", "--date", "30/11/2024")
    #expect(malformed.code == 64)
    #expect(malformed.err.hasPrefix("folio: error: invalid value '30/11/2024' for --date"))
    #expect(try sandbox.dump() == before)
  }

  // MARK: - --save

  @Test func saveIsIdempotentForTheSameDay() throws {
    #expect(sandbox.run("report", "--save").code == 0)
    let first = try sandbox.sqlite("SELECT * FROM portfolio_daily WHERE day = '2024-11-30'")
    #expect(sandbox.run("report", "--save", "--format", "json").code == 0)
    #expect(try sandbox.sqlite("SELECT * FROM portfolio_daily WHERE day = '2024-11-30'") == first)
    #expect(
      first
        == "1|2024-11-30|52000.2|33912.75|18137.45|4091.75|2024-11-30T11:00:00Z|"
        + "2024-11-30T12:00:00Z|0\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM portfolio_daily") == "6\n")
  }

  @Test func saveWithAnotherMethodIsRefusedAndWritesNothing() throws {
    let before = try sandbox.dump()
    let result = sandbox.run("report", "--save", "--method", "lifo")
    #expect(result.code == 65)
    #expect(result.err.contains("--save stores figures computed with the portfolio's own method"))
    #expect(try sandbox.dump() == before)
    // Without --save another method is fine.
    #expect(sandbox.run("report", "--method", "hifo").code == 0)
  }

  @Test func outWritesTheFileAndSaves() throws {
    let path = sandbox.file("daily.md")
    let result = sandbox.run(
      ["report", "--format", "md", "--out", path, "--save"], environment: Sandbox.wide)
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out
        == "wrote the md report of 2024-11-30 to \(path); saved the day's figures\n")
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == sandbox.run("report", "--format", "md").out)
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM portfolio_daily WHERE day = '2024-11-30'") == "1\n")
  }

  @Test func colourGoesToATerminalButNeverIntoAFile() throws {
    func run(_ arguments: [String]) -> String {
      let out = StringSink()
      let code = FolioCLI.run(
        arguments, out: out, err: StringSink(), environment: ["FOLIO_DB": sandbox.database],
        now: sandbox.now, stdoutIsTerminal: true)
      #expect(code == 0)
      return out.text
    }
    #expect(run(["report"]).contains("\u{1B}[32m+2.10%\u{1B}[0m"))
    let path = sandbox.file("report.txt")
    _ = run(["report", "--out", path])
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!written.contains("\u{1B}"))
    #expect(written == sandbox.run("report").out)
  }

  @Test func anUnwritableOutFileExits74AndSavesNothing() throws {
    let before = try sandbox.dump()
    let path = sandbox.file("no-such-folder/report.html")
    let result = sandbox.run("report", "--format", "html", "--out", path, "--save")
    #expect(result.code == 74)
    #expect(result.err.hasPrefix("folio: error: \(path): cannot be written"))
    #expect(try sandbox.dump() == before)
  }

  @Test func anOldSnapshotIsWarnedAboutOrRefusedWithStrict() throws {
    let warned = sandbox.run("report", "--max-age", "30m", "--format", "json")
    #expect(warned.code == 0)
    let warning =
      "the market snapshot (2024-11-30T11:00:00Z) is 1h old, older than 30m; run 'folio market refresh'"
    #expect(warned.err == "folio: warning: \(warning)\n")
    #expect(warned.out.contains(JSONValue.quote(warning)))
    let text = sandbox.run(["report", "--max-age", "30m"], environment: Sandbox.wide)
    #expect(text.out.contains("\nwarning: \(warning)\n"))
    let before = try sandbox.dump()
    let strict = sandbox.run("report", "--max-age", "30m", "--strict", "--save")
    #expect(strict.code == 65)
    #expect(try sandbox.dump() == before)
  }

  @Test func aMissingDatabaseExits66() {
    let other = Sandbox()
    let result = other.run("report")
    #expect(result.code == 66)
    #expect(!FileManager.default.fileExists(atPath: other.database))
  }

  // MARK: - CSV and Markdown shape

  @Test func csvHasOneRowPerHoldingWithAHeader() {
    let lines = sandbox.run("report", "--format", "csv").out.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines.first == Substring(ReportData.csvHeader.joined(separator: ",")))
    #expect(
      lines.dropFirst().map { $0.split(separator: ",")[3] } == [
        "bitcoin", "ethereum", "solana", "obscure-coin",
      ])
    #expect(lines[3].contains(",sol,Solana & <Co> | *x*,10,240,"))
  }

  @Test func markdownTablesEscapeCellText() {
    let out = sandbox.run("report", "--format", "md").out
    #expect(out.contains("| **SOL** Solana & \\<Co\\> \\| \\*x\\* |"))
    #expect(
      out.contains(
        "| Coin | Quantity | Price | Value | 24h | 7 days | Share | Cost basis | Unrealized |"))
  }
}
