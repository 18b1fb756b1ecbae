import FolioTestSupport
import Foundation
import Testing

/// Issue 14, point 2: importing again adds nothing, even without ids.
@Suite struct ReimportTests {
  let sandbox = Sandbox()
  let header = "date,side,coin,quantity,price,fee,note\n"

  /// The README: "importing the same file again adds nothing". Rows without ids, two of them
  /// identical: the second import skips all three and changes nothing.
  @Test func importingTheSameFileTwiceAddsNothing() throws {
    let file = sandbox.write(
      "history.csv",
      header + "2024-01-01,buy,bitcoin,1,100,0,dca\n2024-01-01,buy,bitcoin,1,100,0,dca\n"
        + "2024-01-02,sell,bitcoin,0.5,150,1,\n")
    let first = sandbox.run("import", "trades", file)
    #expect(first.code == 0, "\(first.err)")
    #expect(first.out == "imported 3 trade(s) from 3 row(s); skipped 0 already present\n")
    let before = try sandbox.dump()
    let again = sandbox.run("import", "trades", file)
    #expect(again.code == 0, "\(again.err)")
    #expect(again.out == "imported 0 trade(s) from 3 row(s); skipped 3 already present\n")
    #expect(try sandbox.dump() == before)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "3\n")
  }

  /// Notes are matched byte for byte, as the database compares them: "é" as one character and
  /// "e" with a combining accent are two notes (equal as Swift strings), and a second import of
  /// a file holding both adds nothing.
  @Test func notesSpelledTwoWaysAreTwoTradesAndImportAgainAddsNothing() throws {
    let file = sandbox.write(
      "accents.csv",
      header + "2024-01-01,buy,bitcoin,1,100,0,e\u{301}\n2024-01-01,buy,bitcoin,1,100,0,\u{E9}\n")
    #expect(sandbox.run("import", "trades", file).code == 0)
    let before = try sandbox.dump()
    let again = sandbox.run("import", "trades", file)
    #expect(again.code == 0, "\(again.err)")
    #expect(again.out == "imported 0 trade(s) from 2 row(s); skipped 2 already present\n")
    #expect(try sandbox.dump() == before)
    #expect(try sandbox.sqlite("SELECT hex(note) FROM trades ORDER BY id") == "65CC81\nC3A9\n")
  }

