import Foundation
import Testing

/// `export trades` keeps notes exactly; `--spreadsheet-safe` defuses cells a spreadsheet
/// would run as formulas.
@Suite struct ExportSpreadsheetTests {
  let sandbox = Sandbox()

  @Test func formulasAreKeptExactlyByDefaultAndDefusedOnRequest() throws {
    let note = "=HYPERLINK(\"http://x\",\"click\")"
    #expect(
      sandbox.run("buy", "bitcoin", "1", "--price", "100", "--note", note, "--date", "2024-01-01")
        .code == 0)
    #expect(
      sandbox.run(
        "buy", "bitcoin", "1", "--price", "100", "--note", "-5 rebate", "--date", "2024-01-02"
      )
      .code == 0)
    let exact = sandbox.run("export", "trades")
    #expect(exact.code == 0)
    #expect(exact.out.contains(",\"=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\","))
    #expect(exact.out.contains(",-5 rebate,"))
    let safe = sandbox.run("export", "trades", "--spreadsheet-safe")
    #expect(safe.code == 0)
    #expect(safe.out.contains(",\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\","))
    #expect(safe.out.contains(",'-5 rebate,"))
    // Figures are never touched: the dates, quantities and prices are the same.
    #expect(safe.out.contains("2024-01-01T00:00:00Z,buy,bitcoin,1,100,0,"))
  }
}
