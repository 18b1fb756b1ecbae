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
      ["buy", "bitcon", "1", "--price", "1", "--date", "2024-01-01"], code: 66,
      "unknown coin 'bitcon'; did you mean 'bitcoin' (Bitcoin, BTC, rank 1)?; "
        + "give --new-coin to add it as a new coin")
    try refused(
      ["sell", "etherum", "1", "--price", "1", "--date", "2024-01-01"], code: 66,
      "did you mean 'ethereum'")
    // Two letters swapped are one edit.
    try refused(
      ["buy", "sloana", "1", "--price", "1", "--date", "2024-01-01"], code: 66,
      "did you mean 'solana'")
    try refused(
      ["buy", "bit coin", "1", "--price", "1", "--date", "2024-01-01"], code: 64,
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

/// Importing, checking and repairing the coins of trades.
@Suite struct CoinRepairTests {
  let sandbox = Sandbox()

  func refused(_ arguments: [String], code: Int32, _ message: String) throws {
    let before = try sandbox.dump()
    let result = sandbox.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.err)")
    #expect(result.err.contains(message), "\(arguments): \(result.err)")
    #expect(result.out.isEmpty)
    #expect(try sandbox.dump() == before, "\(arguments) changed the database")
  }

  /// Trades of `btc` as an older folio stored them: recorded as a new coin, which is then
  /// removed from the directory.
  func legacyTrades() throws {
    for arguments in [
      ["buy", "btc-legacy", "1", "--price", "100", "--date", "2024-01-01", "--new-coin"],
      ["sell", "btc-legacy", "0.5", "--price", "200", "--date", "2024-01-03"],
      ["buy", "bitcoin", "2", "--price", "150", "--date", "2024-01-02"],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.code == 0, "\(arguments): \(result.err)")
    }
    _ = try sandbox.sqlite("DELETE FROM coins WHERE id = 'btc-legacy'")
  }

  @Test func importResolvesSymbolsAndListsUnknownCoinsWithTheirLines() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let bad = sandbox.write(
      "bad.csv",
      "date,side,coin,quantity,price\n2024-01-01,buy,BTC,1,100\n2024-01-02,buy,bitcon,1,100\n"
        + "2024-01-03,buy,etherum,1,100\n2024-01-04,buy,bitcon,1,100\n")
    try refused(
      ["import", "trades", bad], code: 65, "\(bad):3: unknown coin 'bitcon'; did you mean 'bitcoin'"
    )
    let result = sandbox.run("import", "trades", bad)
    #expect(result.err.contains("\(bad):4: unknown coin 'etherum'; did you mean 'ethereum'"))
    #expect(result.err.contains("\(bad):5: unknown coin 'bitcon'"))
    #expect(result.err.contains("give --new-coin to add it as a new coin"))
    #expect(!result.err.contains("\(bad):2:"))
    let twins = sandbox.write(
      "twins.json",
      #"[{"id":"alpha-two","symbol":"alp","name":"Alpha Two","current_price":2,"market_cap_rank":900},{"id":"alpha-one","symbol":"ALP","name":"Alpha","current_price":1,"market_cap_rank":40}]"#
    )
    #expect(sandbox.run("market", "import", twins, "--at", "2024-01-24T00:00:00Z").code == 0)
    let good = sandbox.write(
      "good.csv",
      "date,side,coin,quantity,price\n2024-01-01,buy,BTC,1,100\n2024-01-02,buy,alp,1,1\n"
        + "2024-01-03,buy,ALP,1,1\n")
    let imported = sandbox.run("import", "trades", good)
    #expect(imported.code == 0, "\(imported.err)")
    #expect(
      imported.err
        == "folio: note: \(good):3: 'alp' is the symbol of 2 coins; chose 'alpha-one' (Alpha, "
        + "ALP, rank 40) over 'alpha-two' (Alpha Two, ALP, rank 900); give the id to choose "
        + "another\nfolio: note: \(good):4: 'ALP' is the symbol of 2 coins; chose 'alpha-one' "
        + "(Alpha, ALP, rank 40) over 'alpha-two' (Alpha Two, ALP, rank 900); give the id to "
        + "choose another\n")
    #expect(
      try sandbox.sqlite("SELECT coin_id FROM trades ORDER BY id")
        == "bitcoin\nalpha-one\nalpha-one\n")
    // --new-coin takes the unknown ids as they are and adds them to the directory; a dry run
    // adds nothing.
    let dry = sandbox.run("import", "trades", bad, "--new-coin", "--dry-run")
    #expect(dry.code == 0, "\(dry.err)")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM coins WHERE id IN ('bitcon', 'etherum')") == "0\n")
    let added = sandbox.run("import", "trades", bad, "--new-coin")
    #expect(added.code == 0, "\(added.err)")
    #expect(
      try sandbox.sqlite("SELECT coin_id, count(*) FROM trades GROUP BY coin_id ORDER BY coin_id")
        == "alpha-one|2\nbitcoin|1\nbitcon|2\netherum|1\n")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM coins WHERE id IN ('bitcon', 'etherum')") == "2\n")
  }

  @Test func dbCheckListsTradesOfCoinsNotInTheDirectory() throws {
    try legacyTrades()
    let unknown = sandbox.run("db", "check")
    #expect(unknown.code == 65)
    #expect(
      unknown.out.contains(
        "portfolio 'main': 2 trade(s) of 'btc-legacy', a coin not in the coin directory "
          + "(#1, #2); 'folio market refresh' adds it if CoinGecko lists it; if it is a typo, "
          + "'folio coins merge btc-legacy COIN --portfolio main' moves them"), "\(unknown.out)")
    // A coin spelled like a listed one is only offered as a typo's repair, never as a ready
    // merge into another coin (bitcoim is not litecoin's, nor even surely bitcoin's).
    _ = try sandbox.sqlite("UPDATE trades SET coin_id = 'bitcoim' WHERE coin_id = 'btc-legacy'")
    #expect(sandbox.run("db", "rebuild").code == 0)
    let typo = sandbox.run("db", "check")
    #expect(
      typo.out.contains(
        "a coin not in the coin directory (#1, #2); 'folio market refresh' adds it if CoinGecko "
          + "lists it; if it is a typo (perhaps 'bitcoin'), 'folio coins merge bitcoim COIN "
          + "--portfolio main' moves them"), "\(typo.out)")
    // What an older folio stored for `buy btc`: the symbol is the closest coin.
    _ = try sandbox.sqlite("UPDATE trades SET coin_id = 'btc' WHERE coin_id = 'bitcoim'")
    #expect(sandbox.run("db", "rebuild").code == 0)
    let check = sandbox.run("db", "check")
    #expect(check.code == 65)
    #expect(
      check.out.contains(
        "portfolio 'main': 2 trade(s) of 'btc', a coin not in the coin directory "
          + "(#1, #2); move them to 'bitcoin' with 'folio coins merge btc bitcoin "
          + "--portfolio main'"), "\(check.out)")
    let json = sandbox.run("db", "check", "--format", "json")
    #expect(json.out.contains(#""kind": "unknown_coin""#))
  }

  @Test func mergeMovesTheTradesAndRecomputesTheLots() throws {
    try legacyTrades()
    #expect(sandbox.run("portfolio", "add", "savings").code == 0)
    #expect(
      sandbox.run(
        "--portfolio", "savings", "buy", "bitcoin", "1", "--price", "1", "--date", "2024-01-01"
      ).code == 0)
    _ = try sandbox.sqlite(
      "INSERT INTO coins (id, symbol, name, updated_at) VALUES ('btc-legacy', '', 'x', '1970-01-01T00:00:00Z')"
    )
    #expect(
      sandbox.run("--portfolio", "savings", "buy", "btc-legacy", "3", "--price", "1").code == 0)
    _ = try sandbox.sqlite("DELETE FROM coins WHERE id = 'btc-legacy'")
    // Only the portfolio named.
    let one = sandbox.run("--portfolio", "savings", "coins", "merge", "btc-legacy", "btc")
    #expect(one.code == 0, "\(one.err)")
    #expect(one.out == "moved 1 trade(s) of 'btc-legacy' to 'bitcoin' (savings 1)\n")
    #expect(
      try sandbox.sqlite(
        "SELECT p.name, t.coin_id, count(*) FROM trades t JOIN portfolios p ON p.id = t.portfolio_id GROUP BY 1, 2 ORDER BY 1, 2"
      )
        == "main|bitcoin|1\nmain|btc-legacy|2\nsavings|bitcoin|2\n")
    let all = sandbox.run("coins", "merge", "btc-legacy", "bitcoin")
    #expect(all.code == 0, "\(all.err)")
    #expect(all.out == "moved 2 trade(s) of 'btc-legacy' to 'bitcoin' (main 2)\n")
    // main: buy 1 @100 (01-01), buy 2 @150 (01-02), sell 0.5 (01-03) from the first lot.
    #expect(
      try sandbox.sqlite(
        "SELECT coin_id, quantity, cost_basis FROM positions WHERE portfolio_id = 1")
        == "bitcoin|2.5|350\n")
    #expect(sandbox.run("db", "check").code == 0)
    try refused(
      ["coins", "merge", "btc-legacy", "bitcoin"], code: 66,
      "no trade of any portfolio names the coin 'btc-legacy'")
    try refused(["coins", "merge", "bitcoin", "btc"], code: 65, "nothing to merge")
    try refused(["coins", "merge", "bitcoin", "bitcon"], code: 66, "did you mean 'bitcoin'")
  }

  /// A merge limited to one portfolio moves the other rows of its transfers too, so a transfer
  /// names one coin on both sides; the arriving piece follows the lot the transfer now draws
  /// on. main: 1 bitcoin at 100, then 2 btc-legacy at 50 (same day, later id); 1 btc-legacy to
  /// cold. Merged, FIFO takes main's first lot, the bitcoin at 100: cold receives 1 at 100.
  @Test func mergeMovesTheOtherRowsOfATransfer() throws {
    #expect(sandbox.run("portfolio", "add", "cold").code == 0)
    #expect(
      sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    _ = try sandbox.sqlite(
      "INSERT INTO coins (id, symbol, name, updated_at) VALUES ('btc-legacy', '', 'x', '1970-01-01T00:00:00Z')"
    )
    #expect(
      sandbox.run("buy", "btc-legacy", "2", "--price", "50", "--date", "2024-01-01").code == 0)
    let sent = sandbox.run(
      "transfer", "btc-legacy", "1", "--from", "main", "--to", "cold", "--date", "2024-01-02")
    #expect(sent.code == 0, "\(sent.err)")
    _ = try sandbox.sqlite("DELETE FROM coins WHERE id = 'btc-legacy'")
    let merged = sandbox.run("--portfolio", "main", "coins", "merge", "btc-legacy", "bitcoin")
    #expect(merged.code == 0, "\(merged.err)")
    #expect(merged.out == "moved 3 trade(s) of 'btc-legacy' to 'bitcoin' (main 2, cold 1)\n")
    #expect(
      try sandbox.sqlite(
        "SELECT p.name, t.kind, t.side, t.coin_id, t.quantity, t.amount, t.link_id FROM trades t "
          + "JOIN portfolios p ON p.id = t.portfolio_id WHERE t.kind = 'transfer' ORDER BY t.id")
        == "main|transfer|sell|bitcoin|1||3\ncold|transfer|buy|bitcoin|1|100|3\n")
    #expect(
      try sandbox.sqlite(
        "SELECT portfolio_id, coin_id, quantity, cost_basis FROM positions ORDER BY 1, 2")
        == "1|bitcoin|2|100\n2|bitcoin|1|100\n")
    #expect(sandbox.run("db", "check").code == 0)
  }

  @Test func txEditCoinMovesOneTradeAndRefusesAnOversell() throws {
    try legacyTrades()
    // Moving the sell to bitcoin: both positions recomputed.
    let moved = sandbox.run("tx", "edit", "2", "--coin", "BTC")
    #expect(moved.code == 0, "\(moved.err)")
    #expect(
      try sandbox.sqlite("SELECT coin_id, quantity FROM positions ORDER BY coin_id")
        == "bitcoin|1.5\nbtc-legacy|1\n")
    // Moving the only buy of btc-legacy away would leave nothing: fine, no sell is left there.
    // Moving bitcoin's buy (#3) to ethereum leaves the sell #2 of bitcoin short.
    try refused(["tx", "edit", "3", "--coin", "ethereum"], code: 65, "exceeds")
    try refused(["tx", "edit", "3", "--coin", "etherium"], code: 66, "did you mean 'ethereum'")
    let added = sandbox.run("tx", "edit", "1", "--coin", "my-coin", "--new-coin")
    #expect(added.code == 0, "\(added.err)")
    #expect(try sandbox.sqlite("SELECT coin_id FROM trades WHERE id = 1") == "my-coin\n")
    #expect(sandbox.run("tx", "edit", "1", "--new-coin").code == 64)
  }
}
