import FolioStorage
import Foundation

/// Why a trade operation was refused.
public enum TradeError: LocalizedError, ClassifiedError, Equatable {
  case notFound(Int64, portfolio: String)
  case duplicateExternalID(String)
  case nothingToChange
  /// `tx list --since` later than `--until`.
  case emptyRange(since: String, until: String)
  /// `coins merge` of a coin into itself.
  case sameCoin(String)
  /// `coins merge` of a coin no trade names (in the portfolio, when one is given).
  case noTradesOfCoin(String, portfolio: String?)

  public var kind: FailureKind {
    switch self {
    case .notFound, .noTradesOfCoin: return .inputMissing
    default: return .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .notFound(let id, let portfolio):
      return "no trade #\(id) in portfolio '\(portfolio)'; 'folio tx list' shows the trades"
    case .duplicateExternalID(let id):
      return "a trade with id '\(id)' already exists in this portfolio"
    case .sameCoin(let coin):
      return "'\(coin)' is the coin to merge it into; nothing to merge"
    case .noTradesOfCoin(let coin, let portfolio):
      let scope = portfolio.map { "portfolio '\($0)'" } ?? "any portfolio"
      return "no trade of \(scope) names the coin '\(coin)' (give the coin as the trades "
        + "store it: 'folio tx list' shows them)"
    case .emptyRange(let since, let until):
      return "--since \(since) is after --until \(until); give the earlier date first"
    case .nothingToChange:
      return "nothing to change: give at least one of --quantity, --price, --fee, --date, --note, "
        + "--location, --no-location, --coin"
    }
  }
}

/// The fields `tx edit` may change; nil leaves a field as it is.
public struct TradeChanges: Sendable {
  public var quantity: String?
  public var price: String?
  public var fee: String?
  public var date: String?
  public var note: String?
  /// The new location: an id or `"NAME, CITY"`, resolved as `buy --location` resolves it.
  public var location: String?
  /// Clears the trade's location (`--no-location`).
  public var removeLocation = false
  /// A new coin: an id or symbol of the coin directory (see `CoinDirectory.resolve`).
  public var coin: String?
  /// The new `coin` may be an id the directory does not know; it is added to it.
  public var newCoin = false
  /// A new `date` may be more than a day in the future.
  public var allowFuture = false

  public init(
    quantity: String? = nil, price: String? = nil, fee: String? = nil, date: String? = nil,
    note: String? = nil, location: String? = nil, removeLocation: Bool = false,
    allowFuture: Bool = false
  ) {
    self.quantity = quantity
    self.price = price
    self.fee = fee
    self.date = date
    self.note = note
    self.location = location
    self.removeLocation = removeLocation
    self.allowFuture = allowFuture
  }

  var isEmpty: Bool {
    quantity == nil && price == nil && fee == nil && date == nil && note == nil && location == nil
      && !removeLocation && coin == nil
  }
}

/// Which trades `tx list` shows, as the user gave them: a coin id or symbol, `--since` and
/// `--until` dates and a location id or `"name, city"`; nil matches every trade.
public struct TradeQuery: Sendable {
  public var coin: String?
  public var side: TradeSide?
  public var since: String?
  /// A bare date includes that whole day; a time is an exact (inclusive) bound.
  public var until: String?
  public var limit: Int?
  /// Only the newest this many trades.
  public var last: Int?
  public var location: String?

  public init(
    coin: String? = nil, side: TradeSide? = nil, since: String? = nil, until: String? = nil,
    limit: Int? = nil, last: Int? = nil, location: String? = nil
  ) {
    (self.coin, self.side, self.since, self.until) = (coin, side, since, until)
    (self.limit, self.last, self.location) = (limit, last, location)
  }
}

/// What `coins merge` did.
public struct CoinMerge: Sendable, Equatable {
  /// The trades moved in one portfolio.
  public struct Moved: Sendable, Equatable {
    public let portfolio: String
    public let trades: Int
  }

  public let from: String
  public let into: String
  /// The portfolios whose trades moved, by id.
  public let moved: [Moved]
  /// True when `into` was added to the coin directory (`--new-coin`).
  public let added: Bool
}

