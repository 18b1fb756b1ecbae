import Foundation
import Testing

/// Accounting edge cases through the command line (issue 14, point 8): HIFO with a unit cost
/// beyond the decimal range and with ties, and figures too large to compute in `holdings`
/// and `report`.
@Suite struct AccountingEdgeTests {
  let sandbox = Sandbox()

  func ok(_ arguments: String...) {
    let result = sandbox.run(arguments)
    #expect(result.code == 0, "\(arguments): \(result.err)")
  }

  func json(_ arguments: String...) throws -> [String: Any] {
    let result = sandbox.run(arguments + ["--format", "json"])
    #expect(result.code == 0, "\(arguments): \(result.err)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }

  /// The lots a sell consumed, as `tx show` gives them: (lot, quantity, cost).
  func consumed(_ sell: String) throws -> [String] {
    let lots = try #require(try json("tx", "show", sell)["lots"] as? [[String: Any]])
    return lots.map { "\($0["lot"] ?? "") \($0["quantity"] ?? "") \($0["cost"] ?? "")" }
  }

  /// A fee of 1,000 on 10⁻¹⁸ units is 10²¹ a unit, beyond the decimal range: HIFO still sells
  /// that lot first, booked (`tx show`) and recomputed in memory (`holdings --method hifo`).
  @Test func hifoSellsALotWhoseUnitCostOverflowsFirst() throws {
    ok("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01")
    ok(
      "buy", "bitcoin", "0.000000000000000001", "--price", "0", "--fee", "1000", "--date",
      "2024-01-02")
    ok("buy", "bitcoin", "1", "--price", "200", "--date", "2024-01-03")
    ok("sell", "bitcoin", "0.000000000000000001", "--price", "1", "--date", "2024-01-04")
    // The portfolio books FIFO; holdings recomputes HIFO without writing.
    let rows = try #require(
      try json("holdings", "--method", "hifo")["holdings"] as? [[String: Any]])
    #expect(rows.first?["cost_basis"] as? String == "300")
    #expect(rows.first?["realized_pnl"] as? String == "-999.999999999999999999")
    ok("portfolio", "set", "main", "--method", "hifo")
    #expect(try consumed("4") == ["2 0.000000000000000001 1000"])
    ok("sell", "bitcoin", "1.5", "--price", "300", "--date", "2024-01-05")
    #expect(try consumed("5") == ["1 0.5 50", "3 1 200"])
  }

