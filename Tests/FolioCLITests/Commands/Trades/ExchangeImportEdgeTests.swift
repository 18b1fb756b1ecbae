import FolioTestSupport
import Foundation
import Testing

/// `folio import exchange` on the files a tester attacked it with: repeated rows, decimal
/// commas, rounding, tiny rewards, files that are no CSV at all (docs/import.md).
@Suite struct ExchangeImportEdgeTests {
  let sandbox = Sandbox()

  func ok(_ arguments: String...) -> String {
    let result = sandbox.run(arguments, environment: Sandbox.wide)
    #expect(result.code == 0, "\(arguments): \(result.err)")
    return result.out
  }

  func positions() throws -> String {
    try sandbox.sqlite(
      "SELECT coin_id, quantity, cost_basis, realized_pnl FROM positions ORDER BY coin_id")
  }

  func tradeCount() throws -> String { try sandbox.sqlite("SELECT count(*) FROM trades") }

  func lines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  static let coinbaseHeader =
    "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at "
    + "Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes"

  /// A Coinbase export of `rows` after its header.
  func coinbase(_ name: String, _ rows: String...) -> String {
    sandbox.write(name, ([Self.coinbaseHeader] + rows).joined(separator: "\n") + "\n")
  }

  // MARK: - Directions

  /// A "Pro Withdrawal" leaves Coinbase Pro for the Coinbase account the export is of: units
  /// coming in. A "Pro Deposit" goes the other way.
  @Test func coinbaseProMovesAreBookedInTheDirectionOfTheAccount() throws {
    let file = coinbase(
      "pro.csv",
      "P1,2024-03-01 10:00:00 UTC,Pro Withdrawal,BTC,0.01,USD,\"$60,000.00\",$600.00,$600.00,$0.00,",
      "P2,2024-03-02 10:00:00 UTC,Pro Deposit,BTC,0.004,USD,\"$61,000.00\",$244.00,$244.00,$0.00,")
    _ = ok("import", "exchange", file)
    #expect(
      try sandbox.sqlite("SELECT kind, side, quantity FROM trades ORDER BY executed_at")
        == "deposit|buy|0.01\nwithdrawal|sell|0.004\n")
  }

  /// A Binance deposit whose Change is negative is refused, naming the line: it is not
  /// skipped, which would hide a change of holdings.
  @Test func aBinanceDepositWithANegativeChangeIsRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "binance.csv",
      "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n"
        + "1,2024-03-01 10:00:00,Spot,Deposit,BTC,-0.01,\n")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(result.err.contains("\(file):2: Change: a deposit's Change must be above zero"))
    #expect(try tradeCount() == "0\n")
  }

  // MARK: - Repeated rows

  /// Two overlapping exports joined: the rows of the second repeat those of the first (the
  /// same ID and fields) and are left out, so the holdings are those of one export.
  @Test func aCoinbaseRowRepeatedInTheFileIsLeftOut() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let fixture = try lines(Fixtures.path("exchanges/coinbase.csv"))
    let joined = sandbox.write(
      "joined.csv", (fixture + fixture.dropFirst(3)).joined(separator: "\n") + "\n")
    #expect(
      ok("import", "exchange", joined, "--skip-unknown").replacingOccurrences(of: "\n  ", with: " ")
        == "imported 9 trade(s) from 22 row(s) of a coinbase export; skipped 0 already present; "
        + "1 cash movement(s) not stored; 1 internal move(s) not stored; 11 repeated row(s) "
        + "left out; 1 row(s) of unknown operations skipped\n")
    #expect(
      try positions()
        == """
        bitcoin|0.007|464.995|15.255
        ethereum|0.1|301.8|9.1
        solana|1.01|121.3|0

        """)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades WHERE external_id LIKE '%#%'") == "0\n")
    #expect(
      ok("import", "exchange", joined, "--skip-unknown").hasPrefix(
        "imported 0 trade(s) from 22 row(s) of a coinbase export; skipped 9 already present"))
    #expect(try tradeCount() == "9\n")
  }

  /// One ID on two rows that say different things is refused: it cannot be both.
  @Test func oneCoinbaseIDOnTwoDifferentRowsIsRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = coinbase(
      "ids.csv",
      "A1,2024-03-01 10:00:00 UTC,Buy,BTC,0.01,USD,\"$60,000.00\",$600.00,$600.00,$0.00,",
      "A1,2024-03-01 10:00:00 UTC,Buy,BTC,0.02,USD,\"$60,000.00\",$1200.00,$1200.00,$0.00,")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(
      result.err.contains(
        "\(file):3: ID: 'A1' is also on line 2 with other values; an id is one transaction"))
    #expect(try tradeCount() == "0\n")
  }

  /// Two IDs that differ only in how an accent is written (composed, or an "e" and a
  /// combining accent) are two rows, as the database holds them: neither is left out as a
  /// repeat of the other, nor refused as one ID with two meanings.
  @Test func coinbaseIDsSpelledTwoWaysAreTwoRows() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let row = ",2024-03-01 10:00:00 UTC,Buy,BTC,0.01,USD,\"$60,000.00\",$600.00,$600.00,$0.00,"
    let file = coinbase("accents.csv", "caf\u{E9}" + row, "cafe\u{301}" + row)
    #expect(ok("import", "exchange", file).hasPrefix("imported 2 trade(s) from 2 row(s)"))
    #expect(try sandbox.sqlite("SELECT sum(quantity) FROM trades") == "0.02\n")
  }

  /// Kraken's ledger concatenated with itself: every txid repeated, the trades are not summed
  /// into doubled ones and the deposits and rewards are not stored twice.
  @Test func aRepeatedKrakenLedgerRowIsLeftOut() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    for (coin, day, price) in [
      ("ethereum", "2024-02-02", "2300"), ("ethereum", "2024-02-05", "2400"),
      ("bitcoin", "2024-02-10", "48000"), ("bitcoin", "2024-02-15", "50000"),
    ] {
      #expect(
        DatabaseProbe.run(
          sandbox.database,
          """
          INSERT INTO daily_prices (coin_id, vs_currency, day, price, priced_at, source, fetched_at)
          VALUES ('\(coin)', 'usd', '\(day)', '\(price)', '\(day)T23:59:59Z', 'test',
            '2024-11-01T00:00:00Z')
          """
        ).error == nil)
    }
    let fixture = try lines(Fixtures.path("exchanges/kraken-ledgers.csv"))
    let joined = sandbox.write(
      "ledgers.csv", (fixture + fixture.dropFirst()).joined(separator: "\n") + "\n")
    #expect(
      ok("import", "exchange", joined, "--skip-unknown").hasPrefix(
        "imported 8 trade(s) from 34 row(s) of a kraken export"))
    #expect(
      try positions()
        == """
        bitcoin|0.0351|1956.45|44.15
        ethereum|0.2955|679.65|47.7

        """)
  }

  // MARK: - Coinbase's amounts

  /// A decimal comma is refused with its line, not read as a thousands separator (0,5 as 5).
  @Test func aDecimalCommaIsRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = coinbase(
      "comma.csv",
      "C1,2024-03-01 10:00:00 UTC,Buy,BTC,\"0,5\",USD,\"$60,000.00\",\"$30000,00\",$0.00,$0.00,",
      "C2,2024-03-02 10:00:00 UTC,Buy,BTC,0.5,USD,\"$1,234,567.89\",\"$617,283.945\",$0.00,$0.00,",
      "C3,2024-03-03 10:00:00 UTC,Convert,BTC,0.1,USD,\"$60,000.00\",\"$6,000.00\",$0.00,$0.00,"
        + "\"Converted 0.1 BTC to 0,002 ETH\"")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(
      result.err.contains(
        "\(file):2: Quantity Transacted: '0,5' has a comma that is not a thousands separator"))
    #expect(result.err.contains("\(file):4: Notes: '0,002' has a comma"))
    #expect(!result.err.contains("\(file):3:"))
    #expect(try tradeCount() == "0\n")
  }

  /// A tiny reward is valued at the export's price, not its subtotal rounded to the cent.
  @Test func aTinyRewardIsValuedAtItsSpotPrice() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = coinbase(
      "tiny.csv",
      "R1,2024-03-05 08:00:00 UTC,Staking Income,SOL,0.00004,USD,$130.00,$0.01,$0.01,$0.00,",
      "R2,2024-03-06 08:00:00 UTC,Staking Income,SOL,0.00002,USD,$130.00,$0.00,$0.00,$0.00,")
    _ = ok("import", "exchange", file)
    #expect(try sandbox.sqlite("SELECT price FROM trades ORDER BY id") == "130\n130\n")
    #expect(try positions() == "solana|0.00006|0.0078|0\n")
  }

  /// Rows at one time in a newest-first file (a buy written below the sell it covers) are
  /// booked bottom up, as the exchanges write them.
  @Test func rowsAllAtOneTimeAreReadNewestFirst() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = coinbase(
      "same.csv",
      "S2,2024-03-01 10:00:00 UTC,Sell,BTC,-0.5,USD,\"$60,000.00\",\"$30,000.00\",\"$30,000.00\","
        + "$0.00,",
      "S1,2024-03-01 10:00:00 UTC,Buy,BTC,1,USD,\"$60,000.00\",\"$60,000.00\",\"$60,000.00\","
        + "$0.00,")
    _ = ok("import", "exchange", file)
    #expect(try positions() == "bitcoin|0.5|30000|0\n")
  }

  /// A coin the directory does not know says how a user of this command adds it, and names
  /// no option the command lacks.
  @Test func anUnknownCoinSaysHowToAddIt() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = coinbase(
      "unknown.csv",
      "U1,2024-03-01 10:00:00 UTC,Buy,ZZZQX,1,USD,$1.00,$1.00,$1.00,$0.00,")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(result.err.contains("\(file):2: unknown coin 'zzzqx'"))
    #expect(result.err.contains("'folio market refresh'"))
    #expect(!result.err.contains("--new-coin"))
  }

  // MARK: - Exact accounting

  /// 3 BTC bought for 1 USD and sold for 2 USD: the lot costs exactly 1 and the sell brings
  /// exactly 2 (the price's rounding is in the fee), realizing exactly 1.
  @Test func costAndProceedsAreTheCashThatMoved() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let header =
      "\"txid\",\"refid\",\"time\",\"type\",\"subtype\",\"aclass\",\"asset\",\"amount\",\"fee\",\"balance\""
    let buy = sandbox.write(
      "buy.csv",
      """
      \(header)
      "L2","T1","2024-02-01 10:00:00","trade","","currency","XXBT",3,0,3
      "L1","T1","2024-02-01 10:00:00","trade","","currency","ZUSD",-1,0,0

      """)
    _ = ok("import", "exchange", buy)
    #expect(try positions() == "bitcoin|3|1|0\n")
    let sell = sandbox.write(
      "sell.csv",
      """
      \(header)
      "L4","T2","2024-02-02 10:00:00","trade","","currency","ZUSD",2,0,2
      "L3","T2","2024-02-02 10:00:00","trade","","currency","XXBT",-3,0,0

      """)
    _ = ok("import", "exchange", sell)
    #expect(try positions() == "bitcoin|0|0|1\n")
  }

  // MARK: - Files that are not exports

  /// A file whose first lines hold no header is refused without reading the rest (here an
  /// unclosed quote further down, which would be the error if it were read).
  @Test func theHeaderSearchStopsAfterTenRecords() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "notes.csv", Array(repeating: "a,b,c", count: 12).joined(separator: "\n") + "\n\"open\n")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(result.err.contains("not an export folio knows"))
  }

  /// A file of NUL bytes (what `/dev/zero` gives) is refused at its first line, by both
  /// importers, after reading at most a field's limit.
  @Test func aFileOfNulBytesIsRefusedQuickly() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.file("zeros.csv")
    #expect(FileManager.default.createFile(atPath: file, contents: Data(count: 3 << 20)))
    for command in ["exchange", "trades"] {
      let result = sandbox.run("import", command, file)
      #expect(result.code == 65)
      #expect(
        result.err
          == "folio: error: \(file):1: has a field longer than 1 MiB (no line break or "
          + "delimiter in it): is it a CSV file?\n")
    }
  }

  /// A dry run never creates the database (without one it previews against a new, empty
  /// one), and a refused import leaves no new database behind.
  @Test func aDryRunOrARefusedFileCreatesNoDatabase() throws {
    let file = coinbase(
      "one.csv", "D1,2024-03-01 10:00:00 UTC,Buy,BTC,1,USD,$1.00,$1.00,$1.00,$0.00,")
    #expect(
      ok("import", "exchange", file, "--dry-run").hasSuffix(
        "would import 1 trade(s) from 1 row(s) of a coinbase export; would skip 0 already "
          + "present\n"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    let empty = sandbox.write("empty.csv", "")
    #expect(sandbox.run("import", "exchange", empty).code == 65)
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    // Refused after the database was opened: the new file is removed again.
    let nope = sandbox.run("import", "exchange", file, "--portfolio", "nope")
    #expect(nope.code == 66)
    #expect(nope.err.contains("there is no portfolio named 'nope'"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
    // An existing database stays, refused or not.
    #expect(sandbox.run("db", "migrate").code == 0)
    #expect(sandbox.run("import", "exchange", file, "--portfolio", "nope").code == 66)
    #expect(FileManager.default.fileExists(atPath: sandbox.database))
  }

  /// A symbolic link loop is named as such, not as a missing file.
  @Test func aSymbolicLinkLoopIsNamed() throws {
    let first = sandbox.file("a.csv")
    let second = sandbox.file("b.csv")
    try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
    try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
    let result = sandbox.run("import", "exchange", first)
    #expect(result.code == 74)
    #expect(result.err.contains("too many levels of symbolic links"))
  }
}
