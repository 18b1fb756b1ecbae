import Foundation
import Testing

@testable import FolioStorage

/// `folio db check` finds what SQL cannot guard; `folio db rebuild` repairs the derived tables.
@Suite struct DBCheckRebuildTests {
  let sandbox = Sandbox()

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The derived tables in a stable order, as sqlite3 prints them.
  func derived() throws -> String {
    try sandbox.sqlite(
      """
      SELECT 'lot', * FROM lots ORDER BY trade_id;
      SELECT 'use', * FROM lot_consumptions ORDER BY sell_trade_id, lot_trade_id;
      SELECT 'sell', * FROM disposals ORDER BY trade_id;
      SELECT 'pos', * FROM positions ORDER BY portfolio_id, coin_id;
      SELECT 'day', * FROM position_days ORDER BY portfolio_id, coin_id, day;
      """)
  }

  @Test func aSoundDatabasePassesInTextAndJSON() throws {
    try sandbox.buildDemo()
    let text = sandbox.run("db", "check")
    #expect(text.code == 0, "\(text.err)")
    #expect(text.out == "ok\n")
    let result = sandbox.run("db", "check", "--format", "json")
    #expect(result.code == 0)
    let report = try json(result.out)
    #expect(report["ok"] as? Bool == true)
    #expect(report["ledger_checked"] as? Bool == true)
    #expect(report["trades_checked"] as? Int == 8)
    #expect(report["positions_checked"] as? Int == 4)
    #expect((report["findings"] as? [Any])?.isEmpty == true)
  }

