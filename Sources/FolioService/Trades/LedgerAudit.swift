import FolioStorage
import Foundation

/// One problem `folio db check` found.
public struct CheckFinding: Sendable, Equatable {
  /// What kind of problem it is.
  public enum Kind: String, Sendable {
    /// `PRAGMA integrity_check` found damage in the file.
    case integrity
    /// A row refers to a row that does not exist (`PRAGMA foreign_key_check`).
    case foreignKey = "foreign_key"
    /// A trade breaks a rule folio checks before writing one (typed in by hand).
    case trade
    /// Trades name a coin that is not in the coin directory (recorded before it existed, or
    /// typed in by hand).
    case unknownCoin = "unknown_coin"
    /// A sell takes a position below zero: the trades themselves are inconsistent.
    case negativePosition = "negative_position"
    /// The derived tables differ from a recomputation from the trades.
    case outOfDate = "out_of_date"
    /// Saved days of the daily history whose trades or method changed outside folio since
    /// they were saved.
    case staleDays = "stale_days"
    /// A schema object (trigger, view, table, index) folio did not create, or one it creates
    /// that was changed or dropped.
    case schema
  }

  public let kind: Kind
  /// The portfolio concerned, when there is one.
  public let portfolio: String?
  /// The coin concerned, when there is one.
  public let coinID: String?
  /// The trade concerned, when there is one.
  public let tradeID: Int64?
  /// One sentence: what is wrong and what to do.
  public let message: String

  public init(
    kind: Kind, portfolio: String? = nil, coinID: String? = nil, tradeID: Int64? = nil,
    message: String
  ) {
    self.kind = kind
    self.portfolio = portfolio
    self.coinID = coinID
    self.tradeID = tradeID
    self.message = message
  }
}

/// What `folio db check` found.
public struct CheckReport: Sendable, Equatable {
  /// Every problem, integrity and foreign keys first.
  public let findings: [CheckFinding]
  /// False when the trades and derived tables were not checked because the schema is older
  /// than this folio's (`folio db migrate` brings it up to date).
  public let ledgerChecked: Bool
  /// The schema version of the file.
  public let schemaVersion: Int
  /// The trades read to recompute the derived tables.
  public let tradesChecked: Int
  /// The positions (portfolio and coin) recomputed and compared.
  public let positionsChecked: Int

  /// True when nothing is wrong.
  public var isSound: Bool { findings.isEmpty }
}

/// What `folio db rebuild` did for one portfolio.
public struct PortfolioRebuild: Sendable, Equatable {
  public let portfolio: Portfolio
  /// The trades booked.
  public let trades: Int
  /// The derived rows written.
  public let written: DerivedRowCounts
}

/// What `folio db rebuild` did.
public struct RebuildReport: Sendable, Equatable {
  /// The derived rows there were before, all removed.
  public let removed: DerivedRowCounts
  /// Each portfolio, by name.
  public let portfolios: [PortfolioRebuild]
  /// Trades left out because their portfolio does not exist (`folio db check` names them).
  public let tradesWithoutPortfolio: Int
  /// The trades the derived tables were rebuilt from.
  public var trades: Int { portfolios.reduce(0) { $0 + $1.trades } }
}

/// A rebuild that could not be done; nothing was changed.
public enum RebuildError: LocalizedError, ClassifiedError, Equatable {
  /// A sell in the portfolio exceeds what was held: no derived table can describe that.
  case negativePosition(portfolio: String, OversellError)

  public var kind: FailureKind { .badData }

  public var errorDescription: String? {
    switch self {
    case .negativePosition(let portfolio, let error):
      return
        "portfolio '\(portfolio)': \(error.sentence); fix or delete that trade "
        + "('folio tx edit' or 'folio tx delete'), then rebuild again (nothing was changed)"
    }
  }
}

extension OversellError {
  /// The problem without the closing "nothing was written".
  var sentence: String {
    let what = tradeID > 0 ? "sell #\(tradeID)" : "a sell"
    return
      "\(what) of \(quantity) \(coinID) on \(executedAt) exceeds the \(held) held at that time "
      + "(short by \(shortfall)), so the position would go negative"
  }
}

/// Checks what SQL cannot: recomputes every position from the trades with the booking engine
/// (in memory, writing nothing) and compares the result with the stored lots, lot consumptions,
/// disposals, positions and position days; and rebuilds those tables from the trades.
public struct LedgerAudit {
  let db: Database
  /// How many findings about single trades are listed before they are summed up.
  static let listedTradeFindings = 20

