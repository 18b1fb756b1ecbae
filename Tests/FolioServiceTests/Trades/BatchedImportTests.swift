import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// An import writes its trades and their derived rows in batches (`BatchedInsert`): the ids
/// are those SQLite would give one row at a time, rows with and without an `id` column keep
/// the file's order, and what is booked equals a booking of the stored trades from scratch.
@Suite struct BatchedImportTests {
  let now = Date(timeIntervalSince1970: 1_732_968_000)

  func importing(_ test: TestStore, _ csv: String) throws -> ImportReport {
    try TradeImporter(test.store).importTrades(
      from: CSVReader(bytes: Array(csv.utf8), source: "t.csv"), source: "t.csv",
      into: test.main(), now: now)
  }

  /// The stored trades as `id|time|side|coin|quantity|external id`, by id.
  func trades(_ test: TestStore) throws -> [String] {
    try test.db.rows(
      "SELECT id, executed_at, side, coin_id, quantity, external_id FROM trades ORDER BY id"
    ) { row in
      let external: String? = try row["external_id"]
      return [
        String(try row["id"] as Int64), try row["executed_at"], try row["side"],
        try row["coin_id"], try row["quantity"], external ?? "",
      ].joined(separator: "|")
    }
  }

  func count(_ test: TestStore, _ table: String) throws -> Int64? {
    try test.db.scalarInt("SELECT count(*) FROM \(table)")
  }

  func expectBookedAsFromScratch(_ test: TestStore) throws {
    let imported = try test.derivedSnapshot()
    try test.db.write { try Ledger(test.db).rebuild(portfolio: test.main()) }
    #expect(try test.derivedSnapshot() == imported)
  }

