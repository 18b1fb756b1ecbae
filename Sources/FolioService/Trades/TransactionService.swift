import FolioStorage
import Foundation

/// Why a transfer, a swap, income, a deposit or a withdrawal was refused.
public enum TransactionError: LocalizedError, ClassifiedError, Equatable {
  /// A transfer from a portfolio to itself.
  case samePortfolio(String)
  /// A transfer between portfolios of different currencies.
  case currencies(from: String, fromCurrency: String, to: String, toCurrency: String)
  /// A transfer's or a swap's fee as large as the quantity it is paid out of: nothing would
  /// arrive, or be left of what was received.
  case feeTooLarge(fee: ExactDecimal, quantity: ExactDecimal)
  /// A swap of a coin for itself.
  case sameCoin(String)
  /// A swap fee in a coin the swap does not move.
  case feeCoin(String, give: String, get: String)
  /// No value for a swap: neither --value nor a cached quote near its time.
  case noSwapValue(give: String, get: String, currency: String, at: String, maxAge: String)
  /// A deposit whose units were acquired after it.
  case acquiredLater(acquired: String, date: String)
  /// A change `tx edit` cannot make to a row of this kind.
  case notEditable(Int64, kind: TradeKind, fields: String)

  public var kind: FailureKind { .badData }

  public var errorDescription: String? {
    switch self {
    case .samePortfolio(let name):
      return "--from and --to both name portfolio '\(name)'; a transfer moves coins between two"
    case .currencies(let from, let fromCurrency, let to, let toCurrency):
      return "portfolio '\(from)' counts in \(fromCurrency) and '\(to)' in \(toCurrency); "
        + "a transfer keeps the cost basis, so both must use the same currency"
    case .feeTooLarge(let fee, let quantity):
      return "--fee: the fee \(fee) must be less than the quantity \(quantity) it is paid out of"
    case .sameCoin(let coin):
      return "a swap gives one coin for another; both sides name '\(coin)'"
    case .feeCoin(let coin, let give, let get):
      return "--fee: the fee must be in \(give) or \(get), the coins swapped, not '\(coin)' "
        + "(record a fee in another coin with 'folio withdraw')"
    case .noSwapValue(let give, let get, let currency, let at, let maxAge):
      return "no value for the swap: give --value, or cache a \(currency) quote of \(give) or "
        + "\(get) within \(maxAge) of \(at) ('folio market refresh' or 'folio market import')"
    case .acquiredLater(let acquired, let date):
      return "--acquired \(acquired) is after the deposit's date \(date)"
    case .notEditable(let id, let kind, let fields):
      return "trade #\(id) is a \(kind.rawValue); \(fields) cannot change on it (delete it with "
        + "'folio tx delete \(id)' and record it again)"
    }
  }
}

/// What the user typed for a transaction, before validation: the fields every kind shares.
public struct TransactionDraft: Sendable {
  /// `YYYY-MM-DD` or ISO-8601 with offset; nil means now.
  public var date: String?
  public var note: String?
  public var externalID: String?
  public var allowFuture = false

  public init(date: String? = nil, note: String? = nil, externalID: String? = nil) {
    (self.date, self.note, self.externalID) = (date, note, externalID)
  }
}

/// Recording the kinds of transaction besides buys and sells for cash (docs/trades.md):
/// income, deposits, withdrawals, transfers between portfolios and swaps. Each runs in one
/// write transaction; a row that would take a position below zero is refused and nothing is
/// written.
public struct TransactionService {
  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// `folio income`: `quantity` of `coin` received at `price` per unit (its market value then).
  public func income(
    coin: String, quantity: String, price: String, type: IncomeType, _ draft: TransactionDraft,
    in portfolio: Portfolio, now: Date
  ) throws -> Trade {
    try record(.income, coin: coin, quantity: quantity, draft, in: portfolio, now: now) { row in
      row.incomeType = type
      row.price = try TradeInput.amount(price, field: "--price")
    }
  }

  /// `folio deposit`: `quantity` of `coin` entering at a total cost `cost`, acquired at
  /// `acquired` (nil: the deposit's own time).
  public func deposit(
    coin: String, quantity: String, cost: String, acquired: String?, _ draft: TransactionDraft,
    in portfolio: Portfolio, now: Date
  ) throws -> Trade {
    try record(.deposit, coin: coin, quantity: quantity, draft, in: portfolio, now: now) { row in
      row.amount = try TradeInput.amount(cost, field: "--cost")
      if let acquired {
        let time = try TradeInput.date(acquired, field: "--acquired").description
        guard time <= row.executedAt else {
          throw TransactionError.acquiredLater(acquired: time, date: row.executedAt)
        }
        row.acquiredAt = time
      }
    }
  }

