import FolioService
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// The views and guard rails of the views migration, read and poked with the real sqlite3 on a
/// database built by the CLI.
@Suite(.requires(.sqlite3)) struct ViewsTests {
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

  /// The demo plus a EUR portfolio, and monero (quoted in EUR only) held in main and euro.
  func buildHoldingsDemo(withMarketData: Bool) throws {
    try sandbox.buildDemo(withMarketData: withMarketData)
    for step in [
      ["portfolio", "add", "euro", "--currency", "eur"],
      ["buy", "bitcoin", "0.1", "--price", "35000", "--date", "2023-09-01", "--portfolio", "euro"],
      ["buy", "monero", "3", "--price", "130", "--date", "2023-10-01", "--portfolio", "euro"],
      ["buy", "monero", "4", "--price", "150.5", "--date", "2023-10-02"],
    ] {
      let result = sandbox.run(step)
      #expect(result.code == 0, "\(step): \(result.err)")
    }
  }

  /// Expects the `v_holdings` rows of `portfolio` to give the figures of
  /// `folio holdings --format json`, and returns them.
  @discardableResult
  func expectHoldingsViewMatchesJSON(
    _ portfolio: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [[String: Any]] {
    let result = sandbox.run("holdings", "--format", "json", "--portfolio", portfolio)
    #expect(result.code == 0, "\(result.err)", sourceLocation: sourceLocation)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any],
      sourceLocation: sourceLocation)
    let holdings = try #require(
      json["holdings"] as? [[String: Any]], sourceLocation: sourceLocation)
    let rows = try sandbox.sqliteJSON(
      "SELECT * FROM v_holdings WHERE portfolio = '\(portfolio)' ORDER BY coin_id")
    #expect(rows.count == holdings.count, sourceLocation: sourceLocation)
    #expect(rows.count >= 1, sourceLocation: sourceLocation)
    for (row, holding) in zip(rows, holdings) {
      #expect(
        row["coin_id"] as? String == holding["coin"] as? String, sourceLocation: sourceLocation)
      #expect(
        row["currency"] as? String == json["currency"] as? String, sourceLocation: sourceLocation)
      #expect(
        row["method"] as? String == json["method"] as? String, sourceLocation: sourceLocation)
      // Stored figures: the exact text, character for character.
      for (column, key) in [
        ("quantity", "quantity"), ("cost_basis", "cost_basis"), ("price", "price"),
        ("price_at", "price_time"), ("price_source", "price_source"),
        ("realized_pnl", "realized_pnl"),
      ] {
        #expect(
          row[column] as? String == holding[key] as? String, "\(row["coin_id"] ?? "") \(column)",
          sourceLocation: sourceLocation)
      }
      // Computed figures: REAL, equal to folio's exact ones up to binary rounding.
      for (column, key) in [
        ("average_cost_real", "average_cost"), ("value_real", "value"),
        ("unrealized_pnl_real", "unrealized_pnl"), ("share_real", "share"),
        ("quantity_real", "quantity"), ("cost_basis_real", "cost_basis"),
        ("price_real", "price"), ("realized_pnl_real", "realized_pnl"),
      ] {
        close(row[column], holding[key], sourceLocation: sourceLocation)
      }
    }
    let totals = try #require(json["totals"] as? [String: Any], sourceLocation: sourceLocation)
    let sums = try #require(
      try sandbox.sqliteJSON(
        """
        SELECT sum(value_real) AS value, sum(cost_basis_real) AS cost_basis,
          sum(unrealized_pnl_real) AS unrealized_pnl, sum(realized_pnl_real) AS realized_pnl
        FROM v_holdings WHERE portfolio = '\(portfolio)'
        """
      ).first)
    for key in ["value", "cost_basis", "unrealized_pnl", "realized_pnl"] {
      close(sums[key], totals[key], sourceLocation: sourceLocation)
    }
    return rows
  }

  @Test(arguments: ["main", "cold", "euro"], [false, true])
  func holdingsViewGivesTheFiguresOfHoldingsJSON(portfolio: String, withMarketData: Bool) throws {
    try buildHoldingsDemo(withMarketData: withMarketData)
    let rows = try expectHoldingsViewMatchesJSON(portfolio)
    // Only market quotes value a coin (one valuation rule): without market data nothing has
    // a price; with it, held coins quoted in the portfolio's currency are valued at market
    // (monero has no USD quote: no price in main).
    let sources = Set(rows.compactMap { $0["price_source"] as? String })
    #expect(sources == (withMarketData ? ["market"] : []))
  }

  @Test func afterAMarketPruneHoldingsViewStillGivesTheFiguresOfHoldingsJSON() throws {
    try buildHoldingsDemo(withMarketData: true)
    let prune = sandbox.run("market", "prune", "--keep-days", "1")
    #expect(prune.code == 0, "\(prune.err)")
    // Only the newest snapshot of each currency is left: bitcoin and ethereum in USD.
    let usd = try sandbox.sqliteJSON(
      "SELECT coin_id FROM v_latest_quotes WHERE vs_currency = 'usd' ORDER BY coin_id")
    #expect(usd.map { $0["coin_id"] as? String } == ["bitcoin", "ethereum"])
    for portfolio in ["main", "cold", "euro"] {
      try expectHoldingsViewMatchesJSON(portfolio)
    }
    let solana = try #require(
      try sandbox.sqliteJSON("SELECT * FROM v_holdings WHERE coin_id = 'solana'").first)
    // Its quotes pruned, solana has no price (sold out, it is still worth 0).
    #expect(solana["price_source"] is NSNull && solana["price"] is NSNull)
    #expect(number(solana["value_real"]) == 0)
  }

  @Test func holdingsViewValuesAtTheNewestQuoteInThePortfoliosCurrencyElseNot() throws {
    try buildHoldingsDemo(withMarketData: true)
    let rows = try sandbox.sqliteJSON(
      """
      SELECT portfolio, coin_id, price, price_at, price_source, value_real FROM v_holdings
      ORDER BY portfolio, coin_id
      """)
    func row(_ portfolio: String, _ coin: String) -> [String: Any]? {
      rows.first { $0["portfolio"] as? String == portfolio && $0["coin_id"] as? String == coin }
    }
    let expected: [(String, String, String?, String?, String?)] = [
      // The 2024-01-25 snapshot is the newest with bitcoin; the 2024-01-20 one came in last.
      ("main", "bitcoin", "42150.25", "2024-01-25T00:00:00Z", "market"),
      // Solana is not in the 2024-01-25 snapshot: its newest quote is older.
      ("main", "solana", "84.8128", "2024-01-24T00:28:58Z", "market"),
      // No USD quote for monero: no price, no value (left out of the total).
      ("main", "monero", nil, nil, nil),
      ("cold", "bitcoin", "42150.25", "2024-01-25T00:00:00Z", "market"),
      // A EUR portfolio takes EUR quotes.
      ("euro", "bitcoin", "36685", "2024-01-24T00:28:58Z", "market"),
      ("euro", "monero", "138.18", "2024-01-24T00:28:58Z", "market"),
    ]
    for (portfolio, coin, price, time, source) in expected {
      let found = try #require(row(portfolio, coin), "\(portfolio) \(coin)")
      #expect(found["price"] as? String == price, "\(portfolio) \(coin)")
      #expect(found["price_at"] as? String == time, "\(portfolio) \(coin)")
      #expect(found["price_source"] as? String == source, "\(portfolio) \(coin)")
    }
    close(row("main", "bitcoin")?["value_real"], "18967.6125")  // 0.45 × 42150.25
    #expect(number(row("main", "solana")?["value_real"]) == 0)  // sold out
    // Every market price is the one v_latest_quotes shows for the portfolio's currency.
    let mismatched = try sandbox.sqliteJSON(
      """
      SELECT h.portfolio, h.coin_id FROM v_holdings AS h
      LEFT JOIN v_latest_quotes AS l ON l.coin_id = h.coin_id AND l.vs_currency = h.currency
      WHERE h.price_source = 'market'
        AND (l.current_price IS NOT h.price OR l.fetched_at IS NOT h.price_at)
      """)
    #expect(mismatched.isEmpty, "\(mismatched)")
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

  // MARK: - v_latest_quotes

  @Test func latestQuotesViewHasTheQuotesOfMarketDataLatestQuotes() throws {
    try sandbox.buildDemo(withMarketData: true)
    let store = try Store(StoreLocation(path: sandbox.database), mustExist: true)
    for currency in ["usd", "eur", "gbp"] {
      let quotes = try MarketData(store).latestQuotes(vsCurrency: currency)
      let rows = try sandbox.sqliteJSON(
        "SELECT * FROM v_latest_quotes WHERE vs_currency = '\(currency)' ORDER BY coin_id")
      #expect(rows.count == quotes.count, "\(currency)")
      #expect(rows.map { $0["coin_id"] as? String } == quotes.keys.sorted(), "\(currency)")
      for row in rows {
        let coin = try #require(row["coin_id"] as? String)
        let quote = try #require(quotes[coin])
        #expect(row["current_price"] as? String == quote.price.description, "\(coin)")
        #expect(row["fetched_at"] as? String == quote.snapshotAt, "\(coin)")
        #expect(row["snapshot_id"] as? Int == Int(quote.snapshot.id), "\(coin)")
        #expect(row["source"] as? String == quote.snapshot.source, "\(coin)")
        #expect(row["symbol"] as? String == quote.quote.symbol, "\(coin)")
        #expect(row["market_cap"] as? String == quote.quote.marketCap?.description, "\(coin)")
      }
    }
    // 20 USD coins (bitcoin and ethereum from the 2024-01-25 snapshot), 100 EUR coins.
    let counts = try sandbox.sqliteJSON(
      """
      SELECT vs_currency, count(*) AS coins, max(fetched_at) AS newest, min(fetched_at) AS oldest
      FROM v_latest_quotes GROUP BY vs_currency ORDER BY vs_currency
      """)
    #expect(counts.map { $0["vs_currency"] as? String } == ["eur", "usd"])
    #expect(counts.map { $0["coins"] as? Int } == [100, 20])
    #expect(counts[1]["newest"] as? String == "2024-01-25T00:00:00Z")
    #expect(counts[1]["oldest"] as? String == "2024-01-24T00:28:58Z")
    let bitcoin = try #require(
      try sandbox.sqliteJSON(
        "SELECT * FROM v_latest_quotes WHERE coin_id = 'bitcoin' AND vs_currency = 'usd'"
      ).first)
    #expect(bitcoin["current_price"] as? String == "42150.25")
    #expect(number(bitcoin["current_price_real"]) == 42150.25)
    #expect(bitcoin["market_cap"] as? String == "826500000000")
    #expect(bitcoin["sparkline_7d"] is NSNull)
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
    try sandbox.buildDemo(withMarketData: true)
    for view in [
      "v_trades", "v_holdings", "v_lots", "v_realized", "v_latest_quotes", "v_portfolio_daily",
      "v_locations",
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
    let result = try Binary.runTool(Binary.sqlite3, [sandbox.database, sql])
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

  @Test func handDeletedSnapshotsTakeTheirRowsWithThemEvenWithForeignKeysOff() throws {
    try sandbox.buildDemo(withMarketData: true)
    let result = try Binary.runTool(
      Binary.sqlite3,
      [
        sandbox.database,
        """
        DELETE FROM market_snapshots WHERE fetched_at = '2024-01-25T00:00:00Z';
        DELETE FROM global_snapshots WHERE fetched_at = '2021-05-18T13:55:59Z';
        SELECT (SELECT count(*) FROM market_quotes WHERE snapshot_id NOT IN
            (SELECT id FROM market_snapshots))
          + (SELECT count(*) FROM global_totals WHERE snapshot_id NOT IN
            (SELECT id FROM global_snapshots))
          + (SELECT count(*) FROM global_market_cap_percentages WHERE snapshot_id NOT IN
            (SELECT id FROM global_snapshots));
        """,
      ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "0\n")
    // Bitcoin's newest USD quote is the 2024-01-24 one again.
    let bitcoin = try #require(
      try sandbox.sqliteJSON(
        """
        SELECT current_price, fetched_at FROM v_latest_quotes
        WHERE coin_id = 'bitcoin' AND vs_currency = 'usd'
        """
      ).first)
    #expect(bitcoin["current_price"] as? String == "39935.3")
    #expect(bitcoin["fetched_at"] as? String == "2024-01-24T00:28:58Z")
    #expect(try sandbox.sqlite("SELECT count(*) FROM global_snapshots") == "2\n")
  }

  @Test func guardsLetGoodHandEditsThrough() throws {
    try sandbox.buildDemo()
    let result = try Binary.runTool(
      Binary.sqlite3,
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