/// A trade with what its sell realized, for `tx show`.
public struct TradeDetail: Sendable, Equatable {
  public let trade: Trade
  /// For a sell: proceeds, cost basis and realized profit.
  public let disposal: Disposal?
  /// For a sell: the lots it consumed.
  public let consumptions: [LotConsumption]
  /// For a buy: its lot as it stands now.
  public let lot: Lot?
  /// Where the trade happened, if recorded.
  public let location: Location?
}

/// Recording, changing and reading trades. Every change runs in one write transaction and
/// recomputes the derived tables from the earliest changed trade of that coin on; a change
/// that would make any sell oversell is refused and nothing is written. What a change books
/// with (the portfolio's method, the held quantities) is read inside that transaction.
public struct TradeService {
  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// Validates a draft into a trade of `portfolio` (not yet stored); a date more than a day
  /// after `now` is refused unless `allowFuture`.
  public static func trade(
    from draft: TradeDraft, portfolio: Portfolio, coinID: String, now: Date,
    allowFuture: Bool = false
  ) throws -> Trade {
    try trade(
      from: draft, portfolio: portfolio, coinID: coinID, stamp: Timestamp.format(now),
      latest: TradeInput.latestDate(now: now, allowFuture: allowFuture))
  }

  /// Validates a draft; `stamp` is the current time, already formatted (imports reuse it), and
  /// `latest` the latest date accepted (nil: any), `dates` the forms its date may take.
  static func trade(
    from draft: TradeDraft, portfolio: Portfolio, coinID: String, stamp: String,
    latest: Timestamp?, dates: Timestamp.Syntax = .zoned
  ) throws -> Trade {
    let trade = Trade(
      portfolioID: portfolio.id,
      executedAt: try draft.date.map {
        try TradeInput.date($0, latest: latest, syntax: dates).description(parsedFrom: $0)
      } ?? stamp,
      side: draft.side, coinID: coinID, quantity: try TradeInput.quantity(draft.quantity),
      price: try TradeInput.amount(draft.price, field: "price"),
      fee: try TradeInput.amount(draft.fee ?? "0", field: "fee"),
      note: try TradeInput.note(draft.note),
      externalID: try TradeInput.externalID(draft.externalID), locationID: draft.locationID,
      createdAt: stamp)
    // Booking takes the trade's cost or proceeds: refused here, naming what is too large, not
    // deep in the booking as "the result is too large".
    do {
      _ = try trade.quantity * trade.price + trade.fee
    } catch {
      throw TradeInputError(
        field: "quantity × price",
        reason: "\(trade.quantity) × \(trade.price) + the fee \(trade.fee) is too large to "
          + "represent exactly (the limit is about 1.7e20)")
    }
    return trade
  }

  /// Records a new trade of `draft.coin` (an id or a symbol of the coin directory; with
  /// `newCoin`, an id the directory does not know, which is added to it) made at `location`
  /// (an id or `"name, city"`), and returns it with its id. `note` receives what the user
  /// should know about the coin chosen (a symbol of several coins).
  public func record(
    _ draft: TradeDraft, location: String? = nil, in portfolio: Portfolio, now: Date,
    allowFuture: Bool = false, newCoin: Bool = false, note: (String) -> Void = { _ in }
  ) throws -> Trade {
    var draft = draft
    if let location { draft.locationID = try LocationBook(store).locationID(for: location) }
    let directory = CoinDirectory(store)
    // Checked before the write, so a refused coin takes no lock; added inside it.
    var coin = try directory.resolve(draft.coin, unknown: newCoin ? .accept : .refuse)
    return try db.write {
      if newCoin { coin = try directory.resolve(draft.coin, unknown: .add) }
      let trade = try record(
        draft, in: portfolio, coinID: coin.id, now: now, allowFuture: allowFuture)
      if let text = coin.note { note(text) }
      return trade
    }
  }