  /// `folio withdraw`: `quantity` of `coin` leaving without a sale.
  public func withdraw(
    coin: String, quantity: String, _ draft: TransactionDraft, in portfolio: Portfolio, now: Date
  ) throws -> Trade {
    try record(.withdrawal, coin: coin, quantity: quantity, draft, in: portfolio, now: now) { _ in }
  }

  /// Records one row of `kind` (income, a deposit or a withdrawal; only a withdrawal gives
  /// units up): resolves the coin, then, in one write transaction, re-reads the portfolio,
  /// builds the row with the fields every kind shares and `quantity`, lets `fill` set the
  /// kind's own fields, and books it.
  private func record(
    _ kind: TradeKind, coin: String, quantity: String,
    _ draft: TransactionDraft, in portfolio: Portfolio, now: Date,
    _ fill: (inout Trade) throws -> Void
  ) throws -> Trade {
    let coinID = try resolve(coin)
    return try db.write {
      let portfolio = try Portfolio.current(portfolio, db)
      var row = try base(
        draft, portfolio: portfolio, coinID: coinID, side: kind == .withdrawal ? .sell : .buy,
        now: now)
      row.kind = kind
      row.quantity = try TradeInput.quantity(quantity)
      try fill(&row)
      return try book([row]).first ?? row
    }
  }

  /// `folio transfer`: `quantity` of `coin` leaves `source`; `quantity − fee` arrives in
  /// `target`, as one row per lot piece that moved, each keeping its acquisition time and cost
  /// basis (the fee's units are taken from the last acquired pieces, and their basis stays with
  /// the last piece that arrives). Returns the rows, the one leaving `source` first.
  public func transfer(
    coin: String, quantity: String, fee: String?, from source: Portfolio, to target: Portfolio,
    _ draft: TransactionDraft, now: Date
  ) throws -> [Trade] {
    let coinID = try resolve(coin)
    return try db.write {
      let source = try Portfolio.current(source, db)
      let target = try Portfolio.current(target, db)
      guard source.id != target.id else { throw TransactionError.samePortfolio(source.name) }
      guard source.currency == target.currency else {
        throw TransactionError.currencies(
          from: source.name, fromCurrency: source.currency, to: target.name,
          toCurrency: target.currency)
      }
      var out = try base(draft, portfolio: source, coinID: coinID, side: .sell, now: now)
      out.kind = .transfer
      out.quantity = try TradeInput.quantity(quantity)
      out.fee = try TradeInput.amount(fee ?? "0", field: "--fee")
      guard out.fee < out.quantity else {
        throw TransactionError.feeTooLarge(fee: out.fee, quantity: out.quantity)
      }
      let written = try book([out])
      guard let sent = written.first else { return written }
      let ledger = try Ledger(db)
      let arrived = try ledger.writeTransferPieces(of: sent, into: target)
      try ledger.settleTransfers(portfolio: target, coinID: coinID, after: sent.key)
      return written + arrived
    }
  }

