import FolioStorage
import Foundation

/// One piece of a lot disposed of: the part of one lot one sell took.
public struct GainRow: Equatable, Sendable {
  /// The portfolio's name.
  public let portfolio: String
  public let coinID: String
  public let quantity: ExactDecimal
  /// `YYYY-MM-DD` (UTC) of the buy that opened the lot, and of the sell.
  public let acquired: String
  public let disposed: String
  /// The sell's proceeds (quantity × price − fee) shared by the quantity of each piece.
  public let proceeds: ExactDecimal
  public let costBasis: ExactDecimal
  /// proceeds − cost basis.
  public let gain: ExactDecimal
  public let longTerm: Bool
  /// The sell it belongs to.
  public let tradeID: Int64
}

/// Units received as income (staking, interest…), at their value when received.
public struct IncomeRow: Equatable, Sendable {
  /// The portfolio's name.
  public let portfolio: String
  public let coinID: String
  public let quantity: ExactDecimal
  /// `YYYY-MM-DD` (UTC) of the income row.
  public let received: String
  public let type: IncomeType
  /// The market price per unit recorded with it, and quantity × price.
  public let price: ExactDecimal
  public let value: ExactDecimal
  public let tradeID: Int64
}

/// The sum of some rows' proceeds, cost basis and gain.
public struct GainTotals: Equatable, Sendable {
  public var proceeds = ExactDecimal.zero
  public var costBasis = ExactDecimal.zero
  public var gain = ExactDecimal.zero

  mutating func add(_ row: GainRow) throws(DecimalError) {
    proceeds = try proceeds + row.proceeds
    costBasis = try costBasis + row.costBasis
    gain = try gain + row.gain
  }
}

/// When a disposed piece counts as long term.
public enum LongTermRule: Equatable, Sendable {
  /// Held more than one year, counted by calendar date: a lot acquired on 2023-03-01 is long
  /// term when disposed of on 2024-03-02 or later (the usual rule, as in the US).
  case moreThanOneYear
  /// Held more than this many days (disposal day − acquisition day > days), for a
  /// jurisdiction that counts days.
  case moreThanDays(Int)

  /// Whether a piece acquired on `acquired` and disposed of on `disposed` is long term.
  public func isLongTerm(acquired: CalendarDay, disposed: CalendarDay) -> Bool {
    switch self {
    case .moreThanOneYear: disposed > acquired.adding(years: 1)
    case .moreThanDays(let days): disposed.ordinal - acquired.ordinal > Int64(days)
    }
  }
}

/// The capital gains of a portfolio over a range of days.
public struct GainsReport: Equatable, Sendable {
  public let portfolios: [Portfolio]
  public let currency: String
  public let method: MethodInUse
  /// Inclusive `YYYY-MM-DD` bounds of the disposal dates.
  public let since: String
  public let until: String
  public let longTermRule: LongTermRule
  /// Oldest disposal first; within a sell, in the order its lots were taken.
  public let rows: [GainRow]
  public let shortTerm: GainTotals
  public let longTerm: GainTotals
  public let total: GainTotals
  /// The income received in the range, oldest first, and the sum of its values.
  public let income: [IncomeRow]
  public let incomeTotal: ExactDecimal
}

/// `folio gains`: one row per disposed lot piece, by any cost-basis method, computed from the
/// trades in memory (the stored lots are not touched).
public struct GainsService {
  let store: Store
  public init(_ store: Store) { self.store = store }

  /// The gains of `portfolios` (one, or several of the same currency) from the disposals made
  /// `since` through `until` (inclusive days). A piece is long term by `longTermRule`.
  public func gains(
    _ portfolios: [Portfolio], since: CalendarDay, until: CalendarDay, method: CostMethod?,
    longTermRule: LongTermRule = .moreThanOneYear
  ) throws -> GainsReport {
    if since > until {
      throw ReportError.emptyRange(since: since.description, until: until.description)
    }
    if Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    let methods = MethodInUse(portfolios, method: method)
    var rows: [GainRow] = []
    var income: [IncomeRow] = []
    let window = Window(since: since, until: until, longTermRule: longTermRule)
    try store.database.read {
      for portfolio in portfolios {
        try collect(
          portfolio, method: methods.method(for: portfolio), window, into: &rows, income: &income)
      }
    }
    income.sort {
      ($0.received, $0.portfolio, $0.coinID, $0.tradeID)
        < ($1.received, $1.portfolio, $1.coinID, $1.tradeID)
    }
    var incomeTotal = ExactDecimal.zero
    for row in income { incomeTotal = try incomeTotal + row.value }
    // By day, then portfolio and coin, so the same trades typed in another order list the
    // same rows; a sell's pieces stay in the order its lots were taken (the sort is stable).
    rows.sort {
      ($0.disposed, $0.portfolio, $0.coinID, $0.tradeID)
        < ($1.disposed, $1.portfolio, $1.coinID, $1.tradeID)
    }
    var short = GainTotals()
    var long = GainTotals()
    var total = GainTotals()
    for row in rows {
      if row.longTerm { try long.add(row) } else { try short.add(row) }
      try total.add(row)
    }
    return GainsReport(
      portfolios: portfolios, currency: portfolios.first?.currency ?? "usd", method: methods,
      since: window.from, until: window.through, longTermRule: longTermRule, rows: rows,
      shortTerm: short, longTerm: long, total: total, income: income, incomeTotal: incomeTotal)
  }