  public init(_ store: Store) { db = store.database }

  /// An audit on `database`, a connection of its own (`folio db check` reads the rows on a
  /// second one while the positions are recomputed on the first).
  init(_ database: Database) { db = database }

  /// Every problem with the trades and the derived tables, in one read snapshot:
  /// `rowFindings()`, then `positionFindings()`.
  func findings() throws -> (findings: [CheckFinding], trades: Int, positions: Int) {
    try db.read {
      let positions = try positionFindings()
      return (try rowFindings() + positions.findings, positions.trades, positions.positions)
    }
  }

  /// The problems a trade shows alone, in one read snapshot: trades folio would have refused,
  /// trades of coins not in the coin directory.
  func rowFindings() throws -> [CheckFinding] {
    try db.read { try tradeFindings() + unknownCoinFindings() + staleDayFindings() }
  }

  /// One finding per portfolio with stale saved days (changed outside folio: folio's own
  /// changes recompute them before they commit).
  private func staleDayFindings() throws -> [CheckFinding] {
    try DailyRecord.staleDays(db).map { portfolioID, days in
      let name = try Portfolio.find(id: portfolioID, db)?.name ?? "#\(portfolioID)"
      let listed = days.prefix(10).joined(separator: ", ")
      let more = days.count > 10 ? " and \(days.count - 10) more" : ""
      return CheckFinding(
        kind: .staleDays, portfolio: name,
        message:
          "portfolio '\(name)': \(days.count) saved day(s) no longer follow from its trades or "
          + "method (\(listed)\(more)); reports leave them out until the next folio command "
          + "that writes recomputes them, or run 'folio report backfill --portfolio \(name) "
          + "--since \(days.first ?? "")'")
    }
  }

  /// Every position recomputed from its trades and compared with its derived rows, in one read
  /// snapshot: the positions whose rows differ or that go below zero, then the lot
  /// consumptions of no recorded sell.
  func positionFindings() throws -> (findings: [CheckFinding], trades: Int, positions: Int) {
    try db.read {
      var findings: [CheckFinding] = []
      let portfolios = try Portfolio.all(db)
      // Ids are unique but in a damaged file, which this may read beside the integrity check.
      let byID = Dictionary(portfolios.map { ($0.id, $0) }) { first, _ in first }
      let derived = try DerivedTables(db)
      var keys = Set<PositionID>()
      for portfolio in portfolios {
        for coin in try Trade.coins(portfolioID: portfolio.id, db) {
          keys.insert(PositionID(portfolioID: portfolio.id, coinID: coin))
        }
      }
      for key in try derived.derivedPositionKeys() {
        keys.insert(PositionID(portfolioID: key.portfolioID, coinID: key.coinID))
      }
      // Rows whose trade is gone belong to the position they name.
      let (strayLots, strayDisposals) = try derived.rowsWithoutTrade()
      func byPosition(_ rows: [StoredRowKey]) -> [PositionID: [Int64]] {
        Dictionary(grouping: rows) { PositionID(portfolioID: $0.portfolioID, coinID: $0.coinID) }
          .mapValues { $0.map(\.tradeID) }
      }
      let strays = Strays(lots: byPosition(strayLots), disposals: byPosition(strayDisposals))
      keys.formUnion(strays.lots.keys)
      keys.formUnion(strays.disposals.keys)
      var trades = 0
      for key in keys.sorted() {
        guard let portfolio = byID[key.portfolioID] else {
          findings.append(
            CheckFinding(
              kind: .outOfDate, coinID: key.coinID,
              message:
                "the derived tables hold rows of \(key.coinID) for portfolio id \(key.portfolioID), "
                + "which does not exist; run 'folio db rebuild'"))
          continue
        }
        let (count, finding) = try audit(portfolio, coinID: key.coinID, derived, strays)
        trades += count
        if let finding { findings.append(finding) }
      }
      let orphans = try derived.orphanConsumptionCount()
      if orphans > 0 {
        findings.append(
          CheckFinding(
            kind: .outOfDate,
            message:
              "\(orphans) lot consumption(s) belong to no disposal of a recorded sell (removed "
              + "by hand); run 'folio db rebuild'"))
      }
      return (findings, trades, keys.count)
    }
  }

