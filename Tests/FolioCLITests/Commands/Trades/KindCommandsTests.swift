import FolioTestSupport
import Foundation
import Testing

/// Issue 15, part 1: the commands of the kinds of transaction, and their CSV round trip.
@Suite struct KindCommandsTests {
  let sandbox = Sandbox()

  func ok(_ arguments: String...) -> String {
    let result = sandbox.run(arguments, environment: Sandbox.wide)
    #expect(result.code == 0, "\(arguments): \(result.err)")
    return result.out
  }

  /// A history with every kind, in two portfolios.
  func everyKind() {
    _ = ok("portfolio", "add", "cold")
    _ = ok("buy", "btc", "1", "--price", "100", "--date", "2024-01-01")
    _ = ok("buy", "btc", "1", "--price", "300", "--date", "2024-01-02")
    _ = ok("income", "eth", "2", "--price", "10", "--kind", "staking", "--date", "2024-01-02")
    _ = ok(
      "transfer", "btc", "1.5", "--from", "main", "--to", "cold", "--fee", "0.1", "--date",
      "2024-01-03")
    _ = ok(
      "swap", "0.5", "btc", "for", "10", "eth", "--value", "150", "--fee", "0.1", "eth",
      "--date", "2024-01-04")
    _ = ok(
      "deposit", "sol", "3", "--cost", "30", "--acquired", "2023-01-01", "--date", "2024-01-05")
    _ = ok("withdraw", "eth", "1", "--date", "2024-01-06")
  }

