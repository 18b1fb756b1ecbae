import FolioTestSupport
import Foundation
import Testing

/// `import trades` books rows in time order whatever their order in the file (rows with the
/// same time keep their file order), and names file lines in every problem it reports.
@Suite struct ImportOrderTests {
  let sandbox = Sandbox()
  let header = "date,side,coin,quantity,price,fee,note\n"

  /// What an import leaves, without the trade ids (they follow the file's order): holdings,
  /// and every lot, disposal and position keyed by its trade's time.
  func books(_ database: String) -> String {
    let holdings = sandbox.run(
      ["holdings", "--format", "csv"], environment: ["FOLIO_DB": database])
    let tables = DatabaseProbe.run(
      database,
      """
      SELECT t.executed_at, l.coin_id, l.quantity, l.cost, l.remaining, l.remaining_cost
        FROM lots l JOIN trades t ON t.id = l.trade_id ORDER BY 1, 2;
      SELECT t.executed_at, d.coin_id, d.quantity, d.proceeds, d.cost_basis, d.realized_pnl
        FROM disposals d JOIN trades t ON t.id = d.trade_id ORDER BY 1, 2;
      SELECT coin_id, quantity, cost_basis, realized_pnl, last_trade_at, last_price
        FROM positions ORDER BY 1;
      SELECT c.lot_at, c.sell_at, c.quantity, c.cost FROM (
        SELECT (SELECT executed_at FROM trades WHERE id = lc.lot_trade_id) AS lot_at,
          (SELECT executed_at FROM trades WHERE id = lc.sell_trade_id) AS sell_at,
          lc.quantity, lc.cost FROM lot_consumptions lc) c ORDER BY 1, 2;
      """
    ).out
    return holdings.out + tables
  }

  @Test func newestFirstAndShuffledHistoriesBookExactlyAsTheSortedOne() throws {
    var results: [HistoryGenerator.Order: String] = [:]
    for order in HistoryGenerator.Order.allCases {
      let folder = sandbox.file(order.rawValue)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      var generator = HistoryGenerator(trades: 1_500)
      generator.coinCount = 4
      generator.order = order
      try generator.write(to: folder)
      let database = folder + "/folio.sqlite3"
      let imported = sandbox.run(
        ["import", "trades", folder + "/trades.csv", "--allow-future"],
        environment: ["FOLIO_DB": database])
      #expect(imported.code == 0, "\(order): \(imported.err)")
      #expect(imported.out.hasPrefix("imported 1500 trade(s)"), "\(order)")
      results[order] = books(database)
    }
    let sorted = try #require(results[.oldest])
    #expect(sorted.contains("bitcoin"))
    #expect(sorted.split(separator: "\n").count > 1_500)
    #expect(results[.newest] == sorted)
    #expect(results[.shuffled] == sorted)
  }

  /// Newest first onto trades already stored, some rows before them and some after: the same
  /// books as the same trades entered in time order.
  @Test func aReversedFileAroundStoredTradesMatchesTradesEnteredInOrder() throws {
    let rows = [
      "2024-01-05T00:00:00Z,buy,bitcoin,1,50,0,", "2024-01-20T00:00:00Z,sell,bitcoin,0.5,120,0,",
      "2024-03-01T00:00:00Z,buy,bitcoin,1,300,0,", "2024-03-02T00:00:00Z,sell,bitcoin,2,310,1,",
    ]
    #expect(sandbox.run("buy", "bitcoin", "2", "--price", "100", "--date", "2024-01-10").code == 0)
    #expect(
      sandbox.run("sell", "bitcoin", "1", "--price", "200", "--date", "2024-02-01").code == 0)
    let file = sandbox.write("newest.csv", header + rows.reversed().joined(separator: "\n"))
    let result = sandbox.run("import", "trades", file)
    #expect(result.code == 0, "\(result.err)")

