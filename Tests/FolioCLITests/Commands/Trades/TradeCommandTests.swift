import Foundation
import Testing

@Suite struct TradeCommandTests {
  let sandbox = Sandbox()

  /// Runs `arguments` expecting a refusal with `code` whose message contains `message`, and
  /// checks the database is byte-for-byte the same dump as before.
  func refused(_ arguments: [String], code: Int32, _ message: String) throws {
    let before = try sandbox.dump()
    let result = sandbox.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.err)")
    #expect(result.err.hasPrefix("folio: error: "), "\(arguments)")
    #expect(result.err.contains(message), "\(arguments): \(result.err)")
    #expect(result.out.isEmpty)
    #expect(try sandbox.dump() == before, "\(arguments) changed the database")
  }

  func seed() {
    #expect(
      sandbox.run("buy", "bitcoin", "0.5", "--price", "40000", "--date", "2024-01-01").out == "1\n")
    #expect(
      sandbox.run(
        "buy", "bitcoin", "0.25", "--price", "60000", "--fee", "15", "--date", "2024-02-01"
      )
      .out == "2\n")
    #expect(
      sandbox.run("sell", "bitcoin", "0.6", "--price", "70000", "--date", "2024-03-01").out == "3\n"
    )
    #expect(
      sandbox.run("buy", "ethereum", "2", "--price", "3000", "--date", "2024-03-05").out == "4\n")
  }

  /// A market snapshot quoting bitcoin at 70000 and ethereum at 3000 (their last trades'
  /// prices): holdings value only at market prices.
  func quote() {
    let page = sandbox.write(
      "markets.json",
      sandbox.marketsPage(bitcoin: ("70000", nil), ethereum: ("3000", nil), solana: ("1", nil)))
    #expect(sandbox.run("market", "import", page, "--at", "2024-11-30T11:00:00Z").code == 0)
  }

  @Test func holdingsJSONCarriesExactFigures() throws {
    seed()
    quote()
    let result = sandbox.run("holdings", "--format", "json")
    #expect(result.code == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let rows = try #require(json["holdings"] as? [[String: Any]])
    let bitcoin = try #require(rows.first { $0["coin"] as? String == "bitcoin" })
    // FIFO: the sell takes 0.5 @ 40000 and 0.1 of the second lot (cost 15015 for 0.25).
    #expect(bitcoin["quantity"] as? String == "0.15")
    #expect(bitcoin["cost_basis"] as? String == "9009")
    #expect(bitcoin["realized_pnl"] as? String == "15994")  // 42000 − 20000 − 6006
    #expect(bitcoin["price"] as? String == "70000")
    #expect(bitcoin["value"] as? String == "10500")
    #expect(bitcoin["unrealized_pnl"] as? String == "1491")
    let totals = try #require(json["totals"] as? [String: Any])
    #expect(totals["value"] as? String == "16500")
    for key in [
      "coin", "quantity", "cost_basis", "price", "value", "unrealized_pnl", "realized_pnl",
    ] {
      #expect(bitcoin[key] is String, "\(key)")
    }
  }

  @Test func methodOverrideOnHoldings() throws {
    seed()
    quote()
    let lifo = sandbox.run("holdings", "--method", "lifo", "--format", "csv")
    #expect(lifo.code == 0)
    // LIFO: 0.25 @ (15000 + 15 fee) then 0.35 @ 40000 → cost 29015, realized 12985.
    #expect(lifo.out.contains("\nbitcoin,0.15,40000,6000,70000,"))
    #expect(lifo.out.contains(",12985,"))
  }

  @Test func buyJSONAndTxShow() throws {
    let result = sandbox.run(
      "buy", "bitcoin", "1", "--price", "100", "--fee", "1.5", "--date",
      "2024-01-01T10:00:00+01:00",
      "--note", "first", "--id", "ext-1", "--format", "json")
    #expect(result.code == 0)
    #expect(result.out.contains("\"date\": \"2024-01-01T09:00:00Z\""))
    #expect(result.out.contains("\"fee\": \"1.5\""))
    #expect(result.out.contains("\"external_id\": \"ext-1\""))
    let show = sandbox.run("tx", "show", "1", "--format", "json")
    #expect(show.out.contains("\"cost\": \"101.5\""))
    try refused(
      ["buy", "bitcoin", "1", "--price", "100", "--id", "ext-1"], code: 65,
      "a trade with id 'ext-1' already exists")
  }

  @Test func refusalsLeaveTheDatabaseAsItWas() throws {
    seed()
    try refused(
      ["sell", "bitcoin", "0.2", "--price", "1"], code: 65,
      "exceeds the 0.15 held at that time (short by 0.05)")
    try refused(
      ["buy", "bitcoin", "0", "--price", "1"], code: 65, "quantity: must be greater than zero")
    try refused(["buy", "bitcoin", "-1", "--price", "1"], code: 65, "quantity")
    try refused(
      ["buy", "bitcoin", "NaN", "--price", "1"], code: 64, "'NaN' is not a valid decimal")
    try refused(
      ["buy", "bitcoin", "1,000.25", "--price", "1"], code: 64,
      "thousands separators are not accepted")
    try refused(
      ["buy", "bitcoin", "0.0000000000000000001", "--price", "1"], code: 65,
      "more than 18 fractional digits")
    try refused(["buy", "bitcoin", "1", "--price", "-5"], code: 65, "price: must not be negative")
    try refused(["buy", "bitcoin", "1", "--price", "5", "--date", "2023-02-30"], code: 64, "date")
    try refused(["buy", "bitcoin", "1"], code: 64, "missing option '--price <price>'")
    try refused(["buy", "bitcoin"], code: 64, "missing argument <quantity>")
    try refused(["--portfolio", "nope", "buy", "bitcoin", "1", "--price", "1"], code: 66, "nope")
    try refused(["tx", "delete", "1"], code: 65, "sell #3 of 0.6 bitcoin")
    try refused(["tx", "edit", "2", "--quantity", "0.05"], code: 65, "short by 0.05")
    try refused(["tx", "edit", "1", "--date", "2024-04-01"], code: 65, "sell #3")
    try refused(["tx", "edit", "99", "--price", "1"], code: 66, "no trade #99")
    try refused(["tx", "edit", "1"], code: 65, "nothing to change")
    try refused(["tx", "show", "abc"], code: 64, "invalid trade id 'abc'")
    for coin in ["-", ".eth", "_x"] {
      try refused(
        ["buy", coin, "1", "--price", "1"], code: 64,
        "'\(coin)' is not a known coin symbol or a CoinGecko id")
    }
  }

  @Test func editAndDeleteRecomputeLaterSells() throws {
    seed()
    #expect(sandbox.run("tx", "edit", "1", "--price", "30000").code == 0)
    #expect(
      try sandbox.sqlite("SELECT realized_pnl FROM disposals WHERE trade_id = 3") == "20994\n")
    #expect(sandbox.run("tx", "delete", "4").code == 0)
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM positions WHERE coin_id = 'ethereum'") == "0\n")
    #expect(sandbox.run("db", "check").code == 0)
  }

  @Test func txListFiltersAndFormats() throws {
    seed()
    let sells = sandbox.run("tx", "list", "--side", "sell", "--format", "csv")
    #expect(
      sells.out
        == "id,date,side,coin,quantity,price,fee,note,location\n3,2024-03-01T00:00:00Z,sell,bitcoin,0.6,70000,0,,\n"
    )
    let february = sandbox.run(
      "tx", "list", "--since", "2024-02-01", "--until", "2024-03-01", "--format", "json")
    let ids = try #require(
      try JSONSerialization.jsonObject(with: Data(february.out.utf8)) as? [[String: Any]])
    #expect(ids.compactMap { $0["id"] as? Int } == [2, 3])
    // Both bounds are inclusive: a time to the second, a date alone for its whole day.
    func listed(_ arguments: String...) -> String {
      sandbox.run(["tx", "list", "--format", "csv"] + arguments).out.split(separator: "\n")
        .dropFirst().map { String($0.prefix(while: { $0 != "," })) }.joined(separator: " ")
    }
    #expect(listed("--until", "2024-03-01T00:00:00Z") == "1 2 3")
    #expect(listed("--until", "2024-03-01T05:29:59+05:30") == "1 2")
    #expect(listed("--since", "2024-03-01T00:00:00.9Z", "--until", "2024-03-05") == "3 4")
    #expect(listed("--since", "2024-03-01T00:00:01Z", "--until", "2024-03-04") == "")
    let bad = sandbox.run("tx", "list", "--until", "2024-02-30")
    #expect(bad.code == 64)
    #expect(
      bad.err.hasPrefix("folio: error: --until: '2024-02-30' is not a real calendar date\nUsage: "))
    let limited = sandbox.run(
      ["tx", "list", "--coin", "bitcoin", "--limit", "1"], environment: Sandbox.wide)
    #expect(limited.out.split(separator: "\n").count == 2)
    #expect(sandbox.run("tx", "list", "--side", "hold").code == 64)
  }

  @Test func sqlLookingTextIsStoredVerbatim() throws {
    let note = "'); DROP TABLE trades; --"
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "1", "--note", note).code == 0)
    #expect(try sandbox.sqlite("SELECT note FROM trades") == note + "\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM sqlite_schema WHERE name = 'trades'") == "1\n")
  }

  @Test func portfolios() throws {
    #expect(sandbox.run("portfolio", "add", "savings", "--method", "hifo").code == 0)
    try refused(["portfolio", "add", "savings"], code: 65, "already exists")
    try refused(["portfolio", "add", "bad name"], code: 65, "not a valid portfolio name")
    // A leading '.' would hide the daily job's files ('..html'); '.' and '..' name folders.
    for hidden in [".", "..", ".savings", "-x"] {
      try refused(["portfolio", "add", "--", hidden], code: 65, "starting with a letter or digit")
    }
    #expect(
      sandbox.run("--portfolio", "savings", "buy", "solana", "3", "--price", "100").code == 0)
    #expect(
      sandbox.run(
        ["buy", "solana", "1", "--price", "100"], environment: ["FOLIO_PORTFOLIO": "savings"]
      )
      .code == 0)
    let list = sandbox.run("portfolio", "list", "--format", "json")
    #expect(list.out.contains("\"name\": \"savings\""))
    #expect(list.out.contains("\"trades\": 2"))
    try refused(["portfolio", "delete", "savings"], code: 65, "holds 2 trade(s); use --force")
    try refused(["portfolio", "delete", "main"], code: 65, "default portfolio")
    // `--portfolio all` is every portfolio: no portfolio may take the name and hide the total.
    try refused(["portfolio", "add", "all"], code: 65, "stands for every portfolio")
    try refused(["portfolio", "rename", "savings", "all"], code: 65, "stands for every portfolio")
    #expect(try sandbox.sqlite("SELECT name FROM portfolios ORDER BY id") == "main\nsavings\n")
    #expect(sandbox.run("portfolio", "rename", "savings", "long-term").code == 0)
    #expect(sandbox.run("portfolio", "set", "long-term", "--method", "average").code == 0)
    #expect(try sandbox.sqlite("SELECT method FROM positions") == "average\n")
    #expect(sandbox.run("portfolio", "delete", "long-term", "--force").code == 0)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "0\n")
  }

  /// Fuzz finding (Fuzz/run.sh decimal): a trade at the largest price folio accepts made
  /// `tx list` and `holdings` trap while rounding it for display (exit 132). Run through the
  /// built binary, so a trap fails this test instead of the test run.
  @Test func theLargestAcceptedPriceListsWithoutTrapping() throws {
    let largest = "170141183460469231731.687303715884105727"
    let environment = ["FOLIO_DB": sandbox.database]
    let bought = try Binary.run(
      ["buy", "bitcoin", "1", "--price", largest, "--date", "2024-01-01"], environment: environment)
    #expect(bought.code == 0, "\(bought.err)")
    for command in [["tx", "list"], ["holdings"], ["tx", "show", "1"], ["coins", "list"]] {
      let result = try Binary.run(command, environment: environment)
      #expect(result.code < 128, "\(command) trapped: \(result.err)")
    }
    let list = try Binary.run(
      ["tx", "list"], environment: environment.merging(Sandbox.wide) { $1 })
    #expect(list.code == 0)
    #expect(list.out.contains("170,141,183,460,469,231,731.68"), "\(list.out)")
  }
}
