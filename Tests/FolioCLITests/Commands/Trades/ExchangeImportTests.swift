import FolioTestSupport
import Foundation
import Testing

/// Issue 16: `folio import exchange` over the fixtures of Fixtures/exchanges, each worked out
/// by hand (portfolio `main`, usd, FIFO). docs/import.md gives the mapping.
@Suite struct ExchangeImportTests {
  let sandbox = Sandbox()

  /// Runs folio wide enough that a summary is one line.
  func ok(_ arguments: String...) -> String {
    let result = sandbox.run(arguments, environment: ["COLUMNS": "400"])
    #expect(result.code == 0, "\(arguments): \(result.err)")
    return result.out
  }

  /// Daily closes in usd, as `market history` stores them.
  func closes(_ rows: [(coin: String, day: String, price: String)]) {
    #expect(sandbox.run("db", "migrate").code == 0)
    for row in rows {
      let error = DatabaseProbe.run(
        sandbox.database,
        """
        INSERT INTO daily_prices (coin_id, vs_currency, day, price, priced_at, source, fetched_at)
        VALUES ('\(row.coin)', 'usd', '\(row.day)', '\(row.price)', '\(row.day)T23:59:59Z',
          'test', '2024-11-01T00:00:00Z')
        """
      ).error
      #expect(error == nil)
    }
  }

  func positions() throws -> String {
    try sandbox.sqlite(
      "SELECT coin_id, quantity, cost_basis, realized_pnl FROM positions ORDER BY coin_id")
  }

  func tradeCount() throws -> String { try sandbox.sqlite("SELECT count(*) FROM trades") }

  static let binance = Fixtures.path("exchanges/binance.csv")
  static let kraken = Fixtures.path("exchanges/kraken-ledgers.csv")
  static let coinbase = Fixtures.path("exchanges/coinbase.csv")

  /// The closes the Binance fixture needs: every value it does not give.
  func binanceCloses() {
    closes([
      ("tether", "2024-01-02", "1"), ("binancecoin", "2024-01-02", "300"),
      ("dogecoin", "2024-01-02", "0.08"), ("cardano", "2024-01-02", "0.5"),
      ("tether", "2024-01-03", "1"), ("binancecoin", "2024-01-03", "310"),
      ("dogecoin", "2024-01-05", "0.09"), ("cardano", "2024-01-05", "0.6"),
      ("binancecoin", "2024-01-10", "320"), ("tether", "2024-01-13", "1"),
      ("bitcoin", "2024-01-15", "45000"),
    ])
  }

  // MARK: - Binance