  /// Trades that folio would not have written (a trade in no portfolio is a foreign-key
  /// finding).
  private func tradeFindings() throws -> [CheckFinding] {
    var findings: [CheckFinding] = []
    let broken = try Trade.breakingWriteRules(db)
    for (id, problem) in broken.prefix(Self.listedTradeFindings) {
      findings.append(
        CheckFinding(
          kind: .trade, tradeID: id,
          message:
            "trade #\(id): \(problem); fix the row ('folio db shell'), then run 'folio db rebuild'"
        ))
    }
    if broken.count > Self.listedTradeFindings {
      findings.append(
        CheckFinding(
          kind: .trade,
          message:
            "and \(broken.count - Self.listedTradeFindings) more trade(s) break the same rules"))
    }
    return findings
  }

  /// One finding per portfolio and coin whose trades name a coin the coin directory does not
  /// hold, with their ids (the first ten) and the coin the text means or is closest to.
  private func unknownCoinFindings() throws -> [CheckFinding] {
    let (trades, total) = try CoinDirectoryRecords.tradesWithUnknownCoins(db, limit: 10_000)
    var groups: [(portfolio: String, coin: String, ids: [Int64])] = []
    for trade in trades {
      if let last = groups.indices.last(where: {
        groups[$0].portfolio == trade.portfolio && groups[$0].coin == trade.coinID
      }) {
        groups[last].ids.append(trade.tradeID)
      } else {
        groups.append((trade.portfolio, trade.coinID, [trade.tradeID]))
      }
    }
    let directory = CoinDirectory(db)
    var findings: [CheckFinding] = []
    for group in groups.sorted(by: { ($0.portfolio, $0.coin) < ($1.portfolio, $1.coin) }) {
      let ids = group.ids.prefix(10).map { "#\($0)" }.joined(separator: ", ")
      let more = group.ids.count > 10 ? " and \(group.ids.count - 10) more" : ""
      let fix: String
      if let coin = try? directory.resolve(group.coin) {
        // The text names a listed coin (a symbol, another case): merging is the repair.
        fix =
          "move them to '\(coin.id)' with 'folio coins merge \(group.coin) \(coin.id) "
          + "--portfolio \(group.portfolio)'"
      } else {
        // A coin merely spelled like another must not be offered as a ready merge (bitcoin
        // into litecoin): say how to list it, and the merge only as a typo's repair.
        let closest = try directory.suggestions(for: group.coin).first.map {
          " (perhaps '\($0.id)')"
        }
        fix =
          "'folio market refresh' adds it if CoinGecko lists it; if it is a typo\(closest ?? ""), "
          + "'folio coins merge \(group.coin) COIN --portfolio \(group.portfolio)' moves them"
      }
      findings.append(
        CheckFinding(
          kind: .unknownCoin, portfolio: group.portfolio, coinID: group.coin,
          tradeID: group.ids.first,
          message:
            "portfolio '\(group.portfolio)': \(group.ids.count) trade(s) of '\(group.coin)', "
            + "a coin not in the coin directory (\(ids)\(more)); \(fix)"))
    }
    if total > trades.count {
      findings.append(
        CheckFinding(
          kind: .unknownCoin,
          message: "and \(total - trades.count) more trade(s) of coins not in the coin directory"))
    }
    return findings
  }

