import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

@Suite struct TradeTests {
  let folder = TemporaryFolder()

  /// SQLite's plan for the query `Trade.each` runs with `filter`, one line per step.
  func plan(_ filter: Trade.Filter) throws -> [String] {
    let db = try Database(path: folder.file("plan.sqlite3"))
    _ = try Migrator().migrate(db, now: Date(timeIntervalSince1970: 0))
    let (sql, values) = Trade.query(portfolioIDs: [1], filter: filter)
    return try db.rows("EXPLAIN QUERY PLAN " + sql, values) { try $0["detail"] as String }
  }

  /// `tx list --coin C --limit N` and `tx list --since D --limit N` read N rows of an index in
  /// order, whatever the journal's size: no scan of the table, no sort.
  @Test func coinOrTimeFiltersReadAnIndexInOrder() throws {
    let day = try #require(CalendarDay("2024-01-01")).start
    let byCoin = try plan(Trade.Filter(coinID: "bitcoin", limit: 50))
    #expect(
      byCoin == ["SEARCH trades USING INDEX trades_by_position (portfolio_id=? AND coin_id=?)"])
    let since = try plan(Trade.Filter(since: day, limit: 50))
    #expect(
      since == ["SEARCH trades USING INDEX trades_by_time (portfolio_id=? AND executed_at>?)"])
    let both = try plan(Trade.Filter(coinID: "bitcoin", since: day, limit: 50))
    #expect(both.allSatisfy { !$0.contains("TEMP B-TREE") && !$0.hasPrefix("SCAN") }, "\(both)")
  }

  /// A report reads the deposits, withdrawals and transfers before a day through their partial
  /// index, never every trade.
  @Test func flowsAtMarketValueReadTheirPartialIndex() throws {
    var filter = Trade.Filter(before: try #require(CalendarDay("2024-01-01")).start)
    filter.atMarketValue = true
    #expect(
      try plan(filter) == [
        "SEARCH trades USING INDEX trades_at_market_value (portfolio_id=? AND executed_at<?)"
      ])
  }
}