  /// binance.csv, newest first, read oldest first (usd portfolio, FIFO):
  /// - 01-02 deposits at the day's close: 5000 USDT (cost 5000), 2 BNB (600), 30 DOGE (2.4),
  ///   5 ADA (2.5).
  /// - 01-03 one trade in six rows: 0.04 + 0.02 BTC for 1596.9 + 800 USDT, fees 0.006 +
  ///   0.004 BNB. A swap of 2396.9 USDT (value 2396.9 × 1) for BTC: USDT realizes
  ///   2396.9 − 2396.9 = 0. The fee, 0.01 BNB at 310 = 3.1, is given for the BTC too: a swap
  ///   of its own for its share of the 0.06 BTC, 0.06 × 3.1 / (2396.9 + 3.1) = 0.0000775
  ///   (lot 3.1), the USDT swap keeping 0.0599225 (lot 2396.9): both at 40000 a BTC, 2400 for
  ///   the 0.06. The BNB is disposed of at 3.1: basis 0.01 × 300 = 3, realized 0.1.
  /// - 01-05 dust: 30 DOGE (30 × 0.09 = 2.7) and 5 ADA (5 × 0.6 = 3.0) for 0.0045 + 0.0055 =
  ///   0.01 BNB, shared by value: ADA 0.01 × 3.0 / 5.7 = 0.005263157894736842, DOGE the rest
  ///   0.004736842105263158. DOGE realizes 2.7 − 2.4 = 0.3, ADA 3.0 − 2.5 = 0.5.
  /// - 01-10 staking reward 0.005 BNB at 320: lot 1.6.
  /// - 01-12 two Simple Earn subscription rows: internal, not stored.
  /// - 01-13 Simple Earn interest 0.5 USDT at 1: lot 0.5.
  /// - 01-15 0.02 BTC sold for 900 USDT, fee 0.9 USDT: a swap valued 0.02 × 45000 = 900; BTC
  ///   basis (FIFO, from the 0.0599225 lot) 0.02 × 40000 = 800, realized 100; 899.1 USDT
  ///   arrive at cost 900.
  /// - 01-18 Binance Card Spending: unknown (line 3), skipped with --skip-unknown.
  /// - 01-20 withdrawal of 0.01 BTC: basis 400 leaves, nothing realized.
  /// Holdings: BNB 2 − 0.01 + 0.01 + 0.005 = 2.005 at 597 + 2.7 + 3.0 + 1.6 = 604.3; BTC
  /// 0.03 at 2400 − 800 − 400 = 1200; USDT 5000 − 2396.9 + 0.5 + 899.1 = 3502.7 at
  /// 2603.1 + 0.5 + 900 = 3503.6. Realized 0.1 + 100 + 0.5 + 0.3 = 100.9.
  @Test func binanceStatementIsBookedAsWorkedOutByHand() throws {
    binanceCloses()
    let out = ok("import", "exchange", Self.binance, "--skip-unknown")
    #expect(
      out
        == "imported 17 trade(s) from 23 row(s) of a binance export; skipped 0 already present; "
        + "2 internal move(s) not stored; 1 row(s) of unknown operations skipped\n")
    #expect(
      try positions()
        == """
        binancecoin|2.005|604.3|0.1
        bitcoin|0.03|1200|100
        cardano|0|0|0.5
        dogecoin|0|0|0.3
        tether|3502.7|3503.6|0

        """)
    #expect(try sandbox.sqlite("SELECT sum(realized_pnl) FROM v_realized") == "100.9\n")
    #expect(
      try sandbox.sqlite(
        "SELECT kind, side, coin_id, quantity FROM trades WHERE coin_id = 'binancecoin' ORDER BY executed_at, id"
      )
        == """
        deposit|buy|binancecoin|2
        swap|sell|binancecoin|0.01
        swap|buy|binancecoin|0.005263157894736842
        swap|buy|binancecoin|0.004736842105263158
        income|buy|binancecoin|0.005

        """)
    // The BTC of the trade of 01-03: the USDT's share and the BNB fee's, each a swap of one
    // value, at one unit cost (40000).
    #expect(
      try sandbox.sqlite(
        """
        SELECT t.kind, t.quantity, t.amount, l.cost, t.external_id LIKE '%:fee-BNB:in'
        FROM trades t JOIN lots l ON l.trade_id = t.id
        WHERE t.coin_id = 'bitcoin' ORDER BY t.id
        """)
          == """
          swap|0.0599225|2396.9|2396.9|0
          swap|0.0000775|3.1|3.1|1

          """)
    #expect(ok("db", "check").hasPrefix("ok"))
    // Importing again adds nothing, and says so.
    #expect(
      ok("import", "exchange", Self.binance, "--skip-unknown")
        == "imported 0 trade(s) from 23 row(s) of a binance export; skipped 17 already present "
        + "(nothing new); 2 internal move(s) not stored; 1 row(s) of unknown operations skipped\n")
    #expect(try tradeCount() == "17\n")
  }

  /// Importing again skips the events already stored without valuing them again: it works
  /// after the prices they needed are gone.
  @Test func importingAgainNeedsNoPrices() throws {
    binanceCloses()
    _ = ok("import", "exchange", Self.binance, "--skip-unknown")
    #expect(DatabaseProbe.run(sandbox.database, "DELETE FROM daily_prices").error == nil)
    #expect(
      ok("import", "exchange", Self.binance, "--skip-unknown", "--dry-run").hasPrefix(
        "would import 0 trade(s) from 23 row(s) of a binance export; would skip 17 already present "
          + "(nothing new)"))
    #expect(try tradeCount() == "17\n")
  }

  /// A refusal met while booking (a withdrawal of more than is held) stores nothing, not even
  /// the rows before it.
  @Test func aRefusalWhileBookingStoresNothing() throws {
    closes([("bitcoin", "2024-01-01", "40000")])
    let file = sandbox.write(
      "statement.csv",
      """
      User_ID,UTC_Time,Account,Operation,Coin,Change,Remark
      1,2024-01-02 10:00:00,Spot,Withdraw,BTC,-1,
      1,2024-01-01 10:00:00,Spot,Deposit,BTC,0.5,

      """)
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(
      result.err.hasPrefix(
        "folio: error: nothing was imported: \(file):2: this sell of 1 bitcoin on "
          + "2024-01-02T10:00:00Z exceeds the 0.5 held at that time (short by 0.5)"))
    #expect(try tradeCount() == "0\n")
  }

  /// Rows at one time that make two trades cannot be paired: refused, naming the time.
  @Test func rowsOfTwoTradesAtOneTimeAreRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "statement.csv",
      """
      User_ID,UTC_Time,Account,Operation,Coin,Change,Remark
      1,2024-01-03 10:00:00,Spot,Transaction Buy,BTC,0.01,
      1,2024-01-03 10:00:00,Spot,Transaction Spend,USDT,-400,
      1,2024-01-03 10:00:00,Spot,Transaction Buy,ETH,0.1,
      1,2024-01-03 10:00:00,Spot,Transaction Spend,USDT,-300,

      """)
    let result = sandbox.run("import", "exchange", file, "--exchange", "binance")
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: nothing was imported: \(file):2: the rows at 2024-01-03T10:00:00Z do "
        + "not make one trade (received: 0.01 BTC, 0.1 ETH; spent: 700 USDT); folio cannot "
        + "pair them\n")
    #expect(try tradeCount() == "0\n")
  }

  @Test func anUnknownOperationRefusesTheImportWithItsLine() throws {
    binanceCloses()
    let result = sandbox.run("import", "exchange", Self.binance)
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: nothing was imported: 1 row(s) of operations folio does not know "
        + "(--skip-unknown imports the other rows and counts these)\n\(Self.binance):3: "
        + "Binance Card Spending\n")
    #expect(try tradeCount() == "0\n")
  }

  @Test func aMissingPriceRefusesEverything() throws {
    closes([("tether", "2024-01-02", "1")])
    let result = sandbox.run("import", "exchange", Self.binance, "--skip-unknown")
    #expect(result.code == 65)
    #expect(
      result.err.contains(
        "\(Self.binance):23: no usd price of binancecoin (BNB) cached for 2024-01-02T09:05:00Z"))
    #expect(result.err.contains("folio market history --coins binancecoin --since 2024-01-02"))
    // And, last, the one command that fetches every price missing.
    #expect(
      result.err.hasSuffix(
        "\nfetch every missing price at once with 'folio market history --coins "
          + "binancecoin,bitcoin,cardano,dogecoin,tether --since 2024-01-02'\n"))
    #expect(try tradeCount() == "0\n")
  }

  @Test func aDryRunShowsTheRowsAndLeavesTheDatabaseByteIdentical() throws {
    binanceCloses()
    let files = [sandbox.database, sandbox.database + "-wal"]
    // A -wal that is not there holds what an empty one does.
    func bytes() -> [Data] { files.map { FileManager.default.contents(atPath: $0) ?? Data() } }
    let before = bytes()
    let out = ok("import", "exchange", Self.binance, "--skip-unknown", "--dry-run")
    #expect(bytes() == before)
    #expect(try tradeCount() == "0\n")
    #expect(out.hasPrefix("line  date "))
    // Columns squeezed to one space: the BNB fee of the trade of lines 15-20, a swap of its own.
    let lines = out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    #expect(
      lines.contains {
        $0.hasPrefix(
          "15 2024-01-03T10:00:00Z swap sell binancecoin 0.01 310 0 3.1 binance:2024-01-03T10:00:00Z:"
        )
      })
    #expect(
      out.hasSuffix(
        "would import 17 trade(s) from 23 row(s) of a binance export; would skip 0 already "
          + "present; 2 internal move(s) not stored; 1 row(s) of unknown operations skipped\n"))
    let json = ok(
      "import", "exchange", Self.binance, "--skip-unknown", "--dry-run", "--format", "json")
    #expect(bytes() == before)
    #expect(json.contains(#""imported": 17"#))
    #expect(json.contains(#""dry_run": true"#))
    #expect(json.contains(#""id": "binance:2024-01-03T10:00:00Z:"#))
  }

  @Test func theExchangeNamedMustMatchTheHeader() throws {
    let result = sandbox.run("import", "exchange", Self.binance, "--exchange", "kraken")
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: \(Self.binance): no kraken header in its first 10 lines; it looks "
        + "like a binance export (--exchange binance)\n")
    let text = sandbox.write("notes.csv", "date,side,coin\n2024-01-01,buy,btc\n")
    let other = sandbox.run("import", "exchange", text)
    #expect(other.code == 65)
    #expect(other.err.contains("not an export folio knows"))
  }

  // MARK: - Kraken

  /// kraken-ledgers.csv, newest first (usd portfolio, FIFO):
  /// - 02-01 2000 USD deposited: cash, not stored. Trade TR1: 1500 USD (fee 3.9 USD) for
  ///   0.03 XXBT: a buy at 50000, fee 3.9, lot 1503.9.
  /// - 02-02 1 XETH deposited (and its pending copy without txid, left out): cost at the
  ///   day's close 2300.
  /// - 02-05 trade TR2: 0.5 XETH (fee 0.001 XETH) for 0.02 XXBT: a swap valued
  ///   0.5 × 2400 = 1200; 0.501 ETH leave with basis 0.501 × 2300 = 1152.3, realized 47.7;
  ///   BTC lot 1200.
  /// - 02-08 two transfers spot ↔ staking (XBT.M is bitcoin): internal.
  /// - 02-10 staking reward 0.0001 XBT.M at 48000: lot 4.8.
  /// - 02-12 trade TR3: 0.025 XXBT for 1300 USD, fee 2.6 USD: a sell at 52000, proceeds
  ///   1297.4; basis 0.025 of the 0.03 lot = 1253.25; realized 44.15.
  /// - 02-14 withdrawal 0.2 XETH + fee 0.0035: 0.2035 ETH leave, basis 468.05.
  /// - 02-15 500 EUR deposited (cash); trade TR4: 460 EUR (fee 0.92 EUR) for 0.01 XXBT: a
  ///   buy at the close 50000 (cost 500), the fee at the trade's rate 0.92 × 500 / 460 = 1:
  ///   lot 501.
  /// - 02-16 margin: unknown (line 2), skipped.
  /// Holdings: BTC 0.005 + 0.02 + 0.0001 + 0.01 = 0.0351 at 250.65 + 1200 + 4.8 + 501 =
  /// 1956.45, realized 44.15; ETH 1 − 0.501 − 0.2035 = 0.2955 at 0.2955 × 2300 = 679.65,
  /// realized 47.7.
  @Test func krakenLedgerIsBookedAsWorkedOutByHand() throws {
    closes([
      ("ethereum", "2024-02-02", "2300"), ("ethereum", "2024-02-05", "2400"),
      ("bitcoin", "2024-02-10", "48000"), ("bitcoin", "2024-02-15", "50000"),
    ])
    let refused = sandbox.run("import", "exchange", Self.kraken)
    #expect(refused.code == 65)
    #expect(refused.err.hasSuffix("\n\(Self.kraken):2: margin\n"))
    #expect(try tradeCount() == "0\n")
    #expect(
      ok("import", "exchange", Self.kraken, "--skip-unknown")
        == "imported 8 trade(s) from 17 row(s) of a kraken export; skipped 0 already present; "
        + "1 trade(s) for EUR valued at market (folio holds no EUR); 2 cash movement(s) not stored; 3 internal move(s) not stored; 1 row(s) of unknown "
        + "operations skipped\n")
    #expect(
      try positions()
        == """
        bitcoin|0.0351|1956.45|44.15
        ethereum|0.2955|679.65|47.7

        """)
    #expect(
      try sandbox.sqlite("SELECT external_id FROM trades ORDER BY executed_at, id")
        == """
        kraken:TR1ABC-XYZ12-QWERTY
        kraken:QCDEP2-XETH-0002
        kraken:TR2DEF-UVW34-ASDFGH
        kraken:TR2DEF-UVW34-ASDFGH:in
        kraken:RW1AAA-LMN90-LKJHGF
        kraken:TR3GHI-IJK12-MNBVCX
        kraken:WD1AAA-FGH34-QAZWSX
        kraken:TR4JKL-CDE56-EDCRFV

        """)
    // The buy for EUR says so: folio holds no EUR, so it is valued at the coin's usd price.
    #expect(
      try sandbox.sqlite(
        "SELECT note, price, fee FROM trades WHERE external_id = 'kraken:TR4JKL-CDE56-EDCRFV'")
        == "kraken: trade (460 EUR, at the coin's usd market value)|50000|1\n")
    let again = ok("import", "exchange", Self.kraken, "--skip-unknown", "--format", "json")
    #expect(again.contains(#""skipped": 8"#))
    #expect(again.contains(#""other_fiat_trades": {}"#))
    #expect(try tradeCount() == "8\n")
  }

  // MARK: - Coinbase

  /// coinbase.csv (newer format: an ID column, amounts like "$60,000.00", two lines before the
  /// header), newest first (usd portfolio, FIFO):
  /// - 03-01 1000 USD deposited: cash. Buy 0.01 BTC, subtotal 600, fee 9.99: lot 609.99.
  /// - 03-02 two Advanced Trade fills at one time: 0.1 ETH (300 + fee 1.8) and 0.05 ETH
  ///   (150 + 0.9): lots 301.8 and 150.9.
  /// - 03-03 Receive 2 SOL, subtotal 240: a deposit at cost 240.
  /// - 03-05 Staking Income 0.01 SOL at 130: lot 1.3.
  /// - 03-06 Convert 0.05 ETH to 0.002 BTC: total 160 (0.05 × 3200, what was given), subtotal
  ///   156.25 (what arrived is worth), spread 3.75. A swap valued 160; ETH basis (FIFO, half
  ///   the 0.1 lot) 150.9, realized 9.1; BTC lot 160, the spread included, and the spread
  ///   recorded as the BTC row's fee: 0.002 × 3.75 / 156.25 = 0.000048 BTC.
  /// - 03-07 Retail Staking Transfer: internal.
  /// - 03-08 Sell 0.005 BTC, subtotal 325, fee 4.75: proceeds 320.25, basis half of 609.99 =
  ///   304.995, realized 15.255.
  /// - 03-09 Send 1 SOL: a withdrawal, basis 120 leaves.
  /// - 03-10 Vault Deposit: unknown (line 4), skipped.
  /// Holdings: BTC 0.007 at 304.995 + 160 = 464.995; ETH 0.1 at 150.9 + 150.9 = 301.8; SOL
  /// 1.01 at 120 + 1.3 = 121.3. Realized 15.255 + 9.1 = 24.355.
  @Test func coinbaseHistoryIsBookedAsWorkedOutByHand() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let refused = sandbox.run("import", "exchange", Self.coinbase)
    #expect(refused.code == 65)
    #expect(refused.err.hasSuffix("\n\(Self.coinbase):4: Vault Deposit\n"))
    #expect(
      ok("import", "exchange", Self.coinbase, "--skip-unknown")
        == "imported 9 trade(s) from 11 row(s) of a coinbase export; skipped 0 already present; "
        + "1 cash movement(s) not stored; 1 internal move(s) not stored; 1 row(s) of unknown "
        + "operations skipped\n")
    #expect(
      try positions()
        == """
        bitcoin|0.007|464.995|15.255
        ethereum|0.1|301.8|9.1
        solana|1.01|121.3|0

        """)
    #expect(
      try sandbox.sqlite(
        "SELECT side, coin_id, quantity, fee, amount FROM trades WHERE kind = 'swap' ORDER BY id")
          == """
          sell|ethereum|0.05|0|160
          buy|bitcoin|0.002|0.000048|160

          """)
    #expect(
      ok("import", "exchange", Self.coinbase, "--skip-unknown", "--exchange", "coinbase")
        .hasPrefix("imported 0 trade(s) from 11 row(s) of a coinbase export; skipped 9"))
    #expect(try tradeCount() == "9\n")
  }

  /// The older Coinbase export: three lines before the header, no ID column (ids are made
  /// from each row), `Spot Price Currency`, plain amounts, ISO times. Buy 0.01 BTC for 580 +
  /// fee 10 (lot 590); Convert 0.005 BTC to 0.116 ETH at the total 295 (0.005 × 59000; BTC
  /// basis 295, realized 0; ETH lot 295, the spread of 5 included and recorded as the ETH
  /// row's fee, 0.116 × 5 / 290 = 0.002 ETH); a Learning Reward of 2.5 GRT at 1.20 (income,
  /// lot 3).
  @Test func theOlderCoinbaseExportIsReadToo() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "coinbase-2021.csv",
      """
      You can use this transaction report to inform your likely tax obligations.
      Transactions
      User,Jane Example,5b9c1d2e
      Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at \
      Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes
      2021-04-01T12:00:00Z,Buy,BTC,0.01,USD,58000.00,580.00,590.00,10.00,Bought 0.0100 BTC for \
      $590.00 USD
      2021-04-02T12:00:00Z,Convert,BTC,0.005,USD,59000.00,290.00,295.00,5.00,"Converted \
      0.00500000 BTC to 0.116 ETH"
      2021-04-03T12:00:00Z,Learning Reward,GRT,2.5,USD,1.20,3.00,3.00,0.00,Received 2.5 GRT

      """)
    #expect(
      ok("import", "exchange", file)
        == "imported 4 trade(s) from 3 row(s) of a coinbase export; skipped 0 already present\n")
    #expect(
      try positions()
        == """
        bitcoin|0.005|295|0
        ethereum|0.116|295|0
        the-graph|2.5|3|0

        """)
    #expect(
      try sandbox.sqlite("SELECT quantity, fee, amount FROM trades WHERE coin_id = 'ethereum'")
        == "0.116|0.002|295\n")
    #expect(
      try sandbox.sqlite("SELECT kind, income_type FROM trades WHERE coin_id = 'the-graph'")
        == "income|other\n")
    #expect(ok("import", "exchange", file).contains("skipped 4 already present (nothing new)"))
  }

  /// An Advanced Trade paid in a crypto: Coinbase gives its fee as a value, taken in that
  /// coin at the trade's rate. 1000 USDC received (deposit at 1000); 0.1 ETH bought for 300
  /// USDC, fee $1.80 = 1.8 × 300 / 300 = 1.8 USDC: a swap valued at the subtotal 300 of
  /// 301.8 USDC (basis 301.8, realized 300 − 301.8 = −1.8) for 0.1 ETH (lot 300); 0.05 ETH
  /// sold for 160 USDC, fee $0.80 = 0.8 USDC: a swap valued 160 of 0.05 ETH (basis 150,
  /// realized 10) for 159.2 USDC (lot 160). Holdings: ETH 0.05 at 150; USDC
  /// 1000 − 301.8 + 159.2 = 857.4 at 698.2 + 160 = 858.2.
  @Test func anAdvancedTradeForACryptoTakesItsFeeInThatCoin() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "coinbase-usdc.csv",
      """
      ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at \
      Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes
      c3,2024-05-03 10:00:00 UTC,Advanced Trade Sell,ETH,-0.05,USD,"$3,200.00",$160.00,\
      $159.20,$0.80,Sold 0.05 ETH for 160 USDC on ETH-USDC at 3200 USDC/ETH
      c2,2024-05-02 10:00:00 UTC,Advanced Trade Buy,ETH,0.1,USD,"$3,000.00",$300.00,$301.80,\
      $1.80,Bought 0.1 ETH for 300 USDC on ETH-USDC at 3000 USDC/ETH
      c1,2024-05-01 10:00:00 UTC,Receive,USDC,1000,USD,$1.00,"$1,000.00","$1,000.00",$0.00,

      """)
    #expect(
      ok("import", "exchange", file)
        == "imported 5 trade(s) from 3 row(s) of a coinbase export; skipped 0 already present\n")
    #expect(
      try positions()
        == """
        ethereum|0.05|150|10
        usd-coin|857.4|858.2|-1.8

        """)
    #expect(
      try sandbox.sqlite(
        "SELECT side, coin_id, quantity, fee, amount FROM trades WHERE kind = 'swap' ORDER BY id")
          == """
          sell|usd-coin|301.8|1.8|300
          buy|ethereum|0.1|0|300
          sell|ethereum|0.05|0|160
          buy|usd-coin|159.2|0.8|160

          """)
  }

  /// A Binance statement of `rows` after its header.
  func binance(_ rows: [String]) -> String {
    sandbox.write(
      "binance-usd-fee.csv",
      (["User_ID,UTC_Time,Account,Operation,Coin,Change,Remark"] + rows).joined(separator: "\n")
        + "\n")
  }

  /// 0.1 BTC deposited on 03-01, swapped on 03-02 for 2 ETH with a fee of 5 USD (newest first).
  static let usdFeeSwap = [
    "7,2024-03-02 10:00:00,Spot,Transaction Fee,USD,-5,",
    "7,2024-03-02 10:00:00,Spot,Transaction Buy,ETH,2,",
    "7,2024-03-02 10:00:00,Spot,Transaction Spend,BTC,-0.1,",
    "7,2024-03-01 10:00:00,Spot,Deposit,BTC,0.1,",
  ]

  /// A swap whose fee is paid in the portfolio's currency: the cash is given for the coin
  /// received too, a buy of its share of what arrived (closes: BTC 40000 on 03-01, 39950 on
  /// 03-02; ETH 2100 on 03-03).
  /// - 03-01 0.1 BTC deposited: lot 4000.
  /// - 03-02 0.1 BTC (value 3995) for 2 ETH, fee 5 USD: the fee's share of the ETH is
  ///   2 × 5 / (3995 + 5) = 0.0025, a buy costing exactly 5; the swap keeps 1.9975 (lot 3995),
  ///   both at 2000 an ETH. BTC realizes 3995 − 4000 = −5.
  /// - 03-03 1 ETH (value 2100) for 0.05 BTC, fee 1 USD: the fee buys 0.05 × 1 / 2101 BTC, a
  ///   share that does not divide evenly; its price is rounded down and the rest is its fee,
  ///   so its lot costs exactly 1 and the swap's 2100. ETH sold FIFO: 0.0025 + 0.9975 at 2000,
  ///   basis 2000, realized 100.
  /// Holdings: BTC 0.05 at 2101, realized −5; ETH 1 at 2000, realized 100.
  @Test func aSwapsFeeInCashBuysItsShareOfTheCoinReceived() throws {
    closes([
      ("bitcoin", "2024-03-01", "40000"), ("bitcoin", "2024-03-02", "39950"),
      ("ethereum", "2024-03-03", "2100"),
    ])
    let file = binance(
      [
        "7,2024-03-03 10:00:00,Spot,Transaction Fee,USD,-1,",
        "7,2024-03-03 10:00:00,Spot,Transaction Buy,BTC,0.05,",
        "7,2024-03-03 10:00:00,Spot,Transaction Spend,ETH,-1,",
      ] + Self.usdFeeSwap)
    #expect(
      ok("import", "exchange", file)
        == "imported 7 trade(s) from 7 row(s) of a binance export; skipped 0 already present\n")
    #expect(
      try positions()
        == """
        bitcoin|0.05|2101|-5
        ethereum|1|2000|100

        """)
    #expect(
      try sandbox.sqlite(
        """
        SELECT t.kind, t.coin_id, t.quantity, l.cost, t.external_id LIKE '%:fee-USD'
        FROM trades t JOIN lots l ON l.trade_id = t.id
        WHERE t.side = 'buy' AND t.kind != 'deposit' ORDER BY t.executed_at, t.kind
        """)
          == """
          swap|ethereum|1.9975|3995|0
          trade|ethereum|0.0025|5|1
          swap|bitcoin|0.049976201808662542|2100|0
          trade|bitcoin|0.000023798191337458|1|1

          """)
    #expect(ok("db", "check").hasPrefix("ok"))
    #expect(
      ok("import", "exchange", file)
        == "imported 0 trade(s) from 7 row(s) of a binance export; skipped 7 already present "
        + "(nothing new)\n")
    #expect(try tradeCount() == "7\n")
  }

  /// An event is imported whole or not at all: the swap of 03-02 above deleted after its
  /// import (`tx delete` takes both of its legs and leaves the fee's buy) stays deleted when
  /// the file is imported again, even once its prices have changed; deleting the fee's row too
  /// imports the event again, whole, at the prices cached then.
  @Test func anEventWithAnyRowStoredIsSkippedWhole() throws {
    closes([("bitcoin", "2024-03-01", "40000"), ("bitcoin", "2024-03-02", "39950")])
    let file = binance(Self.usdFeeSwap)
    _ = ok("import", "exchange", file)
    _ = ok("tx", "delete", "3")
    #expect(try positions() == "bitcoin|0.1|4000|0\nethereum|0.0025|5|0\n")
    #expect(
      DatabaseProbe.run(
        sandbox.database, "UPDATE daily_prices SET price = '49995' WHERE day = '2024-03-02'"
      ).error == nil)
    #expect(
      ok("import", "exchange", file)
        == "imported 0 trade(s) from 4 row(s) of a binance export; skipped 2 already present "
        + "(nothing new)\n")
    #expect(try positions() == "bitcoin|0.1|4000|0\nethereum|0.0025|5|0\n")
    _ = ok("tx", "delete", "4")
    // 0.1 BTC at 49995 = 4999.5, fee 5: the fee's share 2 × 5 / 5004.5 of the ETH.
    #expect(
      ok("import", "exchange", file)
        == "imported 3 trade(s) from 4 row(s) of a binance export; skipped 1 already present\n")
    #expect(try positions() == "bitcoin|0|0|999.5\nethereum|2|5004.5|0\n")
    #expect(ok("db", "check").hasPrefix("ok"))
  }

  /// A fee paid back (a Binance fee row above zero, a Kraken fee below zero) would be booked as
  /// one paid, so the file is refused with its line and nothing is stored.
  @Test func aFeePaidBackIsRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let binance = binance(
      ["7,2024-03-02 10:00:00,Spot,Transaction Fee,USD,5,"] + Self.usdFeeSwap.dropFirst())
    let kraken = sandbox.write(
      "kraken-rebate.csv",
      """
      "txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"
      "L3","T1","2024-03-02 10:00:00","trade","","currency","ZUSD",0,-5,5
      "L2","T1","2024-03-02 10:00:00","trade","","currency","XETH",2,0,2
      "L1","T1","2024-03-02 10:00:00","trade","","currency","XXBT",-0.1,0,0

      """)
    for (file, line, reason) in [
      (binance, 2, "Change: a fee's Change must be below zero"),
      (kraken, 2, "fee: a fee must not be below zero"),
    ] {
      let result = sandbox.run("import", "exchange", file)
      #expect(result.code == 65)
      #expect(
        result.err.contains("\(file):\(line): \(reason) (folio books fees paid, not rebates)"))
    }
    #expect(try tradeCount() == "0\n")
    // A row of an internal move is not stored: its fee is not read as one paid or paid back.
    let transfer = sandbox.write(
      "kraken-transfer.csv",
      """
      "txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"
      "L3","T2","2024-03-03 10:00:00","transfer","","currency","XXBT",0,-0.0001,3
      "L2","T1","2024-03-02 10:00:00","trade","","currency","XXBT",3,0,3
      "L1","T1","2024-03-02 10:00:00","trade","","currency","ZUSD",-1,0,0

      """)
    _ = ok("import", "exchange", transfer)
    #expect(try positions() == "bitcoin|3|1|0\n")
  }

  /// A Convert whose spread takes all it gives is refused with its line.
  @Test func aSpreadOfTheWholeConvertIsRefused() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "coinbase-spread.csv",
      """
      ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at \
      Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes
      c1,2024-05-03 10:00:00 UTC,Convert,ETH,-0.05,USD,"$3,200.00",$0.00,$160.00,$160.00,\
      Converted 0.05 ETH to 0.002 BTC

      """)
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: nothing was imported: \(file):2: Fees and/or Spread: the spread 160 "
        + "takes all of the 160 converted\n")
    #expect(try tradeCount() == "0\n")
  }

  // MARK: - Messy exports

  /// A statement as Binance's newer exports write it, made by the loop below: a byte-order
  /// mark, CRLF line ends, two-digit years (`24-01-02 00:01:00`), newest first, remarks
  /// quoted with commas and quotes in them, 1000 trades of three rows (0.001 BTC for 39.97
  /// USDT, fee 0.0001 BNB) on 2024-01-02 (closes: USDT 1, BNB 300, BTC 40000), 100 interest
  /// rows of 0.01 USDT, one card payment (unknown, skipped) and, last, two rows of commas
  /// (as a spreadsheet leaves them: blank, not counted). Each trade: a swap of 39.97
  /// USDT (value 39.97) and one of the fee, 0.0001 BNB = 0.03, for its share of the BTC,
  /// 0.001 × 0.03 / 40 = 0.00000075; so 4 rows a trade. BNB 10 − 1000 × 0.0001 = 9.9 at
  /// 3000 − 30 = 2970; BTC 1 at 1000 × 40 = 40000; USDT 100000 − 39970 + 1 = 60031 at the
  /// same. Nothing realized (every price is its cost).
  @Test func aLargeMessyStatementIsBookedExactly() throws {
    closes([
      ("tether", "2024-01-02", "1"), ("binancecoin", "2024-01-02", "300"),
      ("bitcoin", "2024-01-02", "40000"),
    ])
    func time(_ minutes: Int) -> String {
      "24-01-02 "
        + [minutes / 60, minutes % 60, 0].map { $0 < 10 ? "0\($0)" : "\($0)" }
        .joined(separator: ":")
    }
    var rows = [
      "1,\(time(0)),Spot,Deposit,USDT,100000,", "1,\(time(0)),Spot,Deposit,BNB,10,",
    ]
    for trade in 1...1000 {
      rows += [
        "1,\(time(trade)),Spot,Transaction Buy,BTC,0.001,",
        "1,\(time(trade)),Spot,Transaction Spend,USDT,-39.97,",
        "1,\(time(trade)),Spot,Transaction Fee,BNB,-0.0001,",
      ]
    }
    for day in 1...100 {
      rows.append(
        "1,\(time(1000 + day)),Earn,Simple Earn Flexible Interest,USDT,0.01,"
          + "\"Interest, \"\"flexible\"\", day \(day)\"")
    }
    rows.append("1,\(time(1200)),Spot,Binance Card Spending,USDT,-5,")
    let text =
      "\u{FEFF}User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\r\n"
      + rows.reversed().map { $0 + "\r\n" }.joined() + ",,,,,,\r\n,, ,,,,\r\n"
    let file = sandbox.write("statement.csv", text)
    #expect(
      ok("import", "exchange", file, "--skip-unknown")
        == "imported 4102 trade(s) from 3103 row(s) of a binance export; skipped 0 already "
        + "present; 1 row(s) of unknown operations skipped\n")
    #expect(
      try positions()
        == """
        binancecoin|9.9|2970|0
        bitcoin|1|40000|0
        tether|60031|60031|0

        """)
    #expect(
      ok("import", "exchange", file, "--skip-unknown")
        == "imported 0 trade(s) from 3103 row(s) of a binance export; skipped 4102 already "
        + "present (nothing new); 1 row(s) of unknown operations skipped\n")
    #expect(try tradeCount() == "4102\n")
  }

  /// An empty file or /dev/null is refused as empty (65), not as some other export.
  @Test func anEmptyFileIsRefusedAsEmpty() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    for path in [sandbox.write("empty.csv", ""), "/dev/null"] {
      let result = sandbox.run("import", "exchange", path)
      #expect(result.code == 65)
      #expect(
        result.err
          == "folio: error: \(path): is empty: an export starts with a Coinbase, Kraken or "
          + "Binance header (docs/import.md names the exports)\n")
    }
    #expect(try tradeCount() == "0\n")
  }

  /// Text of the export shown in a message (an unknown operation, a ticker) never reaches
  /// the terminal raw: control characters are written as `\u{1B}`.
  @Test func controlCharactersOfTheExportAreShownEscaped() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let file = sandbox.write(
      "statement.csv",
      "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n"
        + "1,2024-01-02 10:00:00,Spot,Card\u{1B}[31mRed\u{1B}]0;title\u{07},BTC,1,\n")
    let result = sandbox.run("import", "exchange", file)
    #expect(result.code == 65)
    #expect(result.err.hasSuffix("\(file):2: Card\\u{1B}[31mRed\\u{1B}]0;title\\u{7}\n"))
    #expect(!result.err.contains("\u{1B}"))
  }
}