  /// Recomputes one position and compares it with the stored rows, both in the trades' order
  /// (a merge: nothing is looked up or held but the recomputed rows); returns the number of
  /// trades read and the finding, if the position is not as it should be.
  private func audit(
    _ portfolio: Portfolio, coinID: String, _ derived: DerivedTables, _ strays: Strays
  ) throws -> (Int, CheckFinding?) {
    var book = PositionBook(method: portfolio.method)
    // Each buy's lot, in the trades' order, in its last state; and where each lot is.
    var lots: [(key: AuditKey, lot: Lot)] = []
    var lotPlace: [Int64: Int] = [:]
    var disposals: [(key: AuditKey, disposal: Disposal)] = []
    var consumptions: [(key: AuditKey, consumption: LotConsumption)] = []
    var days: [PositionDay] = []
    var last: PositionEnd?
    var sums = DaySums()
    var count = 0
    func update(_ lot: Lot) {
      if let place = lotPlace[lot.tradeID] { lots[place].lot = lot }
    }
    do {
      try Trade.each(portfolioID: portfolio.id, coinID: coinID, from: nil, db) { trade in
        count += 1
        let key = AuditKey(trade: trade.key)
        let booked: DaySums.Booked
        switch trade.side {
        case .buy:
          let lot = try book.buy(trade)
          lotPlace[lot.tradeID] = lots.count
          lots.append((key, lot))
          booked = .bought(lot)
        case .sell:
          let result = try book.sell(trade)
          for closed in result.closedLots { update(closed.lot) }
          for piece in result.consumptions.sorted(by: { $0.lotTradeID < $1.lotTradeID }) {
            consumptions.append((AuditKey(trade: trade.key, lot: piece.lotTradeID), piece))
          }
          disposals.append((key, result.disposal))
          booked = .sold(result.disposal)
        }
        if last == nil { last = PositionEnd(trade) } else { last?.advance(trade) }
        if let closed = try sums.add(trade, booked) { days.append(closed) }
      }
      if let closed = sums.close() { days.append(closed) }
    } catch let error as OversellError {
      return (
        count,
        CheckFinding(
          kind: .negativePosition, portfolio: portfolio.name, coinID: coinID,
          tradeID: error.tradeID,
          message:
            "portfolio '\(portfolio.name)': \(error.sentence); fix or delete that trade "
            + "('folio tx edit' or 'folio tx delete'), then run 'folio db rebuild'")
      )
    } catch let error as SQLiteError where error.category == .mismatch {
      return (
        count,
        CheckFinding(
          kind: .trade, portfolio: portfolio.name, coinID: coinID,
          message:
            "portfolio '\(portfolio.name)', \(coinID): a trade holds a value folio cannot read, "
            + "so the position was not checked; fix the trade named above ('folio db shell'), "
            + "then run 'folio db rebuild'")
      )
    } catch let error as DecimalError {
      return (
        count,
        CheckFinding(
          kind: .negativePosition, portfolio: portfolio.name, coinID: coinID,
          message:
            "portfolio '\(portfolio.name)', \(coinID): the trades cannot be booked "
            + "(\(error.localizedDescription)); fix the trade that causes it")
      )
    }
    for open in book.openLots { update(open.lot) }

    let position = PositionID(portfolioID: portfolio.id, coinID: coinID)
    let (id, method) = (portfolio.id, portfolio.method.rawValue)
    var differences = Differences()
    try differences.compare(
      "lot", lots, key: \.key, name: { "lot of trade #\($0.trade.id)" },
      stored: { try derived.eachStoredLot(portfolioID: id, coinID: coinID, $0) },
      difference: { expected, row in
        let lot = expected.lot
        return row.difference(
          from: 2, id, coinID, lot.acquiredAt, lot.quantity, lot.cost, lot.remaining,
          lot.remainingCost)
      })
    differences.unexpected("lot", strays.lots[position] ?? []) { "lot of trade #\($0)" }
    try differences.compare(
      "disposal", disposals, key: \.key, name: { "disposal of sell #\($0.trade.id)" },
      stored: { try derived.eachStoredDisposal(portfolioID: id, coinID: coinID, $0) },
      difference: { expected, row in
        let disposal = expected.disposal
        return row.difference(
          from: 2, id, coinID, disposal.disposedAt, disposal.quantity, disposal.proceeds,
          disposal.costBasis, disposal.realized, disposal.method.rawValue)
      })
    differences.unexpected("disposal", strays.disposals[position] ?? []) {
      "disposal of sell #\($0)"
    }
    try differences.compare(
      "lot consumption", consumptions, key: \.key,
      name: { "consumption of lot #\($0.lot) by sell #\($0.trade.id)" },
      stored: { try derived.eachStoredConsumption(portfolioID: id, coinID: coinID, $0) },
      difference: { expected, row in
        row.difference(from: 3, expected.consumption.quantity, expected.consumption.cost)
      })
    try differences.compare(
      "position day", days, key: \.day, name: { "the row of \($0) in position_days" },
      stored: { try derived.eachStoredDay(portfolioID: id, coinID: coinID, $0) },
      difference: { day, row in
        row.difference(
          from: 1, day.quantityChange, day.cashIn, day.cashInWeight, day.cashOut,
          day.cashOutWeight, day.costChange, day.realized, day.cashTooLarge)
      })
    try differences.compare(
      "position", last.map { [$0] } ?? [], key: { _ in 0 }, name: { _ in "the position" },
      stored: { body in
        try derived.storedPosition(portfolioID: id, coinID: coinID) { try body(0, $0) }
      },
      difference: { end, row in
        row.difference(
          from: 0, book.quantity, book.costBasis, book.realized, end.key.executedAt, end.key.id,
          end.price ?? .zero, method)
      })
    guard let summary = differences.summary else { return (count, nil) }
    return (
      count,
      CheckFinding(
        kind: .outOfDate, portfolio: portfolio.name, coinID: coinID,
        message:
          "portfolio '\(portfolio.name)', \(coinID): the derived tables differ from the trades "
          + "(\(summary)); run 'folio db rebuild'")
    )
  }

