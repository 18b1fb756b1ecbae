import Foundation
import Testing

/// Issue 14 point 3: trades name coins of the coin directory, by id or symbol.
@Suite struct CoinResolutionTests {
  let sandbox = Sandbox()

  func refused(_ arguments: [String], code: Int32, _ message: String) throws {
    let before = try sandbox.dump()
    let result = sandbox.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.err)")
    #expect(result.err.hasPrefix("folio: error: "), "\(arguments)")
    #expect(result.err.contains(message), "\(arguments): \(result.err)")
    #expect(result.out.isEmpty)
    #expect(try sandbox.dump() == before, "\(arguments) changed the database")
  }

  /// Adds two coins sharing the symbol `alp` (ranks 40 and 900) through a market import.
  func addTwins() {
    let twins = sandbox.write(
      "twins.json",
      #"[{"id":"alpha-two","symbol":"alp","name":"Alpha Two","current_price":2,"market_cap_rank":900},{"id":"alpha-one","symbol":"ALP","name":"Alpha","current_price":1,"market_cap_rank":40}]"#
    )
    #expect(sandbox.run("market", "import", twins, "--at", "2024-01-24T00:00:00Z").code == 0)
  }

  @Test func aSymbolOnAFreshDatabaseIsStoredAsTheCoinsId() throws {
    let bought = sandbox.run("buy", "btc", "1", "--price", "40000", "--date", "2024-01-01")
    #expect(bought.code == 0, "\(bought.err)")
    #expect(bought.err.isEmpty)
    #expect(sandbox.run("sell", "BTC", "0.5", "--price", "41000", "--date", "2024-01-02").code == 0)
    #expect(try sandbox.sqlite("SELECT DISTINCT coin_id FROM trades") == "bitcoin\n")
    #expect(try sandbox.sqlite("SELECT coin_id, quantity FROM positions") == "bitcoin|0.5\n")
  }

  @Test func anAmbiguousSymbolTakesTheBestRankWithANote() throws {
    addTwins()
    let bought = sandbox.run("buy", "alp", "3", "--price", "1", "--date", "2024-01-01")
    #expect(bought.code == 0, "\(bought.err)")
    #expect(
      bought.err
        == "folio: note: 'alp' is the symbol of 2 coins; chose 'alpha-one' (Alpha, ALP, rank 40) "
        + "over 'alpha-two' (Alpha Two, ALP, rank 900); give the id to choose another\n")
    #expect(try sandbox.sqlite("SELECT coin_id FROM trades") == "alpha-one\n")
  }

  @Test func anUnknownCoinIsRefusedWithADidYouMean() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    try refused(
      ["buy", "bitcon", "1", "--price", "1", "--date", "2024-01-01"], code: 65,
      "unknown coin 'bitcon'; did you mean 'bitcoin' (Bitcoin, BTC, rank 1)?; "
        + "give --new-coin to add it as a new coin")
    try refused(
      ["sell", "etherum", "1", "--price", "1", "--date", "2024-01-01"], code: 65,
      "did you mean 'ethereum'")
    // Two letters swapped are one edit.
    try refused(
      ["buy", "sloana", "1", "--price", "1", "--date", "2024-01-01"], code: 65,
      "did you mean 'solana'")
    try refused(
      ["buy", "bit coin", "1", "--price", "1", "--date", "2024-01-01"], code: 65,
      "'bit coin' is not a known coin symbol or a CoinGecko id")
  }

  @Test func newCoinAcceptsAnUnknownIdAndAddsItToTheDirectory() throws {
    let bought = sandbox.run(
      "buy", "My-Token", "10", "--price", "1", "--date", "2024-01-01", "--new-coin")
    #expect(bought.code == 0, "\(bought.err)")
    #expect(try sandbox.sqlite("SELECT coin_id FROM trades") == "my-token\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM coins WHERE id = 'my-token'") == "1\n")
    // Now it is known: no --new-coin needed.
    #expect(sandbox.run("sell", "my-token", "1", "--price", "1", "--date", "2024-01-02").code == 0)
    // A refused trade adds no coin.
    try refused(
      ["sell", "other-token", "1", "--price", "1", "--date", "2024-01-02", "--new-coin"],
      code: 65, "exceeds the 0 held")
  }
}