  @Test func everyKindIsListedAndBooked() throws {
    everyKind()
    let list = ok("tx", "list", "--format", "csv")
    #expect(
      list.split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false)[2]
      }
        == [
          "side", "buy", "buy", "income:staking", "transfer-out", "swap-out", "swap-in", "deposit",
          "withdrawal",
        ])
    #expect(
      try sandbox.sqlite(
        "SELECT coin_id, quantity, cost_basis, realized_pnl FROM positions ORDER BY portfolio_id, coin_id"
      )
        == "bitcoin|0|0|0\nethereum|11|160|0\nsolana|3|30|0\nbitcoin|1.4|250|0\n")
    // The lots that arrived keep their dates.
    #expect(
      try sandbox.sqlite(
        "SELECT acquired_at, remaining, remaining_cost FROM v_lots WHERE portfolio = 'cold' ORDER BY acquired_at"
      )
        == "2024-01-01T00:00:00Z|1|100\n2024-01-02T00:00:00Z|0.4|150\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM v_trades WHERE kind = 'transfer'") == "3\n")
    #expect(ok("db", "check").hasPrefix("ok"))
  }

  /// Export both portfolios, import them into a new database, export again: the same bytes.
  @Test func csvCarriesEveryKindByteForByte() throws {
    everyKind()
    _ = ok("export", "trades", "--out", sandbox.path + "/main.csv")
    _ = ok("--portfolio", "cold", "export", "trades", "--out", sandbox.path + "/cold.csv")
    let main = try String(contentsOfFile: sandbox.path + "/main.csv", encoding: .utf8)
    let cold = try String(contentsOfFile: sandbox.path + "/cold.csv", encoding: .utf8)
    #expect(
      main.hasPrefix(
        "date,side,coin,quantity,price,fee,note,id,location,kind,income_type,amount,acquired,link\n"
      ))
    let copy = Sandbox()
    #expect(copy.run("portfolio", "add", "cold").code == 0)
    let first = copy.run("import", "trades", sandbox.path + "/main.csv")
    #expect(first.code == 0, "\(first.err)")
    let second = copy.run("--portfolio", "cold", "import", "trades", sandbox.path + "/cold.csv")
    #expect(second.code == 0, "\(second.err)")
    #expect(copy.run("export", "trades").out == main)
    #expect(copy.run("--portfolio", "cold", "export", "trades").out == cold)
    #expect(
      try copy.sqlite(
        "SELECT coin_id, quantity, cost_basis FROM positions ORDER BY portfolio_id, coin_id")
        == "bitcoin|0|0\nethereum|11|160\nsolana|3|30\nbitcoin|1.4|250\n")
    // The partial indexes, kept while the first import wrote into the empty table, hold the
    // linked rows and the transfers, as one built afterwards would.
    #expect(
      try copy.sqlite(
        "SELECT count(*) FROM trades INDEXED BY trades_by_link WHERE link_id IS NOT NULL;"
          + " SELECT count(*) FROM trades INDEXED BY trades_at_market_value WHERE portfolio_id = 1"
          + " AND (kind = 'deposit' OR kind = 'withdrawal' OR kind = 'transfer')")
        == "5\n3\n")
    #expect(copy.run("db", "check").out.hasPrefix("ok"))
  }

  /// Transfers both ways between two portfolios: each portfolio's file links to a row of the
  /// other, so neither imports first. `--portfolio all` writes one file of every portfolio, in
  /// time order, naming each row's portfolio, and it imports into a new database whole.
  @Test func everyPortfolioInOneFileImportsTransfersBothWays() throws {
    _ = ok("buy", "bitcoin", "2", "--price", "100", "--date", "2024-01-01")
    _ = ok("portfolio", "add", "cold")
    _ = ok("--portfolio", "cold", "buy", "ethereum", "1", "--price", "10", "--date", "2024-01-15")
    _ = ok("transfer", "bitcoin", "1", "--from", "main", "--to", "cold", "--date", "2024-02-01")
    _ = ok("transfer", "bitcoin", "0.2", "--from", "cold", "--to", "main", "--date", "2024-03-01")
    let cold = ok("--portfolio", "cold", "export", "trades")
    let refused = Sandbox()
    #expect(refused.run("portfolio", "add", "cold").code == 0)
    _ = refused.write("cold.csv", cold)
    #expect(
      refused.run("--portfolio", "cold", "import", "trades", refused.file("cold.csv")).code == 65)

    let all = ok("--portfolio", "all", "export", "trades")
    #expect(
      all == """
        date,side,coin,quantity,price,fee,note,id,location,kind,income_type,amount,acquired,link,portfolio
        2024-01-01T00:00:00Z,buy,bitcoin,2,100,0,,folio-1,,trade,,,,,main
        2024-01-15T00:00:00Z,buy,ethereum,1,10,0,,folio-2,,trade,,,,,cold
        2024-02-01T00:00:00Z,sell,bitcoin,1,0,0,,folio-3,,transfer,,,,folio-3,main
        2024-02-01T00:00:00Z,buy,bitcoin,1,0,0,,folio-4,,transfer,,100,2024-01-01T00:00:00Z,folio-3,cold
        2024-03-01T00:00:00Z,sell,bitcoin,0.2,0,0,,folio-5,,transfer,,,,folio-5,cold
        2024-03-01T00:00:00Z,buy,bitcoin,0.2,0,0,,folio-6,,transfer,,20,2024-01-01T00:00:00Z,folio-5,main

        """)
    let copy = Sandbox()
    #expect(copy.run("portfolio", "add", "cold").code == 0)
    _ = copy.write("all.csv", all)
    let imported = copy.run("import", "trades", copy.file("all.csv"))
    #expect(imported.code == 0, "\(imported.err)")
    #expect(copy.run("--portfolio", "all", "export", "trades").out == all)
    #expect(
      try copy.sqlite(
        "SELECT portfolio_id, coin_id, quantity, cost_basis FROM positions ORDER BY 1, 2")
        == "1|bitcoin|1.2|120\n2|bitcoin|0.8|80\n2|ethereum|1|10\n")
    #expect(copy.run("db", "check").out.hasPrefix("ok"))
    // One portfolio under `all` is that portfolio's file, without the column.
    let single = Sandbox()
    #expect(single.run("buy", "bitcoin", "1", "--price", "1", "--date", "2024-01-01").code == 0)
    #expect(
      single.run("--portfolio", "all", "export", "trades").out
        == single.run("export", "trades").out)
  }

  /// Two giving-up rows with one id, one per portfolio: the arriving row is linked to the one
  /// at its own time, in the other portfolio, as in the database the file came from.
  @Test func aLinkNamesTheRowGivingUpAtItsOwnTime() throws {
    _ = ok("portfolio", "add", "cold")
    _ = ok("buy", "bitcoin", "2", "--price", "100", "--date", "2024-01-01")
    _ = ok("--portfolio", "cold", "buy", "bitcoin", "2", "--price", "200", "--date", "2024-01-01")
    _ = ok(
      "transfer", "bitcoin", "1", "--from", "main", "--to", "cold", "--date", "2024-01-02",
      "--id", "folio-5")
    _ = ok("transfer", "bitcoin", "1", "--from", "cold", "--to", "main", "--date", "2024-01-03")
    let links = "SELECT id, portfolio_id, side, link_id FROM trades ORDER BY id"
    let source = try sandbox.sqlite(links)
    let all = ok("--portfolio", "all", "export", "trades")
    let copy = Sandbox()
    #expect(copy.run("portfolio", "add", "cold").code == 0)
    _ = copy.write("all.csv", all)
    #expect(copy.run("import", "trades", copy.file("all.csv")).code == 0)
    #expect(try copy.sqlite(links) == source)
    #expect(source.hasSuffix("5|2|sell|5\n6|1|buy|5\n"), "\(source)")
  }

  /// Three portfolios, one id on every transfer, all in one second: each arriving row is
  /// linked to the giving-up row just before it in the file.
  @Test func aLinkNamesTheNearestRowGivingUpBeforeIt() throws {
    _ = ok("portfolio", "add", "a")
    _ = ok("portfolio", "add", "b")
    _ = ok("buy", "bitcoin", "10", "--price", "100", "--date", "2024-01-01", "--id", "T")
    let second = "2024-02-01T00:00:00Z"
    _ = ok(
      "transfer", "bitcoin", "3", "--from", "main", "--to", "a", "--date", second, "--id", "T2")
    _ = ok("transfer", "bitcoin", "1", "--from", "a", "--to", "b", "--date", second, "--id", "T")
    _ = ok("transfer", "bitcoin", "1", "--from", "b", "--to", "main", "--date", second, "--id", "T")
    let links = "SELECT id, portfolio_id, side, link_id FROM trades ORDER BY id"
    let source = try sandbox.sqlite(links)
    let copy = Sandbox()
    #expect(copy.run("portfolio", "add", "a").code == 0)
    #expect(copy.run("portfolio", "add", "b").code == 0)
    _ = copy.write("all.csv", ok("--portfolio", "all", "export", "trades"))
    let imported = copy.run("import", "trades", copy.file("all.csv"))
    #expect(imported.code == 0, "\(imported.err)")
    #expect(try copy.sqlite(links) == source)
  }

  /// A file may not make what the commands refuse: a swap across two portfolios, a transfer
  /// within one or between two currencies.
  @Test func aLinkAcrossTheWrongPortfoliosIsRefused() throws {
    _ = ok("portfolio", "add", "a")
    _ = ok("portfolio", "add", "euro", "--currency", "eur")
    let header = "date,side,coin,quantity,price,id,kind,amount,acquired,link,portfolio\n"
    _ = ok("buy", "bitcoin", "1", "--price", "10", "--date", "2024-01-01")
    let give = "2024-01-02,sell,bitcoin,1,0,S,"
    for (rows, message) in [
      (
        give + "swap,40,,S,main\n2024-01-02,buy,ethereum,2,0,E,swap,40,,S,a\n",
        "x.csv:3: link 'S' names the row giving units up in a swap in another portfolio"
      ),
      (
        give + "transfer,,,S,main\n2024-01-02,buy,bitcoin,1,0,R,transfer,10,2024-01-01,S,main\n",
        "x.csv:3: link 'S' names the row giving units up in a transfer in the same portfolio"
      ),
      (
        give + "transfer,,,S,main\n2024-01-02,buy,bitcoin,1,0,R,transfer,10,2024-01-01,S,euro\n",
        "x.csv:3: link 'S' names the row giving units up in a transfer in a portfolio of another"
      ),
    ] {
      let before = try sandbox.dump()
      let refused = sandbox.run("import", "trades", sandbox.write("x.csv", header + rows))
      #expect(refused.code == 65, "\(rows)")
      #expect(refused.err.contains(message), "\(refused.err)")
      #expect(try sandbox.dump() == before)
    }
  }

  /// Ids are unique per portfolio only: where the portfolio a transfer arrives in holds a trade
  /// with the id of the row giving the units up, the arriving row is linked to that row, not
  /// refused and not linked to the other trade.
  @Test func aLinkNamesTheRowGivingTheUnitsUpWhereIdsRepeat() throws {
    _ = ok("portfolio", "add", "cold")
    _ = ok("buy", "btc", "1", "--price", "100", "--date", "2024-01-01", "--id", "b1")
    _ = ok(
      "--portfolio", "cold", "buy", "btc", "2", "--price", "500", "--date", "2024-01-02", "--id",
      "x")
    _ = ok(
      "transfer", "btc", "0.5", "--from", "main", "--to", "cold", "--date", "2024-02-01", "--id",
      "x")
    let main = ok("export", "trades")
    let cold = ok("--portfolio", "cold", "export", "trades")
    let copy = Sandbox()
    #expect(copy.run("portfolio", "add", "cold").code == 0)
    let first = copy.run("import", "trades", copy.write("main.csv", main))
    #expect(first.code == 0, "\(first.err)")
    let second = copy.run("--portfolio", "cold", "import", "trades", copy.write("cold.csv", cold))
    #expect(second.code == 0, "\(second.err)")
    #expect(copy.run("export", "trades").out == main)
    #expect(copy.run("--portfolio", "cold", "export", "trades").out == cold)
    let links =
      "SELECT a.portfolio_id, b.portfolio_id, b.side FROM trades a JOIN trades b ON b.id = a.link_id"
      + " WHERE a.side = 'buy' ORDER BY a.id"
    #expect(try copy.sqlite(links) == (try sandbox.sqlite(links)))
    #expect(try copy.sqlite(links) == "2|1|sell\n")
  }

  /// A file of a plain portfolio keeps the columns it always had.
  @Test func aPortfolioOfBuysAndSellsExportsTheOldColumns() throws {
    _ = ok("buy", "btc", "1", "--price", "100", "--date", "2024-01-01")
    #expect(
      ok("export", "trades").hasPrefix("date,side,coin,quantity,price,fee,note,id,location\n"))
  }

  @Test func refusalsNameWhatIsWrongAndWriteNothing() throws {
    _ = ok("portfolio", "add", "euro", "--currency", "eur")
    _ = ok("buy", "btc", "1", "--price", "100", "--date", "2024-01-01")
    let before = try sandbox.dump()
    let transfer = sandbox.run("transfer", "btc", "1", "--from", "main", "--to", "euro")
    #expect(transfer.code == 65)
    #expect(transfer.err.contains("'main' counts in usd and 'euro' in eur"))
    let swap = sandbox.run("swap", "1", "btc", "for", "20", "eth", "--date", "2024-01-02")
    #expect(swap.code == 65)
    #expect(swap.err.contains("no value for the swap"))
    let withdraw = sandbox.run("withdraw", "btc", "2", "--date", "2024-01-02")
    #expect(withdraw.code == 65)
    let link = sandbox.write(
      "orphan.csv",
      "date,side,coin,quantity,price,kind,amount,acquired,link\n"
        + "2024-01-03,buy,bitcoin,1,0,transfer,5,2024-01-01,nowhere\n")
    let imported = sandbox.run("import", "trades", link)
    #expect(imported.code == 65)
    #expect(imported.err.contains("link 'nowhere' names no row"))
    #expect(try sandbox.dump() == before)
    // A link names the row that gives the units up: not a plain buy, not the arriving row
    // itself, not the giving-up row of a swap for a transfer.
    let header = "date,side,coin,quantity,price,id,kind,amount,acquired,link\n"
    for (rows, message) in [
      (
        "2024-01-02,buy,bitcoin,1,10,a,trade,,,\n"
          + "2024-01-03,buy,bitcoin,1,0,u,transfer,5,2024-01-01,a\n",
        "x.csv:3: link 'a' names no row that gives units up in a transfer"
      ),
      (
        "2024-01-03,buy,bitcoin,1,0,u,transfer,5,2024-01-01,u\n",
        "x.csv:2: link: a buy does not give units up"
      ),
      (
        "2024-01-02,sell,btc,0.5,0,s,swap,40,,s\n"
          + "2024-01-02,buy,ethereum,2,0,t,transfer,40,2024-01-01,s\n",
        "x.csv:3: link 's' names no row that gives units up in a transfer"
      ),
    ] {
      let file = sandbox.write("x.csv", header + rows)
      let refused = sandbox.run("import", "trades", file)
      #expect(refused.code == 65, "\(rows)")
      #expect(refused.err.contains(message), "\(refused.err)")
      #expect(try sandbox.dump() == before)
    }
    // A fee is paid out of the row's units, as `swap` and `transfer` refuse it.
    let fee = sandbox.write(
      "fee.csv",
      "date,side,coin,quantity,price,fee,id,kind,amount,link\n"
        + "2024-01-02,sell,btc,0.5,0,0.5,s,swap,40,s\n2024-01-02,buy,ethereum,2,0,0,t,swap,40,s\n")
    let refused = sandbox.run("import", "trades", fee)
    #expect(refused.code == 65)
    #expect(
      refused.err.contains(
        "fee.csv:2: fee: the fee 0.5 must be less than the quantity 0.5 it is paid out of"),
      "\(refused.err)")
    #expect(try sandbox.dump() == before)
  }

  /// Deleting one row of a transfer deletes all of it.
  @Test func deletingARowOfATransferDeletesAllOfIt() throws {
    everyKind()
    let out = ok("tx", "delete", "4")
    #expect(out.split(separator: "\n").count == 3)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades WHERE kind = 'transfer'") == "0\n")
    #expect(ok("db", "check").hasPrefix("ok"))
  }

  /// A row without a market price shows what it has instead of $0.00: a deposit or an arriving
  /// transfer piece its cost per unit (30 ÷ 3 = 10; the piece acquired at 300 arrives with
  /// 0.4 of it, 150 ÷ 0.4 = 375 — the fee's basis stays with the last piece), a withdrawal or a
  /// transfer out "none".
  @Test func rowsWithoutAMarketPriceShowTheirCostPerUnitOrNone() throws {
    everyKind()
    let list = ok("tx", "list")
    let prices = list.split(separator: "\n").dropFirst().map { line in
      let words = line.split(separator: " ")
      return "\(words[2]) "
        + words[5...].prefix { !$0.hasPrefix("0") && !$0.hasPrefix("$0") && $0 != "0.1" }.joined(
          separator: " ")
    }
    #expect(
      prices == [
        "buy $100.00", "buy $300.00", "income:staking $10.00", "transfer-out none",
        "swap-out $300.00", "swap-in $15.00", "deposit cost $10.00", "withdrawal none",
      ], "\(list)")
    let deposit = ok("tx", "show", "9")
    #expect(deposit.contains("price:     cost $10.00\n") && deposit.contains("cost:      $30.00\n"))
    #expect(ok("tx", "show", "10").contains("price:     none\n"))
    let cold = ok("tx", "list", "--portfolio", "cold")
    #expect(cold.contains("transfer-in  bitcoin         1  cost $100.00"), "\(cold)")
    #expect(cold.contains("transfer-in  bitcoin       0.4  cost $375.00"), "\(cold)")
  }

  /// Odd input found by hand: a swap worth nothing, and a withdrawal or transfer of more than
  /// is held, named as what they are (not "the sell"); nothing is written.
  @Test func oddInputIsRefusedNamingTheKind() throws {
    _ = ok("portfolio", "add", "cold")
    _ = ok("buy", "btc", "1", "--price", "100", "--date", "2024-01-01")
    let before = try sandbox.dump()
    let free = sandbox.run(
      "swap", "0.1", "btc", "for", "2", "eth", "--value", "0", "--date", "2024-01-02")
    #expect(free.code == 65)
    #expect(free.err.hasPrefix("folio: error: --value: must be greater than zero, got '0'"))
    let withdrawn = sandbox.run("withdraw", "btc", "5", "--date", "2024-01-02")
    #expect(withdrawn.code == 65)
    #expect(
      withdrawn.err
        == "folio: error: the withdrawal of 5 bitcoin on 2024-01-02T00:00:00Z exceeds the 1 held "
        + "at that time (short by 4); nothing was written\n")
    let moved = sandbox.run(
      "transfer", "btc", "2", "--from", "main", "--to", "cold", "--date", "2024-01-02")
    #expect(moved.code == 65)
    #expect(moved.err.hasPrefix("folio: error: the transfer of 2 bitcoin"), "\(moved.err)")
    let garbled = sandbox.run("swap", "1", "btc", "to", "2", "eth")
    #expect(garbled.code == 64)
    #expect(garbled.err.contains("\nUsage: folio swap <words> ... [<options>]\n"), "\(garbled.err)")
    // A fee is paid out of the units of its coin: no larger than they are, on either leg.
    for (fee, coin, quantity) in [("3", "eth", "2"), ("0.1", "btc", "0.1")] {
      let swapped = sandbox.run(
        "swap", "0.1", "btc", "for", "2", "eth", "--value", "100", "--fee", fee, coin, "--date",
        "2024-01-02")
      #expect(swapped.code == 65)
      #expect(
        swapped.err
          == "folio: error: --fee: the fee \(fee) must be less than the quantity \(quantity) it "
          + "is paid out of\n")
    }
    #expect(try sandbox.dump() == before)
  }
}