  // MARK: - Rebuild

  /// Deletes every row of the derived tables and books every portfolio's trades again, in one
  /// write transaction: a history that cannot be booked (a sell exceeding what was held)
  /// changes nothing.
  public func rebuild() throws -> RebuildReport {
    try db.write {
      let derived = try DerivedTables(db)
      let removed = try derived.rowCounts()
      try derived.deleteEverything()
      // The saved days follow the rebuilt tables (recomputed before this commits).
      try DailyRecord.markAllStale(db)
      let ledger = try Ledger(db)
      var results: [PortfolioRebuild] = []
      for portfolio in try Portfolio.all(db) {
        do {
          try ledger.rebuild(portfolio: portfolio)
        } catch let error as OversellError {
          throw RebuildError.negativePosition(portfolio: portfolio.name, error)
        }
        results.append(
          PortfolioRebuild(
            portfolio: portfolio, trades: try Portfolio.tradeCount(id: portfolio.id, db),
            written: try derived.rowCounts(portfolioID: portfolio.id)))
      }
      return RebuildReport(
        removed: removed, portfolios: results,
        tradesWithoutPortfolio: try Trade.withoutPortfolioCount(db))
    }
  }
}

/// Lots and disposals whose trade is gone, by the position their row names, by trade id.
private struct Strays {
  let lots: [PositionID: [Int64]]
  let disposals: [PositionID: [Int64]]
}

/// Differences between recomputed and stored rows of one position, counted per table, with the
/// first one described.
private struct Differences {
  private var counts: [(String, Int)] = []
  private var first: String?

  /// Compares the recomputed rows of `table`, in key order, with the stored ones `stored` gives
  /// in the same order, as a merge: rows with the same key value by value (`difference`), and a
  /// row on one side alone as missing or not to be there.
  mutating func compare<Expected, Key: Comparable>(
    _ table: String, _ expected: [Expected], key: @escaping (Expected) -> Key,
    name: @escaping (Key) -> String, stored: (_ body: (Key, Row) throws -> Void) throws -> Void,
    difference: @escaping (Expected, Row) -> StoredDifference?
  ) throws {
    var count = 0
    func note(_ description: @autoclosure () -> String) {
      count += 1
      if first == nil { first = description() }
    }
    var next = expected.startIndex
    try stored { storedKey, row in
      while next < expected.endIndex, key(expected[next]) < storedKey {
        note("\(name(key(expected[next]))) is missing")
        next += 1
      }
      guard next < expected.endIndex, key(expected[next]) == storedKey else {
        return note("\(name(storedKey)) should not exist")
      }
      if let found = difference(expected[next], row) {
        note(
          "\(name(storedKey)): \(found.column) is '\(found.stored)', the trades give "
            + "'\(found.expected)'")
      }
      next += 1
    }
    for row in expected[next...] { note("\(name(key(row))) is missing") }
    if count > 0 { counts.append((table, count)) }
  }

  /// Stored rows of `table` that no trade accounts for, by trade id.
  mutating func unexpected(_ table: String, _ tradeIDs: [Int64], name: (Int64) -> String) {
    guard let id = tradeIDs.first else { return }
    if first == nil { first = "\(name(id)) should not exist" }
    if let index = counts.firstIndex(where: { $0.0 == table }) {
      counts[index].1 += tradeIDs.count
    } else {
      counts.append((table, tradeIDs.count))
    }
  }

  /// "1 lot, 2 disposals; first difference: …", or nil when everything matched.
  var summary: String? {
    guard !counts.isEmpty else { return nil }
    let parts = counts.map { table, count in
      table == "position" ? "the position" : "\(count) \(table)\(count == 1 ? "" : "s")"
    }
    return parts.joined(separator: ", ") + (first.map { "; first difference: \($0)" } ?? "")
  }
}
