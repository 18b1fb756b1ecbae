import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// `position_days`: the day sums a report reads instead of every trade stay equal to the sums of
/// the trades through every way the journal changes, and a database from before the table gets
/// them when it is migrated.
@Suite struct PositionDaysTests {
  /// The day rows summed straight from the trades and their lots and disposals (an oracle apart
  /// from `DaySums`): per coin and day, units in less units out, the cash paid in and taken out
  /// with their weights, the lots' cost less the cost basis sold, and the profit realized.
  func expectedDays(_ test: TestStore) throws -> [String] {
    var sums: [String: [ExactDecimal]] = [:]
    try test.db.prepare(
      """
      SELECT t.coin_id, t.executed_at, t.side, t.kind, t.quantity, t.price, t.fee,
        coalesce(l.cost, '0') AS lot_cost, coalesce(d.cost_basis, '0') AS sold_cost,
        coalesce(d.realized_pnl, '0') AS realized
      FROM trades AS t LEFT JOIN lots AS l ON l.trade_id = t.id
      LEFT JOIN disposals AS d ON d.trade_id = t.id WHERE t.portfolio_id = ?
      """
    ).forEachRow([try test.main().id]) { row in
      let at: String = try row["executed_at"]
      let coin: String = try row["coin_id"]
      let key = "\(coin)|\(at.prefix(10))"
      let (quantity, price, fee): (ExactDecimal, ExactDecimal, ExactDecimal) = (
        try row["quantity"], try row["price"], try row["fee"]
      )
      let (side, kind): (String, String) = (try row["side"], try row["kind"])
      let buy = side == "buy"
      var day = sums[key] ?? Array(repeating: .zero, count: 7)
      day[0] = buy ? try day[0] + quantity : try day[0] - quantity
      let (lotCost, soldCost, realized): (ExactDecimal, ExactDecimal, ExactDecimal) = (
        try row["lot_cost"], try row["sold_cost"], try row["realized"]
      )
      day[5] = try day[5] + lotCost - soldCost
      day[6] = try day[6] + realized
      if kind == "trade" {
        let amount = buy ? try quantity * price + fee : try fee - quantity * price
        func field(_ offset: Int) -> Int { Int(at.dropFirst(offset).prefix(2)) ?? 0 }
        let seconds = field(11) * 3600 + field(14) * 60 + field(17)
        let weight = try amount.magnitude * ExactDecimal(seconds)
        let index = amount.isNegative ? 3 : 1
        if !amount.isZero {
          day[index] = try day[index] + amount.magnitude
          day[index + 1] = try day[index + 1] + weight
        }
      }
      sums[key] = day
    }
    return sums.keys.sorted().map { key in
      key + "|" + (sums[key] ?? []).map(\.description).joined(separator: "|") + "|0"
    }
  }

  static let dayText =
    "coin_id || '|' || day || '|' || quantity_change || '|' || cash_in || '|' "
    + "|| cash_in_weight || '|' || cash_out || '|' || cash_out_weight || '|' || cost_change "
    + "|| '|' || realized || '|' || cash_too_large AS text"

  func storedDays(_ test: TestStore) throws -> [String] {
    try test.db.rows(
      "SELECT \(Self.dayText) FROM position_days WHERE portfolio_id = ? ORDER BY coin_id, day",
      [try test.main().id]
    ) { try $0["text"] }
  }