  @Test func idsFollowTheLargestStoredAndTheFileOrder() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2023-01-01")
    try test.trade(.buy, "ethereum", "2", at: "10", on: "2023-01-02")
    // More rows than a batch, rows with an id (written at once) among rows without.
    var csv = "date,side,coin,quantity,price,fee,note,id\n"
    var expected = [
      "1|2023-01-01T00:00:00Z|buy|bitcoin|1|", "2|2023-01-02T00:00:00Z|buy|ethereum|2|",
    ]
    for row in 0..<75 {
      let time = String(format: "2024-01-%02dT%02d:00:00Z", 1 + row / 24, row % 24)
      let side = row % 3 == 2 ? "sell" : "buy"
      let coin = row % 2 == 0 ? "bitcoin" : "ethereum"
      let id = row % 10 == 4 ? "x\(row)" : ""
      csv += "\(time),\(side),\(coin),0.1,\(100 + row),0,,\(id)\n"
      expected.append("\(row + 3)|\(time)|\(side)|\(coin)|0.1|\(id)")
    }
    let report = try importing(test, csv)
    #expect(report.imported == 75)
    #expect(try trades(test) == expected)
    #expect(try count(test, "lots") == 52)
    #expect(try count(test, "disposals") == 25)
    try expectBookedAsFromScratch(test)
    // The same file again: every row is found, nothing is added.
    let again = try importing(test, csv)
    #expect((again.imported, again.skipped) == (0, 75))
    #expect(try trades(test) == expected)
  }

  @Test func aLargestIDAtTheLimitLeavesTheIdsToSQLite() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2023-01-01")
    try test.db.execute("UPDATE trades SET id = 9223372036854775807")
    try test.db.write { try Ledger(test.db).rebuild(portfolio: test.main()) }
    var csv = "date,side,coin,quantity,price\n"
    for row in 0..<40 {
      csv += String(
        format: "2024-02-%02dT00:00:00Z,%@,bitcoin,0.01,200\n", 1 + row % 28,
        row % 2 == 0 ? "buy" : "sell")
    }
    #expect(try importing(test, csv).imported == 40)
    #expect(try count(test, "trades") == 41)
    #expect(try test.db.scalarInt("SELECT count(DISTINCT id) FROM trades") == 41)
    try expectBookedAsFromScratch(test)
  }

  @Test func aNegativeLargestIDIsFollowedAsSQLiteFollowsIt() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2023-01-01")
    try test.db.execute("UPDATE trades SET id = -5")
    try test.db.write { try Ledger(test.db).rebuild(portfolio: test.main()) }
    let csv = """
      date,side,coin,quantity,price,id
      2024-01-01T00:00:00Z,buy,bitcoin,1,100,
      2024-01-02T00:00:00Z,sell,bitcoin,0.5,100,x1
      2024-01-03T00:00:00Z,buy,bitcoin,1,100,
      """
    #expect(try importing(test, csv).imported == 3)
    #expect(
      try test.db.rows("SELECT id FROM trades ORDER BY id") { try $0["id"] as Int64 } == [
        -5, -4, -3, -2,
      ])
    try expectBookedAsFromScratch(test)
  }

  @Test func aRefusedImportLeavesEveryTableAsItWas() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2023-01-01")
    let before = (try trades(test), try test.derivedSnapshot())
    // Seventy rows booked in batches, then a sell the history cannot cover.
    var csv = "date,side,coin,quantity,price\n"
    for row in 0..<70 {
      csv += String(format: "2024-03-01T00:%02d:%02dZ,buy,bitcoin,0.5,10\n", row / 60, row % 60)
    }
    csv += "2024-03-02T00:00:00Z,sell,bitcoin,100,10\n"
    #expect(throws: ImportError.self) { try importing(test, csv) }
    #expect(try trades(test) == before.0)
    #expect(try test.derivedSnapshot() == before.1)
  }

  @Test func thousandsOfRowsBookAsFromScratch() throws {
    let test = try TestStore()
    // Buys and sells of three coins, a sell each fourth row of a coin; sometimes two rows in
    // one second, and a few rows out of time order (booked again at the end).
    var csv = "date,side,coin,quantity,price,fee\n"
    let coins = ["bitcoin", "ethereum", "solana"]
    for row in 0..<6_000 {
      let second = row / 2 + (row % 97 == 50 ? -30 : 0)
      let time = Date(timeIntervalSince1970: 1_600_000_000 + Double(second) * 600)
      let side = row / 3 % 4 == 3 ? "sell" : "buy"
      let quantity = side == "sell" ? "0.25" : "0.1\(row % 7)"
      csv +=
        "\(Timestamp.format(time)),\(side),\(coins[row % 3]),\(quantity),\(100 + row % 50).5,0.0\(row % 9)\n"
    }
    let report = try importing(test, csv)
    #expect(report.imported == 6_000)
    #expect(try count(test, "disposals") == 1_500)
    #expect(try count(test, "lots") == 4_500)
    try expectBookedAsFromScratch(test)
  }

  @Test(arguments: [20, 300])
  func aRowSQLiteRefusesLeavesEveryTableAsItWas(rows: Int) throws {
    let test = try TestStore()
    try test.trade(.buy, "ethereum", "1", at: "100", on: "2023-12-01")
    // A lot left by hand for a trade id the import gives (the 10th row's): its lot conflicts,
    // and SQLite ends the transaction (OR ROLLBACK), in a full batch the writer thread runs or
    // in the rows written last.
    try test.db.execute(
      "INSERT INTO lots VALUES (11, 1, 'bitcoin', '2023-01-01T00:00:00Z', '1', '1', '1', '1')")
    let before = (try trades(test), try test.derivedSnapshot())
    var csv = "date,side,coin,quantity,price\n"
    let start = Date(timeIntervalSince1970: 1_704_067_200)
    for row in 0..<rows {
      csv +=
        "\(Timestamp.format(start.addingTimeInterval(Double(row) * 72_000))),buy,ethereum,1,\(100 + row)\n"
    }
    #expect(throws: SQLiteError.self) { try importing(test, csv) }
    #expect(!test.db.isInTransaction)
    #expect(try trades(test) == before.0)
    #expect(try test.derivedSnapshot() == before.1)
    // The connection goes on: CHECK constraints are back on, and a trade can be recorded.
    #expect(try test.db.scalarInt("PRAGMA ignore_check_constraints") == 0)
    try test.trade(.buy, "ethereum", "2", at: "90", on: "2023-12-02")
    #expect(try count(test, "trades") == 2)
  }

  @Test(arguments: [false, true])
  func aConflictOnTheWriterThenABadRowLeavesEveryTableAsItWas(dryRun: Bool) throws {
    let test = try TestStore()
    try test.trade(.buy, "ethereum", "1", at: "100", on: "2022-12-01")
    // A disposal left by hand for the import's first sell (trade 3): its run, handed to the
    // writer, conflicts; the bad row after it throws before anything else asks the writer.
    try test.db.execute(
      """
      INSERT INTO disposals
      VALUES (3, 1, 'bitcoin', '2023-01-01T11:00:00Z', '1', '110', '100', '10', 'fifo')
      """)
    let before = (try trades(test), try test.derivedSnapshot())
    var csv = "date,side,coin,quantity,price\n"
    let start = Date(timeIntervalSince1970: 1_672_531_200)
    for day in 0..<32 {
      let buy = start.addingTimeInterval(Double(day) * 86_400 + 36_000)
      csv += "\(Timestamp.format(buy)),buy,bitcoin,1,100\n"
      csv += "\(Timestamp.format(buy.addingTimeInterval(3_600))),sell,bitcoin,1,110\n"
    }
    csv += "2023-03-01T10:00:00Z,xx,bitcoin,1,100\n"
    #expect(throws: ImportError.self) {
      try TradeImporter(test.store).importTrades(
        from: CSVReader(bytes: Array(csv.utf8), source: "t.csv"), source: "t.csv",
        into: test.main(), dryRun: dryRun, now: now)
    }
    #expect(!test.db.isInTransaction)
    #expect(try trades(test) == before.0)
    #expect(try test.derivedSnapshot() == before.1)
    try test.trade(.buy, "ethereum", "2", at: "90", on: "2022-12-02")
    #expect(try count(test, "trades") == 2)
  }
}