  /// Records a new trade of `coinID` and returns it with its id.
  public func record(
    _ draft: TradeDraft, in portfolio: Portfolio, coinID: String, now: Date,
    allowFuture: Bool = false
  ) throws -> Trade {
    var trade = try Self.trade(
      from: draft, portfolio: portfolio, coinID: coinID, now: now, allowFuture: allowFuture)
    return try db.write {
      // The method the trade is booked with is read inside the write transaction.
      let portfolio = try Portfolio.current(portfolio, db)
      guard let id = try trade.insert(db) else {
        throw TradeError.duplicateExternalID(trade.externalID ?? "")
      }
      trade.id = id
      do {
        let ledger = try Ledger(db)
        let key = TradeKey(executedAt: trade.executedAt, id: 0)
        try ledger.recompute(portfolio: portfolio, coinID: trade.coinID, from: key)
        try ledger.settleTransfers(portfolio: portfolio, coinID: trade.coinID, after: key)
      } catch let error as OversellError where error.tradeID == id {
        // The new trade is rolled back, so its id means nothing to the user.
        throw error.withoutTradeID
      }
      return trade
    }
  }

  /// Changes fields of trade `id`; returns the trade as stored afterwards.
  ///
  /// A new coin moves the trade from one position to another: both are recomputed, and the
  /// change is refused (nothing written) if either would oversell. `note` receives what the
  /// user should know about the coin chosen (a symbol of several coins).
  public func edit(
    id: Int64, _ changes: TradeChanges, in portfolio: Portfolio, now: Date,
    note: (String) -> Void = { _ in }
  ) throws -> Trade {
    guard !changes.isEmpty else { throw TradeError.nothingToChange }
    let directory = CoinDirectory(store)
    // Checked before the write, so a refused coin takes no lock; added inside it.
    let coin = try changes.coin.map {
      try directory.resolve($0, unknown: changes.newCoin ? .accept : .refuse)
    }
    return try db.write {
      let portfolio = try Portfolio.current(portfolio, db)
      // Resolved inside the transaction: a location deleted meanwhile is not found (66).
      let locationID = try changes.location.map { try LocationBook(store).locationID(for: $0) }
      let old = try find(id, in: portfolio)
      var trade = old
      if let quantity = changes.quantity { trade.quantity = try TradeInput.quantity(quantity) }
      if let price = changes.price { trade.price = try TradeInput.amount(price, field: "price") }
      if let fee = changes.fee { trade.fee = try TradeInput.amount(fee, field: "fee") }
      if let date = changes.date {
        let latest = TradeInput.latestDate(now: now, allowFuture: changes.allowFuture)
        trade.executedAt = try TradeInput.date(date, latest: latest).description
      }
      if let note = changes.note { trade.note = try TradeInput.note(note) }
      if let locationID { trade.locationID = locationID }
      if changes.removeLocation { trade.locationID = nil }
      if let text = changes.coin, changes.newCoin {
        trade.coinID = try directory.resolve(text, unknown: .add).id
      } else if let coin {
        trade.coinID = coin.id
      }
      try Self.checkEditable(old, trade)
      let ledger = try Ledger(db)
      let start = min(old.key, trade.key)
      try ledger.change(portfolio: portfolio, coinID: old.coinID, from: start) {
        try trade.update(db)
      }
      try ledger.settleTransfers(portfolio: portfolio, coinID: old.coinID, after: start)
      if trade.coinID != old.coinID {
        let key = TradeKey(executedAt: trade.executedAt, id: 0)
        try ledger.recompute(portfolio: portfolio, coinID: trade.coinID, from: key)
        try ledger.settleTransfers(portfolio: portfolio, coinID: trade.coinID, after: key)
      }
      if let text = coin?.note { note(text) }
      return trade
    }
  }