  /// Buys and sells at random times (several a day, out of time order), edits of their date,
  /// price and quantity, and deletes: after every step the day rows are the trades' sums, and a
  /// rebuild writes them unchanged.
  @Test func everyChangeToTheJournalKeepsTheDaySums() throws {
    let test = try TestStore()
    let service = TradeService(test.store)
    var random = SplitMix64(seed: 17)
    var ids: [Int64] = []
    var done = (buys: 0, sells: 0, edits: 0, deletes: 0)
    let now = Date(timeIntervalSince1970: 1_732_968_000)
    func time() -> String {
      String(
        format: "2024-03-%02dT%02d:%02d:%02dZ", random.next(in: 1...6), random.next(in: 0...23),
        random.next(in: 0...59), random.next(in: 0...59))
    }
    for step in 0..<120 {
      let choice = random.next(in: 0...9)
      do {
        if choice < 6 || ids.isEmpty {
          let side: TradeSide = choice < 4 || ids.isEmpty ? .buy : .sell
          let trade = try service.record(
            TradeDraft(
              side: side, coin: "",
              quantity: "\(random.next(in: 1...30)).\(random.next(in: 0...9))",
              price: "\(random.next(in: 90...110))", fee: random.next(in: 0...1) == 0 ? nil : "0.5",
              date: time()), in: test.main(),
            coinID: random.next(in: 0...2) == 0 ? "ethereum" : "bitcoin", now: now)
          ids.append(trade.id)
          if side == .buy { done.buys += 1 } else { done.sells += 1 }
        } else if choice < 8 {
          let id = ids[random.next(in: 0...(ids.count - 1))]
          _ = try service.edit(
            id: id,
            TradeChanges(
              quantity: "\(random.next(in: 1...9))", price: "\(random.next(in: 80...120))",
              date: time()), in: test.main(), now: now)
          done.edits += 1
        } else {
          let index = random.next(in: 0...(ids.count - 1))
          _ = try service.delete(id: ids[index], in: test.main())
          ids.remove(at: index)
          done.deletes += 1
        }
      } catch is OversellError {
        // A sell beyond what was held is refused and changes nothing.
      }
      let (stored, expected) = (try storedDays(test), try expectedDays(test))
      #expect(stored == expected, "after step \(step)")
    }
    #expect(done.buys > 20 && done.sells > 5 && done.edits > 5 && done.deletes > 5)
    let incremental = try test.derivedSnapshot()
    _ = try LedgerAudit(test.store).rebuild()
    #expect(try test.derivedSnapshot() == incremental)
    #expect(try LedgerAudit(test.store).findings().findings.isEmpty)
  }