  /// `folio swap`: `giveQuantity` of `give` for `getQuantity` of `get`, at `value` in the
  /// portfolio's currency or, without it, at the cached quote of either coin nearest the swap's
  /// time, within `maxAge` seconds. A fee is in one of the two coins, `feeCoin`; the quantities
  /// are what left and what arrived, so the fee is recorded but moves nothing more. Returns the
  /// two rows, the one giving `give` up first.
  public func swap(
    give: String, giveQuantity: String, get: String, getQuantity: String, value: String?,
    fee: String?, feeCoin: String?, maxAge: Int64, _ draft: TransactionDraft,
    in portfolio: Portfolio, now: Date
  ) throws -> [Trade] {
    let giveID = try resolve(give)
    let getID = try resolve(get)
    guard giveID != getID else { throw TransactionError.sameCoin(giveID) }
    let feeID = try feeCoin.map { try resolve($0) }
    if let feeID, feeID != giveID, feeID != getID {
      throw TransactionError.feeCoin(feeID, give: giveID, get: getID)
    }
    return try db.write {
      let portfolio = try Portfolio.current(portfolio, db)
      var out = try base(draft, portfolio: portfolio, coinID: giveID, side: .sell, now: now)
      out.kind = .swap
      out.quantity = try TradeInput.quantity(giveQuantity)
      var into = out
      into.side = .buy
      into.coinID = getID
      into.externalID = nil
      into.quantity = try TradeInput.quantity(getQuantity)
      let feeAmount = try TradeInput.amount(fee ?? "0", field: "--fee")
      if feeID == getID { into.fee = feeAmount } else { out.fee = feeAmount }
      let paidOutOf = feeID == getID ? into.quantity : out.quantity
      guard feeAmount < paidOutOf else {
        throw TransactionError.feeTooLarge(fee: feeAmount, quantity: paidOutOf)
      }
      let total =
        try value.map { try TradeInput.amount($0, field: "--value") }
        ?? quotedValue(out, into, currency: portfolio.currency, maxAge: maxAge)
      guard total.isPositive else {
        throw TradeInputError(
          field: "--value",
          reason: "must be greater than zero, got '\(value ?? "0")' (a swap gives one coin for "
            + "another of the same value; record a gift with 'folio withdraw' and 'folio income')")
      }
      out.amount = total
      into.amount = total
      out.price = try ExactDecimal.scaled(total, by: .one, dividedBy: out.quantity)
      into.price = try ExactDecimal.scaled(total, by: .one, dividedBy: into.quantity)
      return try book([out, into])
    }
  }

  /// The value of a swap from the cached quote of either coin nearest its time.
  private func quotedValue(_ out: Trade, _ into: Trade, currency: String, maxAge: Int64) throws
    -> ExactDecimal
  {
    let quotes = try [out, into].compactMap { row in
      try MarketRecords.nearestPrice(
        db, coinID: row.coinID, vsCurrency: currency, time: row.executedAt, maxSeconds: maxAge
      ).map { (row, $0) }
    }
    // The nearer quote; of two as near, the disposed coin's.
    guard let (row, quote) = quotes.min(by: { $0.1.distance < $1.1.distance }) else {
      throw TransactionError.noSwapValue(
        give: out.coinID, get: into.coinID, currency: currency, at: out.executedAt,
        maxAge: MarketTime.formatDuration(TimeInterval(maxAge)))
    }
    return try row.quantity * quote.price
  }

  /// A coin the directory knows (an id or a symbol).
  private func resolve(_ text: String) throws -> String {
    try CoinDirectory(store).resolve(text, unknown: .refuse).id
  }

  /// A row with the fields every kind shares, not yet stored.
  private func base(
    _ draft: TransactionDraft, portfolio: Portfolio, coinID: String, side: TradeSide, now: Date
  ) throws -> Trade {
    let stamp = Timestamp.format(now)
    let latest = TradeInput.latestDate(now: now, allowFuture: draft.allowFuture)
    return Trade(
      portfolioID: portfolio.id,
      executedAt: try draft.date.map { try TradeInput.date($0, latest: latest).description }
        ?? stamp,
      side: side, coinID: coinID, quantity: .one, price: .zero,
      note: try TradeInput.note(draft.note),
      externalID: try TradeInput.externalID(draft.externalID), createdAt: stamp)
  }

  /// Inserts `rows` (of one portfolio; the first gives units up when they are linked), links
  /// them, and books each position they touch; returns them with their ids.
  private func book(_ rows: [Trade]) throws -> [Trade] {
    var written: [Trade] = []
    let linked = rows.count > 1 || rows.first?.kind == .transfer
    for var row in rows {
      if linked { row.linkID = written.first?.id }
      guard let id = try row.insert(db) else {
        throw TradeError.duplicateExternalID(row.externalID ?? "")
      }
      row.id = id
      if linked && written.isEmpty {
        try Trade.linkToItself(id: id, db)
        row.linkID = id
      }
      written.append(row)
    }
    let ledger = try Ledger(db)
    for row in written {
      guard let portfolio = try Portfolio.find(id: row.portfolioID, db) else { continue }
      do {
        try ledger.recompute(
          portfolio: portfolio, coinID: row.coinID,
          from: TradeKey(executedAt: row.executedAt, id: 0))
        try ledger.settleTransfers(portfolio: portfolio, coinID: row.coinID, after: row.key)
      } catch let error as OversellError where written.contains(where: { $0.id == error.tradeID }) {
        // The new rows are rolled back, so their ids mean nothing to the user.
        throw error.withoutTradeID
      }
    }
    return written
  }
}