  /// The days of the disposals and income a report lists, and what is long term.
  struct Window {
    let from: String
    let through: String
    let end: CalendarDay
    let longTermRule: LongTermRule

    init(since: CalendarDay, until: CalendarDay, longTermRule: LongTermRule) {
      from = since.description
      through = until.description
      end = until
      self.longTermRule = longTermRule
    }

    func contains(_ day: String) -> Bool { day >= from && day <= through }

    func longTerm(acquired: String, disposed: String) -> Bool {
      guard let acquired = CalendarDay(acquired), let disposed = CalendarDay(disposed) else {
        return false
      }
      return longTermRule.isLongTerm(acquired: acquired, disposed: disposed)
    }
  }

  /// Books every trade of `portfolio` up to the end of the range with `method` and adds a row
  /// for each lot piece each disposal in the range took (a sell for cash, or the coin a swap
  /// gave up; a transfer out or a withdrawal realizes nothing and is no disposal), and one per
  /// income in the range. A lot is acquired when its units first were: a transferred piece or
  /// a deposit keeps the date it carries.
  func collect(
    _ portfolio: Portfolio, method: CostMethod, _ window: Window, into rows: inout [GainRow],
    income: inout [IncomeRow]
  ) throws {
    var books: [String: PositionBook] = [:]
    var acquired: [Int64: String] = [:]
    // Through the last second of the range's last day (the start of the next day, in year
    // 10000, would sort before every stored time as text).
    var filter = Trade.Filter()
    filter.through = window.end.next.start.adding(seconds: -1)
    // Reading the trades costs about as much as booking them: they run on two threads. Every
    // column is read, for the income type (adding it to the booking columns cost every other
    // replay 4 %).
    try Trade.each(
      portfolioID: portfolio.id, filter: filter, readingAhead: true, store.database
    ) { trade in
      let day = DaySums.day(of: trade.executedAt)
      switch trade.side {
      case .buy:
        let lot = try books[trade.coinID, default: PositionBook(method: method)].buy(trade)
        acquired[trade.id] = DaySums.day(of: lot.acquiredAt)
        if trade.kind == .income && window.contains(day) {
          income.append(
            IncomeRow(
              portfolio: portfolio.name, coinID: trade.coinID, quantity: trade.quantity,
              received: day, type: trade.incomeType ?? .other, price: trade.price,
              value: try trade.quantity * trade.price, tradeID: trade.id))
        }
      case .sell:
        let result = try books[trade.coinID, default: PositionBook(method: method)].sell(trade)
        // A lot the sell emptied is never taken from again: only the open lots' days are kept,
        // so the memory follows the lots held, not the length of the history.
        defer { for closed in result.closedLots { acquired[closed.lot.tradeID] = nil } }
        guard trade.kind == .trade || trade.kind == .swap, window.contains(day) else { return }
        let proceeds = result.disposal.proceeds
        var shared = ExactDecimal.zero
        for (index, piece) in result.consumptions.enumerated() {
          // The proceeds shared by quantity; the last piece takes what is left, so the
          // pieces add up to the sell's proceeds exactly.
          let part =
            index == result.consumptions.count - 1
            ? try proceeds - shared
            : try ExactDecimal.scaled(proceeds, by: piece.quantity, dividedBy: trade.quantity)
          shared = try shared + part
          let bought = acquired[piece.lotTradeID] ?? ""
          rows.append(
            GainRow(
              portfolio: portfolio.name, coinID: trade.coinID, quantity: piece.quantity,
              acquired: bought, disposed: day, proceeds: part, costBasis: piece.cost,
              gain: try part - piece.cost,
              longTerm: window.longTerm(acquired: bought, disposed: day), tradeID: trade.id))
        }
      }
    }
  }
}
