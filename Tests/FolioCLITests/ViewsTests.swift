import Foundation
import Testing

@testable import FolioCLI

/// The views and guard rails of the views migration, read and poked with the real sqlite3 on a
/// database built by the CLI.
@Suite struct ViewsTests {
  let sandbox = Sandbox()

  /// A decimal string as a Double, for comparing with a REAL twin.
  func number(_ value: Any?) -> Double? {
    if let text = value as? String { return Double(text) }
    return (value as? NSNumber)?.doubleValue
  }

  /// Expects a REAL and an exact decimal to agree up to binary rounding, or both to be null.
  func close(_ real: Any?, _ exact: Any?, sourceLocation: SourceLocation = #_sourceLocation) {
    let approximate = number(real)
    let precise = number(exact)
    guard let approximate, let precise else {
      #expect(
        approximate == nil && precise == nil,
        "\(String(describing: real)) vs \(String(describing: exact))",
        sourceLocation: sourceLocation)
      return
    }
    #expect(
      abs(approximate - precise) <= 1e-9 * max(1, abs(precise)), "\(approximate) vs \(precise)",
      sourceLocation: sourceLocation)
  }

  // MARK: - v_holdings

  @Test(arguments: ["main", "cold"])
  func holdingsViewGivesTheFiguresOfHoldingsJSON(portfolio: String) throws {
    try sandbox.buildDemo()
    let result = sandbox.run("holdings", "--format", "json", "--portfolio", portfolio)
    #expect(result.code == 0, "\(result.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let holdings = try #require(json["holdings"] as? [[String: Any]])
    let rows = try sandbox.sqliteJSON(
      "SELECT * FROM v_holdings WHERE portfolio = '\(portfolio)' ORDER BY coin_id")
    #expect(rows.count == holdings.count)
    #expect(rows.count >= 1)
    for (row, holding) in zip(rows, holdings) {
      #expect(row["coin_id"] as? String == holding["coin"] as? String)
      #expect(row["currency"] as? String == json["currency"] as? String)
      #expect(row["method"] as? String == json["method"] as? String)
      // Stored figures: the exact text, character for character.
      for (column, key) in [
        ("quantity", "quantity"), ("cost_basis", "cost_basis"), ("price", "price"),
        ("price_at", "price_time"), ("price_source", "price_source"),
        ("realized_pnl", "realized_pnl"),
      ] {
        #expect(row[column] as? String == holding[key] as? String, "\(column)")
      }
      // Computed figures: REAL, equal to folio's exact ones up to binary rounding.
      for (column, key) in [
        ("average_cost_real", "average_cost"), ("value_real", "value"),
        ("unrealized_pnl_real", "unrealized_pnl"), ("share_real", "share"),
        ("quantity_real", "quantity"), ("cost_basis_real", "cost_basis"),
        ("price_real", "price"), ("realized_pnl_real", "realized_pnl"),
      ] {
        close(row[column], holding[key])
      }
    }
    let totals = try #require(json["totals"] as? [String: Any])
    let sums = try #require(
      try sandbox.sqliteJSON(
        """
        SELECT sum(value_real) AS value, sum(cost_basis_real) AS cost_basis,
          sum(unrealized_pnl_real) AS unrealized_pnl, sum(realized_pnl_real) AS realized_pnl
        FROM v_holdings WHERE portfolio = '\(portfolio)'
        """
      ).first)
    for key in ["value", "cost_basis", "unrealized_pnl", "realized_pnl"] {
      close(sums[key], totals[key])
    }
  }

  @Test func holdingsViewKeepsASoldOutCoinWithoutAnAverageCost() throws {
    try sandbox.buildDemo()
    let row = try #require(
      try sandbox.sqliteJSON("SELECT * FROM v_holdings WHERE coin_id = 'solana'").first)
    #expect(row["quantity"] as? String == "0")
    #expect(row["average_cost"] == nil)
    #expect(row["average_cost_real"] is NSNull)
    #expect(number(row["realized_pnl"]) == 55)  // 10 × 25.5 − 10 × 20
    #expect(number(row["value_real"]) == 0)
  }

  // MARK: - Other views

  @Test func realizedViewShowsEachSellWithProceedsCostProfitAndMethod() throws {
    try sandbox.buildDemo()
    let rows = try sandbox.sqliteJSON(
      """
      SELECT trade_id, portfolio, coin_id, quantity, price, fee, proceeds, cost_basis,
        realized_pnl, realized_pnl_real, method, day
      FROM v_realized ORDER BY trade_id
      """)
    #expect(rows.count == 3)
    let sell = try #require(rows.first)
    // 0.3 × 45000 − 5 = 13495; FIFO takes 0.3 of the 0.5 lot that cost 15010: 9006.
    #expect(sell["trade_id"] as? Int == 4)
    #expect(sell["portfolio"] as? String == "main")
    #expect(sell["proceeds"] as? String == "13495")
    #expect(sell["cost_basis"] as? String == "9006")
    #expect(sell["realized_pnl"] as? String == "4489")
    #expect(number(sell["realized_pnl_real"]) == 4489)
    #expect(sell["method"] as? String == "fifo")
    #expect(sell["day"] as? String == "2024-02-01")
    let cold = try #require(rows.last)
    #expect(cold["method"] as? String == "lifo")
    #expect(cold["realized_pnl"] as? String == "16000")
  }

  @Test func tradesAndLotsViewsCarryAmountsLocationsAndWhatIsLeft() throws {
    try sandbox.buildDemo()
    let trades = try sandbox.sqliteJSON(
      "SELECT trade_id, side, amount, location, portfolio FROM v_trades ORDER BY trade_id")
    #expect(trades.count == 8)
    #expect(trades[0]["amount"] as? String == "15010")  // 0.5 × 30000 + 10
    #expect(trades[0]["location"] as? String == "Colosseum, Rome")
    #expect(trades[1]["location"] is NSNull)
    #expect(trades[3]["amount"] as? String == "13495")  // the sell's proceeds
    #expect(trades[6]["portfolio"] as? String == "cold")
    let lots = try sandbox.sqliteJSON(
      "SELECT trade_id, remaining, remaining_cost, is_open, unit_cost_real FROM v_lots ORDER BY trade_id"
    )
    #expect(lots.map { $0["trade_id"] as? Int } == [1, 2, 3, 5, 7])
    #expect(lots[0]["remaining"] as? String == "0.2")
    #expect(lots[0]["remaining_cost"] as? String == "6004")
    #expect(number(lots[0]["unit_cost_real"]) == 30020)
    #expect(lots.map { $0["is_open"] as? Int } == [1, 1, 1, 0, 1])
  }

  @Test func locationsAndDailyViews() throws {
    try sandbox.buildDemo()
    let locations = try sandbox.sqliteJSON(
      "SELECT reference, images, image_count, trade_count FROM v_locations ORDER BY location_id")
    #expect(locations.count == 2)
    #expect(locations[0]["reference"] as? String == "Colosseum, Rome")
    #expect(locations[0]["images"] as? String == "[\"rome-colosseum-1\",\"rome-colosseum-2\"]")
    #expect(locations[0]["trade_count"] as? Int == 2)
    #expect(locations[1]["images"] as? String == "[]")
    #expect(locations[1]["trade_count"] as? Int == 0)
    let days = try sandbox.sqliteJSON("SELECT * FROM v_portfolio_daily ORDER BY day")
    #expect(days.map { $0["day"] as? String } == ["2024-03-01", "2024-03-02"])
    #expect(days[1]["value"] as? String == "24000.5")
    #expect(number(days[1]["value_real"]) == 24000.5)
    #expect(days[1]["portfolio"] as? String == "main")
  }

  @Test func everyTextNumberHasARealTwinWithTheSameValue() throws {
    try sandbox.buildDemo()
    for view in [
      "v_trades", "v_holdings", "v_lots", "v_realized", "v_portfolio_daily", "v_locations",
    ] {
      let rows = try sandbox.sqliteJSON("SELECT * FROM \(view)")
      #expect(!rows.isEmpty, "\(view)")
      for row in rows {
        for (key, value) in row where key.hasSuffix("_real") {
          let base = String(key.dropLast(5))
          guard let exact = row[base] else { continue }  // computed: REAL only
          #expect(exact is String || exact is NSNull, "\(view).\(base) is not TEXT")
          close(value, exact)
        }
      }
    }
  }

  // MARK: - Guard rails

  /// Runs `sql` in the sqlite3 shell (foreign keys off, its default) and expects SQLite to
  /// refuse it with `message`, changing nothing.
  func expectRefused(
    _ sql: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try sandbox.dump()
    let result = try Binary.runTool("/usr/bin/sqlite3", [sandbox.database, sql])
    #expect(result.code != 0, "\(sql) was accepted", sourceLocation: sourceLocation)
    #expect(result.err.contains(message), "\(result.err)", sourceLocation: sourceLocation)
    #expect(try sandbox.dump() == before, "\(sql) changed the file", sourceLocation: sourceLocation)
  }

  @Test func handTypedRowsThatBreakVisibleRulesAreRefusedEvenWithForeignKeysOff() throws {
    try sandbox.buildDemo()
    let insert =
      "INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee, created_at)"
    let time = "'2024-05-01T00:00:00Z'"
    try expectRefused(
      "\(insert) VALUES (1, \(time), 'hold', 'bitcoin', '1', '1', '0', \(time))",
      "CHECK constraint failed: side")
    try expectRefused(
      "\(insert) VALUES (1, \(time), 'buy', 'bitcoin', '0', '1', '0', \(time))",
      "CHECK constraint failed")
    try expectRefused(
      "\(insert) VALUES (1, \(time), 'buy', 'bitcoin', '-1', '1', '0', \(time))",
      "CHECK constraint failed")
    try expectRefused(
      "\(insert) VALUES (1, \(time), 'buy', 'bitcoin', '1.50', '1', '0', \(time))",
      "CHECK constraint failed")
    try expectRefused(
      "\(insert) VALUES (1, \(time), 'buy', 'bitcoin', '1', '1e3', '0', \(time))",
      "CHECK constraint failed")
    try expectRefused(
      "UPDATE trades SET portfolio_id = 99 WHERE id = 1", "trades.portfolio_id names no portfolio")
    try expectRefused(
      "UPDATE trades SET location_id = 42 WHERE id = 2", "trades.location_id names no location")
    try expectRefused(
      "UPDATE trades SET coin_id = 'Bitcoin' WHERE id = 2", "trades.coin_id must be a CoinGecko id")
    try expectRefused(
      "UPDATE trades SET executed_at = '2023-02-30T00:00:00Z' WHERE id = 2",
      "trades.executed_at must be a real UTC time")
    try expectRefused(
      "UPDATE trades SET created_at = 'now' WHERE id = 2", "trades.created_at must be a UTC time")
    try expectRefused("DELETE FROM trades WHERE id = 2", "this trade has derived rows")
    try expectRefused("DELETE FROM portfolios WHERE name = 'cold'", "this portfolio still has")
    try expectRefused("UPDATE portfolios SET id = 9 WHERE name = 'cold'", "the id of a portfolio")
    try expectRefused("DELETE FROM locations WHERE id = 1", "trades still point at this location")
    try expectRefused("UPDATE locations SET id = 9 WHERE id = 1", "the id of a location")
    try expectRefused(
      "INSERT INTO portfolio_daily (portfolio_id, day, saved_at) VALUES (7, '2024-01-01', \(time))",
      "portfolio_daily.portfolio_id names no portfolio")
    try expectRefused(
      "INSERT INTO portfolio_daily (portfolio_id, day, saved_at) VALUES (1, '2024-02-30', \(time))",
      "CHECK constraint failed: day_is_a_real_date_yyyy_mm_dd")
    try expectRefused(
      "INSERT INTO portfolio_daily (portfolio_id, day, value, saved_at) VALUES (1, '2024-01-01', '1.50', \(time))",
      "CHECK constraint failed: value_is_a_canonical_decimal")
    try expectRefused(
      "INSERT INTO portfolio_daily (portfolio_id, day, value, saved_at) VALUES (1, '2024-01-01', '-0', \(time))",
      "CHECK constraint failed: value_is_a_canonical_decimal")
  }

  @Test func guardsLetGoodHandEditsThrough() throws {
    try sandbox.buildDemo()
    let result = try Binary.runTool(
      "/usr/bin/sqlite3",
      [
        sandbox.database,
        """
        UPDATE trades SET note = 'typed by hand', coin_id = 'bitcoin', location_id = 2 WHERE id = 2;
        INSERT INTO portfolio_daily (portfolio_id, day, value, unrealized_pnl, saved_at)
        VALUES (2, '2024-02-29', '-0.5', '-12.000000000000000001', '2024-03-01T00:00:00Z');
        DELETE FROM portfolios WHERE id = 99;
        SELECT count(*) FROM portfolio_daily;
        """,
      ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "3\n")
  }

  @Test func folioItselfStillWritesThroughTheGuards() throws {
    try sandbox.buildDemo()
    _ = try sandbox.sqlite(
      "INSERT INTO portfolio_daily (portfolio_id, day, saved_at) VALUES (2, '2024-03-01', '2024-03-01T23:00:00Z')"
    )
    let steps: [[String]] = [
      ["tx", "edit", "2", "--price", "41000", "--date", "2023-05-01"],
      ["tx", "delete", "6"],
      ["tx", "delete", "5"],
      ["portfolio", "set", "main", "--method", "hifo"],
      ["locations", "delete", "1", "--force"],
      ["portfolio", "delete", "cold", "--force"],
    ]
    for step in steps {
      let result = sandbox.run(step)
      #expect(result.code == 0, "\(step): \(result.err)")
    }
    // portfolio delete also removed cold's daily rows; main's remain.
    #expect(try sandbox.sqlite("SELECT portfolio_id, count(*) FROM portfolio_daily") == "1|2\n")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM trades WHERE location_id IS NOT NULL") == "0\n")
    let check = sandbox.run("db", "check")
    #expect(check.code == 0, "\(check.out)\(check.err)")
  }
}