  /// Matching is counted: two identical rows into a portfolio holding one such trade import
  /// one. Values are compared normalized: 1.50 is 1.5, 01:00+01:00 is 00:00Z, `BUY` is buy,
  /// an empty fee is 0 and an empty note is no note.
  @Test func identicalRowsAreCountedAndValuesComparedNormalized() throws {
    #expect(
      sandbox.run("buy", "bitcoin", "1.5", "--price", "100", "--date", "2024-01-01T00:00:00Z").code
        == 0)
    let file = sandbox.write(
      "two.csv",
      header + "2024-01-01T01:00:00+01:00,BUY,bitcoin,1.50,100.0,,\n"
        + "2024-01-01 00:00:00Z,buy,bitcoin,1.5,1e2,0.000,\n")
    let result = sandbox.run("import", "trades", file)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "imported 1 trade(s) from 2 row(s); skipped 1 already present\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "2\n")
    // Now the portfolio holds two: the same file adds nothing more.
    let again = sandbox.run("import", "trades", file)
    #expect(again.out == "imported 0 trade(s) from 2 row(s); skipped 2 already present\n")
  }

  /// Any field that differs — or another portfolio — makes a different trade.
  @Test func aDifferentFieldOrPortfolioIsANewTrade() throws {
    #expect(sandbox.run("portfolio", "add", "other").code == 0)
    #expect(
      sandbox.run(
        "buy", "bitcoin", "1", "--price", "100", "--fee", "1", "--date", "2024-01-01", "--note",
        "n"
      ).code == 0)
    let file = sandbox.write(
      "near.csv",
      "date,side,coin,quantity,price,fee,note,portfolio\n"
        + "2024-01-01,buy,bitcoin,1,100,1,n,\n"  // the stored trade
        + "2024-01-01T00:00:01Z,buy,bitcoin,1,100,1,n,\n" + "2024-01-01,buy,ethereum,1,100,1,n,\n"
        + "2024-01-01,buy,bitcoin,2,100,1,n,\n" + "2024-01-01,buy,bitcoin,1,101,1,n,\n"
        + "2024-01-01,buy,bitcoin,1,100,2,n,\n" + "2024-01-01,buy,bitcoin,1,100,1,N,\n"
        + "2024-01-01,buy,bitcoin,1,100,1,,\n" + "2024-01-01,buy,bitcoin,1,100,1,n,other\n")
    let result = sandbox.run("import", "trades", file)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "imported 8 trade(s) from 9 row(s); skipped 1 already present\n")
  }

  /// Rows with an id keep the id rule: skipped when the portfolio holds the id, imported
  /// otherwise even when a trade with the same content exists.
  @Test func rowsWithAnIDKeepTheIDRule() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    let file = sandbox.write(
      "ids.csv",
      "date,side,coin,quantity,price,id\n2024-01-01,buy,bitcoin,1,100,x1\n"
        + "2024-01-02,buy,bitcoin,1,100,x2\n")
    let result = sandbox.run("import", "trades", file)
    #expect(result.out == "imported 2 trade(s) from 2 row(s); skipped 0 already present\n")
    let again = sandbox.run("import", "trades", file)
    #expect(again.out == "imported 0 trade(s) from 2 row(s); skipped 2 already present\n")
  }

  /// `export trades` writes an id for every trade; exported then imported into the same
  /// database it adds nothing; into a new database it gives an exact copy, whose export is
  /// byte-identical; and re-importing either file into the copy adds nothing.
  @Test func exportRoundTripsAddNothingAndCopyExactly() throws {
    for arguments in [
      ["buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01", "--note", "first"],
      ["buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01", "--note", "first"],
      ["buy", "bitcoin", "0.25", "--price", "90", "--fee", "0.5", "--date", "2024-01-02"],
      ["buy", "ethereum", "3", "--price", "10", "--id", "exchange-7", "--date", "2024-01-02"],
      ["sell", "bitcoin", "0.75", "--price", "120", "--date", "2024-01-03"],
    ] {
      #expect(sandbox.run(arguments).code == 0)
    }
    let exported = sandbox.file("export.csv")
    #expect(sandbox.run("export", "trades", "--out", exported).code == 0)
    let text = try String(contentsOfFile: exported, encoding: .utf8)
    #expect(
      text == """
        date,side,coin,quantity,price,fee,note,id,location
        2024-01-01T00:00:00Z,buy,bitcoin,1,100,0,first,folio-1,
        2024-01-01T00:00:00Z,buy,bitcoin,1,100,0,first,folio-2,
        2024-01-02T00:00:00Z,buy,bitcoin,0.25,90,0.5,,folio-3,
        2024-01-02T00:00:00Z,buy,ethereum,3,10,0,,exchange-7,
        2024-01-03T00:00:00Z,sell,bitcoin,0.75,120,0,,folio-5,

        """)

    let before = try sandbox.dump()
    let same = sandbox.run("import", "trades", exported)
    #expect(same.code == 0, "\(same.err)")
    #expect(same.out == "imported 0 trade(s) from 5 row(s); skipped 5 already present\n")
    #expect(try sandbox.dump() == before)

    let copy = Sandbox()
    let copied = copy.run("import", "trades", exported)
    #expect(copied.out == "imported 5 trade(s) from 5 row(s); skipped 0 already present\n")
    let columns = "executed_at, side, coin_id, quantity, price, fee, note"
    let trades = "SELECT \(columns) FROM trades ORDER BY executed_at, id"
    #expect(try copy.sqlite(trades) == (try sandbox.sqlite(trades)))
    let positions = "SELECT coin_id, quantity, cost_basis, realized_pnl FROM positions ORDER BY 1"
    #expect(try copy.sqlite(positions) == (try sandbox.sqlite(positions)))
    #expect(copy.run("export", "trades").out == text)

    let copyBefore = try copy.dump()
    #expect(copy.run("import", "trades", exported).out.hasPrefix("imported 0 trade(s)"))
    let second = copy.write("second.csv", copy.run("export", "trades").out)
    #expect(copy.run("import", "trades", second).out.hasPrefix("imported 0 trade(s)"))
    #expect(try copy.dump() == copyBefore)
  }

  /// An id export would make up for a trade is never one the portfolio already holds for
  /// another trade, so the file stays importable and a re-import adds nothing.
  @Test func madeUpIDsAvoidStoredOnes() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    for id in ["folio-1", "folio-1-2"] {
      #expect(
        sandbox.run("buy", "bitcoin", "1", "--price", "1", "--date", "2024-01-02", "--id", id)
          .code == 0)
    }
    let exported = sandbox.run("export", "trades").out
    #expect(exported.contains(",folio-1-3,\n"))
    let file = sandbox.write("export.csv", exported)
    let again = sandbox.run("import", "trades", file)
    #expect(again.code == 0, "\(again.err)")
    #expect(again.out == "imported 0 trade(s) from 3 row(s); skipped 3 already present\n")
  }

  /// `--dry-run` says how many rows would be imported and how many skipped, and the import
  /// then does exactly that.
  @Test func dryRunCountsWhatWouldBeSkippedAndTheImportAgrees() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01").code == 0)
    let file = sandbox.write(
      "more.csv",
      header + "2024-01-01,buy,bitcoin,1,100,0,\n2024-01-01,buy,bitcoin,1,100,0,\n"
        + "2024-01-05,sell,bitcoin,0.5,120,0,\n")
    let before = try sandbox.dump()
    let dry = sandbox.run("import", "trades", file, "--dry-run")
    #expect(dry.code == 0, "\(dry.err)")
    #expect(dry.out == "would import 2 trade(s) from 3 row(s); would skip 1 already present\n")
    let json = sandbox.run("import", "trades", file, "--dry-run", "--format", "json")
    #expect(json.out.contains("\"imported\": 2"))
    #expect(json.out.contains("\"skipped\": 1"))
    #expect(try sandbox.dump() == before)
    let real = sandbox.run("import", "trades", file)
    #expect(real.out == "imported 2 trade(s) from 3 row(s); skipped 1 already present\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "3\n")
  }

  /// A made-up `folio-N` id is only the exporting database's row number: two databases'
  /// exports merged into a third both carry folio-1, and a row number is reused after a
  /// delete. A held folio id on a trade with other content is not a match: the row is
  /// matched on its content, imported without the id when new, and skipped when imported again.
  @Test func aMadeUpIDHeldByAnotherTradeIsMatchedOnContent() throws {
    let a = sandbox.file("a.sqlite3")
    let b = sandbox.file("b.sqlite3")
    for (db, coin, day) in [(a, "bitcoin", "01"), (a, "bitcoin", "02"), (b, "ethereum", "03")] {
      let bought = sandbox.run(
        "--db", db, "buy", coin, "1", "--price", "100", "--date", "2024-01-\(day)")
      #expect(bought.code == 0, "\(bought.err)")
    }
    let fromA = sandbox.file("a.csv")
    let fromB = sandbox.file("b.csv")
    #expect(sandbox.run("--db", a, "export", "trades", "--out", fromA).code == 0)
    #expect(sandbox.run("--db", b, "export", "trades", "--out", fromB).code == 0)
    #expect(try String(contentsOfFile: fromB, encoding: .utf8).contains("folio-1"))
    #expect(sandbox.run("import", "trades", fromA).out.hasPrefix("imported 2 trade(s)"))
    let merged = sandbox.run("import", "trades", fromB)
    #expect(merged.code == 0, "\(merged.err)")
    #expect(merged.out == "imported 1 trade(s) from 1 row(s); skipped 0 already present\n")
    #expect(
      try sandbox.sqlite("SELECT coin_id, coalesce(external_id, '-') FROM trades ORDER BY id")
        == "bitcoin|folio-1\nbitcoin|folio-2\nethereum|-\n")
    // Importing either file again adds nothing.
    for file in [fromA, fromB] {
      #expect(sandbox.run("import", "trades", file).out.hasPrefix("imported 0 trade(s)"))
    }
    // A row number reused after a delete: a's trade 2 is gone and a new trade 2 takes its place.
    #expect(sandbox.run("--db", a, "tx", "delete", "2").code == 0)
    #expect(
      sandbox.run("--db", a, "buy", "bitcoin", "5", "--price", "200", "--date", "2024-03-01").code
        == 0)
    #expect(sandbox.run("--db", a, "export", "trades", "--out", fromA).code == 0)
    let reused = sandbox.run("import", "trades", fromA)
    #expect(reused.out == "imported 1 trade(s) from 2 row(s); skipped 1 already present\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades WHERE quantity = '5'") == "1\n")
  }
}