  /// Moves every trade of coin `from` (as stored, such as `btc` recorded before the coin
  /// directory) to the coin `into` names (an id or symbol of the directory; with `newCoin`, an
  /// id it does not know, which is added), in `portfolio` or, when nil, in every portfolio,
  /// and recomputes both positions of each, in one transaction: if any position would
  /// oversell, nothing is written.
  public func mergeCoin(
    from: String, into: String, portfolio: Portfolio?, newCoin: Bool = false,
    note: (String) -> Void = { _ in }
  ) throws -> CoinMerge {
    let source = from.trimmingCharacters(in: .whitespaces).lowercased()
    guard TradeInput.isCoinID(source) else { throw CoinError.invalid(from) }
    let directory = CoinDirectory(store)
    var target = try directory.resolve(into, unknown: newCoin ? .accept : .refuse)
    guard target.id != source else { throw TradeError.sameCoin(source) }
    return try db.write {
      if newCoin { target = try directory.resolve(into, unknown: .add) }
      let ledger = try Ledger(db)
      let holders = try Trade.portfolioIDs(coinID: source, db)
      let portfolios =
        try portfolio.map { [try Portfolio.current($0, db)] }
        ?? Portfolio.all(db).filter { holders.contains($0.id) }
      var moved: [CoinMerge.Moved] = []
      let links = try portfolios.flatMap {
        try Trade.transferLinks(portfolioID: $0.id, coinID: source, db)
      }
      for portfolio in portfolios {
        guard let first = try Trade.earliest(portfolioID: portfolio.id, coinID: source, db)
        else { continue }
        var count = 0
        try ledger.change(portfolio: portfolio, coinID: source, from: nil) {
          count = try Trade.moveCoin(portfolioID: portfolio.id, from: source, to: target.id, db)
        }
        try ledger.recompute(
          portfolio: portfolio, coinID: target.id,
          from: TradeKey(executedAt: first.executedAt, id: 0))
        moved.append(CoinMerge.Moved(portfolio: portfolio.name, trades: count))
      }
      guard !moved.isEmpty else {
        throw TradeError.noTradesOfCoin(source, portfolio: portfolio?.name)
      }
      moved += try moveTransferPartners(
        links: links, from: source, into: target.id, ledger: ledger)
      // The lots a transfer out draws on may have changed: its arriving pieces follow them.
      for name in Set(moved.map(\.portfolio)) {
        guard let owner = try Portfolio.named(name, db),
          let first = try Trade.earliest(portfolioID: owner.id, coinID: target.id, db)
        else { continue }
        try ledger.settleTransfers(
          portfolio: owner, coinID: target.id,
          after: TradeKey(executedAt: first.executedAt, id: 0))
      }
      if let text = target.note { note(text) }
      return CoinMerge(from: source, into: target.id, moved: moved, added: target.added)
    }
  }

  /// The rows of the transfers `links` that still name `source` after a merge moved the rest
  /// (in the portfolios it left out) move to `target` too, so every row of a transfer names one
  /// coin: both positions are booked again from the earliest moved row. Returns what moved, by
  /// portfolio.
  private func moveTransferPartners(
    links: [Int64], from source: String, into target: String, ledger: Ledger
  ) throws -> [CoinMerge.Moved] {
    var rows: [Int64: [Trade]] = [:]
    for link in Set(links) {
      for row in try Trade.linked(link, db) where row.coinID == source {
        rows[row.portfolioID, default: []].append(row)
      }
    }
    var moved: [CoinMerge.Moved] = []
    for (portfolioID, group) in rows.sorted(by: { $0.key < $1.key }) {
      guard let portfolio = try Portfolio.find(id: portfolioID, db),
        let first = group.map(\.key).min()
      else { continue }
      let start = TradeKey(executedAt: first.executedAt, id: 0)
      try ledger.change(portfolio: portfolio, coinID: source, from: start) {
        for row in group { try Trade.moveCoin(id: row.id, to: target, db) }
      }
      try ledger.recompute(portfolio: portfolio, coinID: target, from: start)
      moved.append(CoinMerge.Moved(portfolio: portfolio.name, trades: group.count))
    }
    return moved
  }

  /// Deletes trade `id`; returns what was deleted. A row of a transfer or a swap goes with
  /// the other rows of it (`deletedWith` receives them), in whichever portfolio they are.
  public func delete(
    id: Int64, in portfolio: Portfolio, deletedWith: ([Trade]) -> Void = { _ in }
  ) throws -> Trade {
    try db.write {
      let portfolio = try Portfolio.current(portfolio, db)
      let trade = try find(id, in: portfolio)
      let group = try trade.linkID.map { try Trade.linked($0, db) } ?? [trade]
      let ledger = try Ledger(db)
      // One change per position the rows are in, from its earliest row.
      var positions: [PositionID: TradeKey] = [:]
      for row in group {
        let position = PositionID(portfolioID: row.portfolioID, coinID: row.coinID)
        positions[position] = min(positions[position] ?? row.key, row.key)
      }
      for (position, key) in positions.sorted(by: { $0.value < $1.value }) {
        guard let owner = try Portfolio.find(id: position.portfolioID, db) else { continue }
        try ledger.change(portfolio: owner, coinID: position.coinID, from: key) {
          for row in group
          where row.portfolioID == position.portfolioID
            && row.coinID == position.coinID
          {
            try Trade.delete(id: row.id, db)
          }
        }
        try ledger.settleTransfers(portfolio: owner, coinID: position.coinID, after: key)
      }
      deletedWith(group.filter { $0.id != trade.id })
      return trade
    }
  }