  /// Equal unit costs (0.5 for 100 + a fee of 100 is 400 a unit, as is 1 for 400): the
  /// earliest lot goes first (docs/trades.md, "Methods").
  @Test func hifoTieSellsTheEarliestLotFirst() throws {
    ok("portfolio", "set", "main", "--method", "hifo")
    ok("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01")
    ok("buy", "bitcoin", "1", "--price", "400", "--date", "2024-01-02")
    ok("buy", "bitcoin", "0.5", "--price", "200", "--fee", "100", "--date", "2024-01-03")
    ok("sell", "bitcoin", "1.2", "--price", "500", "--date", "2024-01-04")
    #expect(try consumed("4") == ["2 1 400", "3 0.2 80"])
    // What is left: all of the first lot and 0.3 of the third, at 400 a unit.
    let rows = try #require(
      try json("holdings", "--method", "hifo")["holdings"] as? [[String: Any]])
    #expect(rows.first?["cost_basis"] as? String == "220")
  }

  /// A trade whose cost or proceeds are beyond the decimal range is refused naming them, from
  /// the command line and from a file (with its line), and no trade is written.
  @Test func aTradeTooLargeToBookNamesQuantityTimesPrice() throws {
    let huge = "170141183460469231731"
    let bought = sandbox.run("buy", "bitcoin", huge, "--price", huge)
    #expect(bought.code == 65, "\(bought.err)")
    #expect(
      bought.err == "folio: error: quantity × price: \(huge) × \(huge) + the fee 0 is too large "
        + "to represent exactly (the limit is about 1.7e20)\n")
    let file = sandbox.write(
      "big.csv", "date,side,coin,quantity,price,fee,note\n2024-01-01,buy,bitcoin,1,\(huge),1,\n")
    let imported = sandbox.run("import", "trades", file)
    #expect(imported.code == 65)
    #expect(
      imported.err.contains("\(file):2: quantity × price: 1 × \(huge) + the fee 1"),
      "\(imported.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "0\n")
  }

  /// 9,999,999,999 bitcoin at 10¹¹ is beyond the decimal range. `holdings` and `report`
  /// show n/a for that coin and the totals with the reason, as `stats` does, and exit 0; the
  /// figures that can be computed are shown.
  @Test func figuresTooLargeReadNAWithTheReason() throws {
    ok("buy", "bitcoin", "10000000000", "--price", "1", "--date", "2024-01-01")
    ok("sell", "bitcoin", "1", "--price", "100000000000", "--date", "2024-01-02")
    ok("buy", "ethereum", "2", "--price", "100", "--date", "2024-01-03")
    let reason = "the amounts are too large to compute exactly"
    let markets = sandbox.write(
      "markets.json",
      sandbox.marketsPage(
        bitcoin: ("100000000000", "1.5"), ethereum: ("3000", "2"), solana: ("1", nil)))
    ok("market", "import", markets, "--at", "2024-11-30T11:00:00Z")

    let text = sandbox.run(["holdings"], environment: Sandbox.wide)
    #expect(text.code == 0, "\(text.err)")
    #expect(text.out.contains("\nbitcoin: value, unrealized, share n/a: \(reason)\n"))
    #expect(text.out.contains("\nethereum: share n/a: the total value is n/a (\(reason))\n"))
    #expect(text.out.contains("\nTOTAL: value, unrealized n/a: \(reason)\n"))
    #expect(text.out.contains("9,999,999,999.00"))  // bitcoin's cost basis still shows
    let holdings = try json("holdings")
    let rows = try #require(holdings["holdings"] as? [[String: Any]])
    #expect(rows[0]["value"] is NSNull && rows[0]["unavailable"] as? String == reason)
    #expect(rows[1]["value"] as? String == "6000" && rows[1]["share"] is NSNull)
    let totals = try #require(holdings["totals"] as? [String: Any])
    #expect(totals["value"] is NSNull && totals["unavailable"] as? String == reason)
    #expect(totals["cost_basis"] as? String == "10000000199")
    let csv = sandbox.run("holdings", "--format", "csv")
    #expect(csv.code == 0)
    #expect(
      csv.out.contains(",100000000000,2024-11-30T11:00:00Z,,,99999999999,,\(reason)\n"),
      "\(csv.out)")
    let report = sandbox.run(["report"], environment: Sandbox.wide)
    #expect(report.code == 0, "\(report.err)")
    #expect(report.out.contains("\nBTC: value, share, unrealized n/a: \(reason)\n"))
    #expect(report.out.contains("\nTotal: value, unrealized n/a: \(reason)\n"))
    #expect(report.out.contains("Portfolio Value, Portfolio Value 24h change n/a: \(reason)"))
    #expect(report.out.contains("$6,000.00"))  // ethereum's value still shows
    for format in ["md", "html"] {
      let rendered = sandbox.run("report", "--format", format)
      #expect(rendered.code == 0, "\(format): \(rendered.err)")
      #expect(rendered.out.contains("BTC: value, share, unrealized n/a: \(reason)"), "\(format)")
      #expect(rendered.out.contains("Total: value, unrealized n/a: \(reason)"), "\(format)")
    }
    let data = try json("report")
    let held = try #require(data["holdings"] as? [[String: Any]])
    let bitcoin = try #require(held.first { $0["coin"] as? String == "bitcoin" })
    #expect(bitcoin["value"] is NSNull && bitcoin["unavailable"] as? String == reason)
    let reportTotals = try #require(data["totals"] as? [String: Any])
    #expect(reportTotals["value"] is NSNull && reportTotals["unavailable"] as? String == reason)
    let reportCSV = sandbox.run("report", "--format", "csv")
    #expect(reportCSV.code == 0)
    #expect(reportCSV.out.contains(",9999999999,,99999999999,\(reason),"), "\(reportCSV.out)")
    let coins = sandbox.run("coins", "list")
    #expect(coins.code == 0, "\(coins.err)")
    #expect(coins.out.contains("\nbitcoin: value n/a: \(reason)\n"), "\(coins.out)")
    // Saving stores no value for the day rather than failing.
    ok("report", "--save")
    #expect(try sandbox.sqlite("SELECT ifnull(value, 'NULL') FROM portfolio_daily") == "NULL\n")
  }
}
