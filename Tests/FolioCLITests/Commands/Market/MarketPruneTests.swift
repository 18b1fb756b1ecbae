import FolioTestSupport
import Testing

@testable import FolioCLI

@Suite struct MarketPruneTests {
  let sandbox = Sandbox()

  @Test func removesOldSnapshotsAndKeepsTheLatest() throws {
    let markets = Fixtures.path("coingecko/markets_usd.json")
    let global = Fixtures.path("coingecko/global_usd.json")
    for day in ["2024-11-01", "2024-11-20", "2024-11-29"] {
      #expect(sandbox.run("market", "import", "--at", day, markets, global).code == 0)
    }
    let result = sandbox.run("market", "prune", "--keep-days", "5")
    #expect(result.code == 0)
    #expect(
      result.out
        == "removed 2 market snapshot(s) (40 quotes), 2 /global snapshot(s) and 0 coin detail(s) "
        + "fetched before 2024-11-25T12:00:00Z; the latest of each were kept\n")
    #expect(
      try sandbox.sqlite("SELECT fetched_at FROM market_snapshots") == "2024-11-29T00:00:00Z\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_quotes") == "20\n")
    let again = sandbox.run("market", "prune", "--keep-days", "0")
    #expect(again.out.hasPrefix("removed 0 market snapshot(s) (0 quotes), 0 /global"))
    #expect(try sandbox.sqlite("SELECT count(*) FROM market_quotes") == "20\n")
  }

  @Test func keepDaysIsRequiredAndWhole() {
    let missing = sandbox.run("market", "prune")
    #expect(missing.code == 64)
    #expect(missing.err.contains("missing option '--keep-days <n>'"))
    #expect(sandbox.run("market", "prune", "--keep-days", "-1").code == 64)
    #expect(sandbox.run("market", "prune", "--keep-days", "1.5").code == 64)
  }
}