  /// A position whose stored open lots hold less than it says (a lot deleted, or the position
  /// raised, by hand) refuses a sell it seems to cover with one line and exit 65 under every
  /// method, and changes nothing; it trapped on an index past the lots before.
  @Test(arguments: ["fifo", "lifo", "hifo", "average"])
  func aSellBeyondLotsChangedByHandIsRefusedNotACrash(method: String) throws {
    #expect(sandbox.run("portfolio", "add", "p", "--method", method).code == 0)
    for price in ["100", "300", "200"] {
      let buy = sandbox.run(
        "--portfolio", "p", "buy", "bitcoin", "0.2", "--price", price, "--date", "2024-11-01")
      #expect(buy.code == 0, "\(buy.err)")
    }
    for edit in [
      "DELETE FROM lots WHERE remaining <> '0'",
      "UPDATE positions SET quantity = '9' WHERE coin_id = 'bitcoin'",
    ] {
      _ = try sandbox.sqlite("DELETE FROM lots WHERE trade_id = (SELECT min(trade_id) FROM lots)")
      _ = try sandbox.sqlite(edit)
      let before = try sandbox.dump()
      for command in [
        ["sell", "bitcoin", "0.5", "--price", "400"], ["withdraw", "bitcoin", "0.5"],
      ] {
        let refused = sandbox.run(["--portfolio", "p"] + command + ["--date", "2024-11-02"])
        #expect(refused.code == 65, "\(edit): \(command[0]): \(refused.err)")
        #expect(
          refused.err.hasPrefix("folio: error: the stored open lots of bitcoin hold less than"),
          "\(refused.err)")
        #expect(refused.err.split(separator: "\n").count == 1)
        #expect(try sandbox.dump() == before)
      }
      #expect(sandbox.run("db", "rebuild").code == 0)
    }
  }

  /// A value that breaks a CHECK constraint, typed in with the constraints off, is damage the
  /// integrity check names, alone: the second connection that runs it reads the constraints
  /// although the first has created the file's -wal by then.
  @Test func aRowBreakingACheckConstraintIsTheOnlyFinding() throws {
    try sandbox.buildDemo()
    _ = try sandbox.sqlite(
      "PRAGMA ignore_check_constraints = ON; UPDATE trades SET quantity = 'abc' WHERE id = 1")
    let check = sandbox.run("db", "check")
    #expect(check.code == 65)
    #expect(check.out == "CHECK constraint failed in trades\n")
    let result = sandbox.run("db", "check", "--format", "json")
    let report = try json(result.out)
    #expect(report["ledger_checked"] as? Bool == false)
    #expect(report["schema_version"] as? Int == (try Migrator().latestVersion))
    let findings = try #require(report["findings"] as? [[String: Any]])
    #expect(findings.map { $0["kind"] as? String } == ["integrity"])
  }

  /// Damage that makes two portfolios read back with the same id (the second's rowid set to
  /// 1 in the table and in its name index) is reported as damage: the positions, recomputed
  /// beside the integrity check, meet it without stopping the process.
  @Test func damageThatRepeatsAnIdIsReportedNotACrash() throws {
    #expect(sandbox.run("portfolio", "add", "second").code == 0)
    _ = try sandbox.sqlite("PRAGMA journal_mode = DELETE")
    let pages = try sandbox.sqlite(
      """
      SELECT rootpage FROM sqlite_schema WHERE name = 'portfolios';
      SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_portfolios_1';
      PRAGMA page_size;
      """
    ).split(separator: "\n").compactMap { Int($0) }
    try #require(pages.count == 3)
    var file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sandbox.database)))
    /// The byte offsets of the cells of page `number` (a b-tree leaf of `kind`).
    func cells(_ number: Int, kind: UInt8) throws -> [Int] {
      let start = (number - 1) * pages[2]
      try #require(file[start] == kind)
      let count = Int(file[start + 3]) << 8 | Int(file[start + 4])
      return (0..<count).map { cell in
        start + (Int(file[start + 8 + 2 * cell]) << 8 | Int(file[start + 9 + 2 * cell]))
      }
    }
    // A table leaf cell: payload size, rowid. An index leaf cell: payload size, then the
    // record, whose last byte is the rowid (a one-byte integer for 2).
    for cell in try cells(pages[0], kind: 0x0D) where file[cell + 1] == 2 { file[cell + 1] = 1 }
    for cell in try cells(pages[1], kind: 0x0A) where file[cell + Int(file[cell])] == 2 {
      file[cell + Int(file[cell])] = 1
    }
    try Data(file).write(to: URL(fileURLWithPath: sandbox.database))
    #expect(try sandbox.sqlite("SELECT group_concat(id) FROM portfolios") == "1,1\n")

    let check = sandbox.run("db", "check", "--format", "json")
    #expect(check.code == 65, "\(check.err)")
    let findings = try #require(try json(check.out)["findings"] as? [[String: Any]])
    #expect(!findings.isEmpty)
    #expect(findings.allSatisfy { $0["kind"] as? String == "integrity" })
  }

  /// Under a limit of 7 open files the first connection opens but the second cannot: the
  /// check then runs on the first alone and gives the same answer.
  @Test func withoutASecondConnectionTheCheckRunsOnTheFirst() throws {
    try sandbox.buildDemo()
    let limited = try Binary.runTool(
      "/bin/sh",
      ["-c", "ulimit -n 7 && exec \"$0\" --db \"$1\" db check", Binary.folioPath, sandbox.database])
    #expect(limited.code == 0, "\(limited.err)")
    #expect(limited.out == "ok\n")
    _ = try sandbox.sqlite("UPDATE trades SET price = '35000' WHERE id = 1")
    let found = try Binary.runTool(
      "/bin/sh",
      ["-c", "ulimit -n 7 && exec \"$0\" --db \"$1\" db check", Binary.folioPath, sandbox.database])
    #expect(found.code == 65)
    #expect(found.out == sandbox.run("db", "check").out)
  }

  @Test func aHandEditedTradeMakesTheDerivedTablesOutOfDateUntilRebuilt() throws {
    try sandbox.buildDemo()
    _ = try sandbox.sqlite("UPDATE trades SET price = '35000' WHERE id = 1")
    let before = try sandbox.dump()
    let check = sandbox.run("db", "check")
    #expect(check.code == 65)
    // The saved days from the edited trade's day on no longer follow from the trades either.
    let stale =
      "portfolio 'main': 2 saved day(s) no longer follow from its trades or method (2024-03-01, "
      + "2024-03-02); reports leave them out until the next folio command that writes "
      + "recomputes them, or run 'folio report backfill --portfolio main --since 2024-03-01'"
    #expect(
      check.out
        == stale + "\n"
        + "portfolio 'main', bitcoin: the derived tables differ from the trades (1 lot, "
        + "1 disposal, 1 lot consumption, 2 position days, the position; first difference: lot of "
        + "trade #1: cost "
        + "is '15010', the trades give '17510'); run 'folio db rebuild'\n")
    #expect(
      check.err
        == "folio: error: the database check found 2 problem(s): " + stale
        + " (and 1 more, all listed in the output)\n")
    #expect(try sandbox.dump() == before)  // check only reads

    let rebuild = sandbox.run(["db", "rebuild"], environment: Sandbox.wide)
    #expect(rebuild.code == 0, "\(rebuild.err)")
    #expect(
      rebuild.out
        == """
        rebuilt the derived tables of 2 portfolio(s) from 8 trade(s), replacing 15 derived row(s)
        PORTFOLIO  TRADES  POSITIONS  LOTS  DISPOSALS  CONSUMPTIONS
        cold            2          1     1          1             1
        main            6          3     4          2             2

        """)
    // 0.3 of the lot that now cost 0.5 × 35000 + 10 = 17510: 10506.
    #expect(try sandbox.sqlite("SELECT cost_basis FROM disposals WHERE trade_id = 4") == "10506\n")
    let after = sandbox.run("db", "check")
    #expect(after.code == 0, "\(after.out)")
  }

  @Test func rebuildWritesExactlyWhatTheIncrementalBookingWrote() throws {
    try sandbox.buildDemo()
    let incremental = try derived()
    let result = sandbox.run("db", "rebuild", "--format", "json")
    #expect(result.code == 0)
    #expect(try derived() == incremental)
    let report = try json(result.out)
    let removed = try #require(report["removed"] as? [String: Int])
    #expect(removed == ["positions": 4, "lots": 5, "disposals": 3, "lot_consumptions": 3])
    let portfolios = try #require(report["portfolios"] as? [[String: Any]])
    #expect(portfolios.map { $0["portfolio"] as? String } == ["cold", "main"])
    #expect(portfolios.map { $0["method"] as? String } == ["lifo", "fifo"])
    #expect(portfolios.map { $0["trades"] as? Int } == [2, 6])
    #expect(
      portfolios.last?["written"] as? [String: Int]
        == ["positions": 3, "lots": 4, "disposals": 2, "lot_consumptions": 2])
    #expect(report["trades_without_portfolio"] as? Int == 0)
  }

  @Test func aSellThatOversellsIsNamedAndRebuildChangesNothing() throws {
    try sandbox.buildDemo()
    _ = try sandbox.sqlite("UPDATE trades SET quantity = '5' WHERE id = 8")
    let check = sandbox.run("db", "check", "--format", "json")
    #expect(check.code == 65)
    let findings = try #require(try json(check.out)["findings"] as? [[String: Any]])
    let negative = try #require(findings.first { $0["kind"] as? String == "negative_position" })
    #expect(negative["portfolio"] as? String == "cold")
    #expect(negative["coin"] as? String == "bitcoin")
    #expect(negative["trade_id"] as? Int == 8)
    #expect(
      negative["message"] as? String
        == "portfolio 'cold': sell #8 of 5 bitcoin on 2024-03-01T00:00:00Z exceeds the 1 held "
        + "at that time (short by 4), so the position would go negative; fix or delete that "
        + "trade ('folio tx edit' or 'folio tx delete'), then run 'folio db rebuild'")
    #expect(check.err.contains("sell #8 of 5 bitcoin"))

    let before = try sandbox.dump()
    let rebuild = sandbox.run("db", "rebuild")
    #expect(rebuild.code == 65)
    #expect(rebuild.out.isEmpty)
    #expect(
      rebuild.err
        == "folio: error: portfolio 'cold': sell #8 of 5 bitcoin on 2024-03-01T00:00:00Z exceeds "
        + "the 1 held at that time (short by 4), so the position would go negative; fix or "
        + "delete that trade ('folio tx edit' or 'folio tx delete'), then rebuild again "
        + "(nothing was changed)\n")
    #expect(try sandbox.dump() == before)
  }

  @Test func handTypedTradesFolioWouldRefuseAreListed() throws {
    try sandbox.buildDemo()
    // The INSERT guard refuses such rows; a user who drops it can still get them in.
    _ = try sandbox.sqlite(
      """
      DROP TRIGGER trades_guard_insert;
      INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee, created_at)
      VALUES (1, '2024-02-30T00:00:00Z', 'buy', 'bitcoin', '1', '1', '0', '2024-01-01T00:00:00Z'),
             (1, '2024-01-01T00:00:00Z', 'buy', 'Bitcoin', '1', '1', '0', '2024-01-01T00:00:00Z'),
             (7, '2024-01-01T00:00:00Z', 'buy', 'bitcoin', '1', '1', '0', '2024-01-01T00:00:00Z');
      """)
    let check = sandbox.run("db", "check")
    #expect(check.code == 65)
    let lines = check.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("row 11 of trades refers to a missing row of portfolios"))
    #expect(
      lines.contains(
        "trade #9: executed_at '2024-02-30T00:00:00Z' is not a real UTC time; fix the row "
          + "('folio db shell'), then run 'folio db rebuild'"))
    #expect(
      lines.contains(
        "trade #10: coin_id 'Bitcoin' is not a CoinGecko id (lowercase letters, digits, '-', "
          + "'_' or '.'); fix the row ('folio db shell'), then run 'folio db rebuild'"))
    // The hand-typed buys were never booked, so their positions are out of date as well.
    #expect(lines.contains { $0.hasPrefix("portfolio 'main', Bitcoin: the derived tables differ") })
    #expect(check.err.contains("the database check found \(lines.count) problem(s): "))
    #expect(check.err.contains("(and \(lines.count - 1) more, all listed in the output)"))

    let rebuild = sandbox.run("db", "rebuild")
    #expect(rebuild.code == 0)
    #expect(
      rebuild.err
        == "folio: warning: 1 trade(s) belong to no portfolio and were left out; "
        + "'folio db check' lists them\n")
  }

  @Test func aNumberTooLargeToReadIsNamedAndEveryCommandRefusesItWith65() throws {
    try sandbox.buildDemo()
    // The tables' CHECKs let through any run of digits; folio keeps at most Int128.max units.
    let largest = "170141183460469231731.687303715884105727"
    _ = try sandbox.sqlite(
      """
      INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee, created_at)
      VALUES (1, '2024-01-02T00:00:00Z', 'buy', 'bitcoin', '0.000000000000000001', '\(largest)', '0', '2024-01-01T00:00:00Z'),
             (1, '2024-01-03T00:00:00Z', 'buy', 'ethereum', '1', '1', '170141183460469231731.7', '2024-01-01T00:00:00Z'),
             (1, '2024-01-04T00:00:00Z', 'buy', 'solana', '1000000000000000000000000', '1', '0', '2024-01-01T00:00:00Z');
      """)
    let before = try sandbox.dump()
    let check = sandbox.run("db", "check")
    #expect(check.code == 65, "\(check.err)")
    let lines = check.out.split(separator: "\n").map(String.init)
    let fix = "; fix the row ('folio db shell'), then run 'folio db rebuild'"
    #expect(!lines.contains { $0.hasPrefix("trade #9:") })  // the largest value is readable
    #expect(
      lines.contains(
        "trade #10: fee 170141183460469231731.7 is larger than folio can keep exactly (at most "
          + "\(largest))" + fix))
    #expect(
      lines.contains(
        "trade #11: quantity 1000000000000000000000000 is larger than folio can keep exactly "
          + "(at most \(largest))" + fix))
    #expect(
      lines.contains {
        $0.hasPrefix("portfolio 'main', solana: a trade holds a value folio cannot read")
      })
    // Every other command that reads the trades says what is wrong, with exit 65, not 70.
    for arguments in [
      ["db", "rebuild"], ["tx", "list"], ["export", "trades"], ["holdings", "--method", "lifo"],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.code == 65, "\(arguments): \(result.err)")
      #expect(
        result.err.contains("holds a value folio cannot read")
          && result.err.contains("'folio db check' names the rows to fix"),
        "\(arguments): \(result.err)")
    }
    #expect(try sandbox.dump() == before)
  }

  @Test func anOlderSchemaIsCheckedButNotItsLedger() throws {
    let db = try Database(path: sandbox.database)
    try Migrator(migrations: Array(Migration.embedded.prefix(1))).migrate(db)
    let result = sandbox.run("db", "check")
    #expect(result.code == 0)
    #expect(result.out == "ok\n")
    #expect(
      result.err
        == "folio: warning: the derived tables were not checked: the schema is at version 1; "
        + "run 'folio db migrate' first\n")
    #expect(try sandbox.sqlite("PRAGMA user_version") == "1\n")
  }

  /// Schema objects folio's migrations did not create are findings (65), in text and JSON.
  @Test func schemaObjectsFolioDidNotCreateAreFindings() throws {
    try sandbox.buildDemo()
    do {
      let db = try Database(path: sandbox.database, mode: .readWrite, busyTimeout: 1_000)
      try db.execute(
        """
        CREATE TRIGGER rewrite AFTER INSERT ON trades BEGIN
          UPDATE trades SET note = 'owned' WHERE id = new.id;
        END;
        CREATE TABLE stash (x);
        """)
    }
    let text = sandbox.run("db", "check")
    #expect(text.code == 65, "\(text.err)")
    #expect(text.out.contains("schema: table 'stash', which folio did not create"))
    #expect(text.out.contains("schema: trigger 'rewrite' on trades, which folio did not create"))
    let result = sandbox.run("db", "check", "--format", "json")
    #expect(result.code == 65)
    let report = try json(result.out)
    #expect(report["ok"] as? Bool == false)
    let kinds = (report["findings"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
    #expect(kinds == ["schema", "schema"])
  }
}