  /// Refuses an edit of `old` into `new` that its kind cannot take: the rows of a transfer or a
  /// swap follow from one another, so only their note and location change; a deposit's or a
  /// withdrawal's price and fee mean nothing.
  static func checkEditable(_ old: Trade, _ new: Trade) throws {
    var fields: [String] = []
    switch old.kind {
    case .trade, .income:
      return
    case .transfer, .swap:
      if old.quantity != new.quantity { fields.append("--quantity") }
      if old.price != new.price { fields.append("--price") }
      if old.fee != new.fee { fields.append("--fee") }
      if old.executedAt != new.executedAt { fields.append("--date") }
      if old.coinID != new.coinID { fields.append("--coin") }
    case .deposit, .withdrawal:
      if old.price != new.price { fields.append("--price") }
      if old.fee != new.fee { fields.append("--fee") }
      if let acquired = old.acquiredAt, acquired > new.executedAt { fields.append("--date") }
    }
    guard fields.isEmpty else {
      throw TransactionError.notEditable(
        old.id, kind: old.kind, fields: fields.joined(separator: ", "))
    }
  }

  /// Trade `id` of the portfolio, or `TradeError.notFound`.
  public func find(_ id: Int64, in portfolio: Portfolio) throws -> Trade {
    guard let trade = try Trade.find(id: id, portfolioID: portfolio.id, db) else {
      throw TradeError.notFound(id, portfolio: portfolio.name)
    }
    return trade
  }

  /// Trade `id` with its realized result or lot.
  public func detail(_ id: Int64, in portfolio: Portfolio) throws -> TradeDetail {
    try db.read {
      let trade = try find(id, in: portfolio)
      let derived = try DerivedTables(db)
      let disposal = trade.side == .sell ? try derived.disposal(tradeID: id) : nil
      return TradeDetail(
        trade: trade, disposal: disposal,
        consumptions: trade.side == .sell ? try derived.consumptions(sellTradeID: id) : [],
        lot: trade.side == .buy ? try derived.lot(tradeID: id) : nil,
        location: try trade.locationID.flatMap { try Location.find(id: $0, db) })
    }
  }

  /// The filter `query` means: its coin and location resolved, its dates parsed. An unknown
  /// coin or location, or a date that is not one, is refused (65).
  public func filter(_ query: TradeQuery) throws -> Trade.Filter {
    var filter = Trade.Filter(side: query.side, limit: query.limit)
    filter.last = query.last
    filter.coinID = try query.coin.map { try CoinDirectory(store).resolve($0, unknown: .accept).id }
    filter.since = try query.since.map { try TradeInput.date($0, field: "--since") }
    if let until = query.until {
      let time = try TradeInput.date(until, field: "--until")
      // A bare date includes that whole day; a time is an exact (inclusive) bound.
      filter.through = CalendarDay(until)?.end ?? time
    }
    if let since = query.since, let until = query.until, let from = filter.since,
      let through = filter.through, through < from
    {
      throw TradeError.emptyRange(since: since, until: until)
    }
    filter.locationID = try query.location.map { try LocationBook(store).locationID(for: $0) }
    return filter
  }

  /// Streams the portfolio's trades matching `filter`, oldest first, in one read snapshot.
  public func eachTrade(
    in portfolios: [Portfolio], filter: Trade.Filter, _ body: (Trade) throws -> Void
  ) throws {
    try db.read { try Trade.each(portfolioIDs: portfolios.map(\.id), filter: filter, db, body) }
  }

  /// Runs `body` in one read snapshot: a listing that reads the trades twice (measuring a
  /// table, then writing it) sees the same rows both times.
  public func inOneSnapshot<T>(_ body: () throws -> T) throws -> T { try db.read(body) }
}
