import Foundation
import Testing

/// `--portfolio all` on the commands that read a portfolio: the CLI names each row's
/// portfolio and says each portfolio's method where they differ.
@Suite struct AllPortfoliosTests {
  let sandbox = Sandbox()

  func seed() {
    #expect(sandbox.run("portfolio", "add", "aaa", "--method", "lifo").code == 0)
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    #expect(
      sandbox.run(
        "--portfolio", "aaa", "buy", "ethereum", "2", "--price", "10", "--date", "2024-01-02"
      )
      .code == 0)
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "300", "--date", "2024-02-01").code == 0)
    #expect(sandbox.run("sell", "bitcoin", "1", "--price", "400", "--date", "2024-03-01").code == 0)
  }

  @Test func txListNamesEachRowsPortfolioInTimeOrder() throws {
    seed()
    let json = sandbox.run("--portfolio", "all", "tx", "list", "--format", "json")
    #expect(json.code == 0, "\(json.err)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["portfolio"] as? String } == ["main", "aaa", "main", "main"])
    #expect(rows.map { $0["coin"] as? String } == ["bitcoin", "ethereum", "bitcoin", "bitcoin"])
    let csv = sandbox.run("--portfolio", "all", "tx", "list", "--format", "csv")
    #expect(csv.out.split(separator: "\n").first?.hasSuffix(",portfolio") == true)
    let text = sandbox.run("--portfolio", "all", "tx", "list")
    #expect(text.out.contains("PORTFOLIO"))
    // One portfolio keeps its columns.
    #expect(!sandbox.run("tx", "list").out.contains("PORTFOLIO"))
  }

  @Test func headersSayEachPortfoliosMethodWhenTheyDiffer() throws {
    seed()
    let holdings = sandbox.run("--portfolio", "all", "holdings", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(holdings.out.utf8)) as? [String: Any])
    #expect(object["method"] is NSNull)
    #expect(object["methods"] as? [String: String] == ["aaa": "lifo", "main": "fifo"])
    let totals = try #require(object["totals"] as? [String: Any])
    // main books FIFO: the 100 lot is sold, +300 (LIFO would give +100).
    #expect(totals["realized_pnl"] as? String == "300")
    let gains = sandbox.run("--portfolio", "all", "gains", "--year", "2024")
    #expect(gains.out.contains("each portfolio's own: aaa lifo,"), "\(gains.out)")
    let report = sandbox.run("--portfolio", "all", "report", "--date", "2024-03-01")
    #expect(report.out.contains("each portfolio's own: aaa lifo, main fifo"), "\(report.out)")
    // --method books every one with that method, and says so.
    let lifo = sandbox.run("--portfolio", "all", "holdings", "--method", "lifo", "--format", "json")
    #expect(lifo.out.contains("\"method\": \"lifo\""))
  }

  @Test func backfillFillsEveryPortfolio() {
    seed()
    let result = sandbox.run(
      "--portfolio", "all", "report", "backfill", "--since", "2024-01-01", "--until", "2024-01-03")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("portfolio 'aaa'") && result.out.contains("portfolio 'main'"))
  }

  /// A command that works on one portfolio says so for `all` (64), instead of "no portfolio
  /// named 'all'".
  @Test func aCommandOnOnePortfolioAsksForOneInsteadOfAll() {
    seed()
    let result = sandbox.run(
      ["buy", "bitcoin", "1", "--price", "1"], environment: ["FOLIO_PORTFOLIO": "all"])
    #expect(result.code == 64)
    #expect(
      result.err.hasPrefix(
        "folio: error: 'all' stands for every portfolio, and this command works on one: name it "
          + "with --portfolio NAME (the portfolios are: aaa, main)"))
  }
}