  /// An import newest first, onto trades already stored on the same days and later, writes the
  /// trades' sums: rows booked as they are read, then the out-of-order rest booked again.
  @Test func anImportOutOfOrderKeepsTheDaySums() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-02T12:00:00Z")
    try test.trade(.sell, "bitcoin", "0.5", at: "110", fee: "1", on: "2024-01-05T06:00:00Z")
    let csv = """
      date,side,coin,quantity,price,fee,note
      2024-01-05T23:00:00Z,sell,bitcoin,0.25,120,0,
      2024-01-05T01:00:00Z,buy,ethereum,2,2000,3,
      2024-01-02T18:00:00Z,buy,bitcoin,2,90,1,
      2024-01-02T06:00:00Z,sell,bitcoin,0.1,95,0,
      2024-01-01T00:00:00Z,buy,bitcoin,0.5,80,0,
      """
    let report = try TradeImporter(test.store).importTrades(
      from: CSVReader(bytes: Array(csv.utf8), source: "t.csv"), source: "t.csv",
      into: test.main(), newestFirst: true, now: Date(timeIntervalSince1970: 1_732_968_000))
    #expect(report.imported == 5)
    let stored = try storedDays(test)
    #expect(stored == (try expectedDays(test)))
    #expect(stored.count == 4)
    #expect(
      stored.first { $0.hasPrefix("bitcoin|2024-01-02|") }
        == "bitcoin|2024-01-02|2.9|281|16048800|9.5|205200|273|1.5|0",
      "in: 100 at 12:00, 181 at 18:00; out: 9.5 at 06:00 from a lot of 80 a unit (realized 1.5)")
  }

  /// Cash too large to sum exactly (each amount × its seconds must stay within about 1.7e20)
  /// marks the day instead of refusing a trade the position can hold; the report then gives
  /// the returns of the periods holding that day as n/a, and its other figures as always.
  @Test func cashTooLargeToSumMarksTheDayInsteadOfRefusingTheTrade() throws {
    let test = try TestStore()
    let huge = "100000000000000000000"
    try test.trade(.buy, "bitcoin", "1", at: huge, on: "2024-01-02T10:00:00Z")
    try test.trade(.sell, "bitcoin", "1", at: huge, on: "2024-01-02T11:00:00Z")
    try test.trade(.buy, "bitcoin", "1", at: huge, on: "2024-01-02T12:00:00Z")
    #expect(try storedDays(test) == ["bitcoin|2024-01-02|1|0|0|0|0|\(huge)|0|1"])
    #expect(try LedgerAudit(test.store).findings().findings.isEmpty)
    let report = try ReportService(test.store).build(
      test.main(), day: try #require(CalendarDay("2024-01-05")), method: .fifo,
      maxAge: 86_400, now: Date(timeIntervalSince1970: 1_732_968_000), historyDays: 30)
    #expect(report.holdings.map(\.coinID) == ["bitcoin"])
    let day = try #require(CalendarDay("2024-01-05"))
    let inputs = try test.db.read {
      try ReportService(test.store).returnInputs(test.main(), through: day)
    }
    #expect(
      inputs.flows.map(\.unknown) == [
        "the money the trades of 2024-01-02 paid in or took out is too large to sum exactly"
      ])
  }

  /// A hand-edited day row is a finding of `db check`, which names the row.
  @Test func aChangedDayRowIsFound() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "1", at: "100", on: "2024-01-01")
    try test.db.execute("UPDATE position_days SET cash_in = '99'")
    let found = try LedgerAudit(test.store).findings().findings
    #expect(
      found.map(\.message) == [
        "portfolio 'main', bitcoin: the derived tables differ from the trades (1 position day; "
          + "first difference: the row of 2024-01-01 in position_days: cash_in is '99', the "
          + "trades give '100'); run 'folio db rebuild'"
      ])
  }

  /// A file written before migration 0012 gets the rows of its positions when it is opened, in
  /// the migration's transaction: the same rows the booking writes.
  @Test func aDatabaseFromBeforeTheTableGetsItsRowsWhenMigrated() throws {
    let test = try TestStore()
    try test.trade(.buy, "bitcoin", "2", at: "100", fee: "1", on: "2024-01-01T08:00:00Z")
    try test.trade(.buy, "bitcoin", "1", at: "120", on: "2024-01-01T20:00:00Z")
    try test.trade(.sell, "bitcoin", "1.5", at: "130", fee: "2", on: "2024-01-03T12:00:00Z")
    try test.trade(.buy, "ethereum", "3", at: "2000", on: "2024-01-02")
    let booked = try storedDays(test)
    #expect(booked.count == 3)
    #expect(
      booked.first == "bitcoin|2024-01-01|3|321|14428800|0|0|321|0|0",
      "2 × 100 + 1 at 08:00 (28,800 s), 120 at 20:00 (72,000 s)")
    let path = test.store.database.path
    try test.db.execute(
      """
      DROP TABLE position_days; DROP INDEX trades_at_market_value;
      DROP TRIGGER portfolio_daily_stale_on_insert; DROP TRIGGER portfolio_daily_stale_on_delete;
      DROP TRIGGER portfolio_daily_stale_on_update; DROP TRIGGER portfolio_daily_stale_on_method;
      DROP INDEX portfolio_daily_stale; ALTER TABLE portfolio_daily DROP COLUMN stale;
      DELETE FROM schema_migrations WHERE version >= 12; PRAGMA user_version = 11
      """)
    let reopened = try Store(StoreLocation(path: path))
    #expect(reopened.migration.applied.map(\.version) == [12, 13])
    #expect(
      try reopened.database.rows(
        "SELECT \(Self.dayText) FROM position_days ORDER BY coin_id, day"
      ) { try $0["text"] as String } == booked)
  }
}