    let inOrder = sandbox.file("in-order.sqlite3")
    let all = [
      ("buy", "1", "50", "2024-01-05"), ("buy", "2", "100", "2024-01-10"),
      ("sell", "0.5", "120", "2024-01-20"), ("sell", "1", "200", "2024-02-01"),
      ("buy", "1", "300", "2024-03-01"),
    ]
    for (side, quantity, price, date) in all {
      let entered = sandbox.run(
        [side, "bitcoin", quantity, "--price", price, "--date", date],
        environment: ["FOLIO_DB": inOrder])
      #expect(entered.code == 0, "\(entered.err)")
    }
    #expect(
      sandbox.run(
        ["sell", "bitcoin", "2", "--price", "310", "--fee", "1", "--date", "2024-03-02"],
        environment: ["FOLIO_DB": inOrder]
      ).code == 0)
    #expect(books(sandbox.database) == books(inOrder))
    // FIFO: 0.5 @ 50 → 25; 0.5 @ 50 + 0.5 @ 100 → 75; 1.5 @ 100 + 0.5 @ 300 → 300.
    #expect(
      try sandbox.sqlite("SELECT realized_pnl FROM disposals ORDER BY disposed_at")
        == "35\n125\n319\n")
  }

  /// Rows with the same time are booked in file order: a buy then a sell in the same second
  /// works; the sell first is refused, naming its line and the buy's.
  @Test func rowsWithTheSameTimeKeepTheirFileOrder() throws {
    let sellFirst = sandbox.write(
      "sell-first.csv",
      header + "2024-05-01T10:00:00Z,sell,ethereum,1,10,0,\n"
        + "2024-04-01T10:00:00Z,buy,bitcoin,1,100,0,\n"
        + "2024-04-01T10:00:00Z,sell,bitcoin,1,110,0,\n"
        + "2024-05-01T10:00:00Z,buy,ethereum,1,10,0,\n")
    #expect(sandbox.run("db", "migrate").code == 0)
    let before = try sandbox.dump()
    let refused = sandbox.run("import", "trades", sellFirst)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: nothing was imported: "
        + "\(sellFirst):2: this sell of 1 ethereum on 2024-05-01T10:00:00Z exceeds the 0 held at "
        + "that time (short by 1); the first buy that could cover it is on line 5, at the same "
        + "time but after it in the file (rows with the same time are booked in file order; a "
        + "file that lists the newest rows first imports with --newest-first)\n")
    #expect(try sandbox.dump() == before)

    let fixed = sandbox.write(
      "fixed.csv",
      header + "2024-05-01T10:00:00Z,buy,ethereum,1,10,0,\n"
        + "2024-04-01T10:00:00Z,buy,bitcoin,1,100,0,\n"
        + "2024-04-01T10:00:00Z,sell,bitcoin,1,110,0,\n"
        + "2024-05-01T10:00:00Z,sell,ethereum,1,12,0,\n")
    let result = sandbox.run("import", "trades", fixed)
    #expect(result.code == 0, "\(result.err)")
    #expect(
      try sandbox.sqlite("SELECT coin_id, realized_pnl FROM disposals ORDER BY disposed_at")
        == "bitcoin|10\nethereum|2\n")
  }

  /// An exchange's newest-first export lists a buy and the sell of the same second sell
  /// first: with --newest-first, rows with the same time are booked from the last line up.
  @Test func newestFirstBooksRowsWithTheSameTimeFromTheLastLineUp() throws {
    let newest = sandbox.write(
      "newest.csv",
      header + "2024-03-05T10:00:00Z,sell,bitcoin,0.5,60000,0,\n"
        + "2024-02-01T09:30:15Z,sell,bitcoin,1,50000,0,\n"
        + "2024-02-01T09:30:15Z,buy,bitcoin,1,49900,0,\n"
        + "2024-01-01T00:00:00Z,buy,bitcoin,0.5,40000,0,\n")
    #expect(sandbox.run("db", "migrate").code == 0)
    let before = try sandbox.dump()
    #expect(sandbox.run("import", "trades", newest).code == 65)
    #expect(try sandbox.dump() == before)
    let result = sandbox.run("import", "trades", "--newest-first", newest)
    #expect(result.code == 0, "\(result.err)")
    // Booked oldest first; the buy of 09:30:15 (line 4) before its sell (line 3), ids in that
    // order. FIFO: the sell of 1 takes 0.5 at 40,000 and 0.5 at 49,900.
    #expect(
      try sandbox.sqlite("SELECT id, side, quantity, price FROM trades ORDER BY id")
        == "1|buy|0.5|40000\n2|buy|1|49900\n3|sell|1|50000\n4|sell|0.5|60000\n")
    #expect(
      try sandbox.sqlite("SELECT trade_id, realized_pnl FROM disposals ORDER BY trade_id")
        == "3|5050\n4|5050\n")
    // Importing the same file again adds nothing.
    let again = sandbox.run("import", "trades", "--newest-first", newest)
    #expect(again.code == 0)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "4\n")

    // A sell above its buy of the same second in a newest-first file is refused, naming both.
    let wrong = sandbox.write(
      "wrong.csv",
      header + "2024-02-01T09:30:15Z,buy,ethereum,1,10,0,\n"
        + "2024-02-01T09:30:15Z,sell,ethereum,1,12,0,\n")
    let refused = sandbox.run("import", "trades", "--newest-first", wrong)
    #expect(refused.code == 65)
    #expect(
      refused.err.hasSuffix(
        "\(wrong):3: this sell of 1 ethereum on 2024-02-01T09:30:15Z exceeds the 0 held at that "
          + "time (short by 1); the first buy that could cover it is on line 2, at the same time "
          + "but above it in the file (with --newest-first, rows with the same time are booked "
          + "from the last line up)\n"))
  }

  /// In a newest-first file, problems still name the lines of the file.
  @Test func problemsInAReversedFileNameTheirLines() throws {
    let file = sandbox.write(
      "newest.csv",
      header + "2024-01-04,sell,bitcoin,3,100,0,\n2024-01-03,buy,bitcoin,1,100,0,\n"
        + "2024-01-02,sell,bitcoin,0.5,100,0,\n2024-01-01,buy,bitcoin,1,100,0,\n")
    #expect(sandbox.run("db", "migrate").code == 0)
    let before = try sandbox.dump()
    let refused = sandbox.run("import", "trades", file)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: nothing was imported: "
        + "\(file):2: this sell of 3 bitcoin on 2024-01-04T00:00:00Z exceeds the 1.5 held at "
        + "that time (short by 1.5); the sell of 0.5 on line 4 (2024-01-02T00:00:00Z) "
        + "came first\n")
    #expect(try sandbox.dump() == before)

    let bad = sandbox.write(
      "bad.csv",
      header + "2024-01-04,sell,bitcoin,1,100,0,\n2024-01-03,buy,bitcoin,x,100,0,\n"
        + "2024-01-02,buy,bitcoin,1,100,0,\n")
    let badResult = sandbox.run("import", "trades", bad)
    #expect(badResult.code == 65)
    #expect(badResult.err.contains(": \(bad):3: quantity: 'x'"))
  }

  /// A row dated before a stored sell that then falls short names the row's line and the
  /// stored trade's id.
  @Test func anOversellOfAStoredTradeNamesTheRowAndTheTradeID() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    #expect(sandbox.run("sell", "bitcoin", "1", "--price", "100", "--date", "2024-03-01").code == 0)
    let file = sandbox.write(
      "early.csv", header + "2024-02-10,buy,ethereum,1,5,0,\n2024-02-01,sell,bitcoin,0.5,100,0,\n")
    let before = try sandbox.dump()
    let refused = sandbox.run("import", "trades", file)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: nothing was imported: "
        + "\(file):3: this sell of 0.5 bitcoin on 2024-02-01T00:00:00Z leaves too little for "
        + "trade #2, a sell of 1 bitcoin on 2024-03-01T00:00:00Z already in the database, which "
        + "then exceeds the 0.5 held at that time (short by 0.5)\n")
    #expect(try sandbox.dump() == before)
  }

  /// A file's sell that falls short after a stored sell names the stored trade by its id.
  @Test func anOversellAfterAStoredSellNamesThatTrade() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    #expect(
      sandbox.run("sell", "bitcoin", "0.75", "--price", "100", "--date", "2024-02-01").code == 0)
    let file = sandbox.write("late.csv", header + "2024-03-01,sell,bitcoin,0.5,100,0,\n")
    let refused = sandbox.run("import", "trades", file)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: nothing was imported: "
        + "\(file):2: this sell of 0.5 bitcoin on 2024-03-01T00:00:00Z exceeds the 0.25 held at "
        + "that time (short by 0.25); trade #2, a sell of 0.75 on 2024-02-01T00:00:00Z "
        + "already in the database, came first\n")
  }

  /// Every problem is one line of its own, and what the file holds is shown, never obeyed:
  /// an escape sequence in a field cannot draw on the terminal, a line break cannot start a line.
  @Test func problemLinesShowControlCharactersAsText() throws {
    let file = sandbox.write(
      "hostile.csv",
      header + "2024-01-01,\u{1B}]52;c;aGk=\u{07},bitcoin,1,1,0,\n"
        + "2024-01-02,\"b\nuy\",bitcoin,1,1,0,\n2024-01-03,buy,bitcoin,1,1,0,\n")
    let refused = sandbox.run("import", "trades", file)
    #expect(refused.code == 65)
    #expect(
      refused.err
        == "folio: error: nothing was imported: 2 problems found\n"
        + "\(file):2: side: '\\u{1B}]52;c;aGk=\\u{7}' is neither buy nor sell\n"
        + "\(file):3: side: 'b uy' is neither buy nor sell\n")
    #expect(!refused.err.contains("\u{1B}"))
  }

  /// An oversell in each of 20 coins: each is reported on its line, in line order.
  @Test func everyCoinThatOversellsIsListed() throws {
    var rows = header
    let coins = HistoryGenerator.coins.map(\.id)
    for (index, coin) in coins.enumerated().reversed() {
      rows += "2024-02-\(String(format: "%02d", index + 1)),sell,\(coin),2,1,0,\n"
      rows += "2024-01-\(String(format: "%02d", index + 1)),buy,\(coin),1,1,0,\n"
    }
    let file = sandbox.write("many.csv", rows)
    let refused = sandbox.run("import", "trades", file)
    #expect(refused.code == 65)
    let lines = refused.err.split(separator: "\n")
    #expect(lines.count == 21)
    #expect(lines.first == "folio: error: nothing was imported: 20 problems found")
    let named = lines.dropFirst().map { $0.split(separator: ":")[1] }
    #expect(named == stride(from: 2, to: 42, by: 2).map { Substring(String($0)) })
    #expect(lines[1].hasSuffix("exceeds the 1 held at that time (short by 1)"))
  }

  /// A position booked in time order at the end whose figures grow too large still names a
  /// line (its earliest row), and nothing is imported.
  @Test func aTooLargePositionBookedAtTheEndNamesItsEarliestRow() throws {
    let file = sandbox.write(
      "overflow.csv",
      header + "2024-01-02,buy,bitcoin,100000000000000000000,1,0,\n"
        + "2024-01-03,sell,bitcoin,150000000000000000000,1,0,\n"
        + "2024-01-01,buy,bitcoin,100000000000000000000,1,0,\n")
    let result = sandbox.run("import", "trades", file)
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: nothing was imported: \(file):4: 'bitcoin' in portfolio 'main', booked "
        + "in time order from this row: a figure is too large to represent exactly (folio keeps "
        + "numbers up to about 1.7e20)\n")
    // The database did not exist before: the refused import leaves none.
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }
}
