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

/// The capital gains of a portfolio over a range of days.
public struct GainsReport: Equatable, Sendable {
  public let portfolios: [Portfolio]
  public let currency: String
  public let method: CostMethod
  /// Inclusive `YYYY-MM-DD` bounds of the disposal dates.
  public let since: String
  public let until: String
  public let longTermDays: Int
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
  /// `since` through `until` (inclusive days). A piece is long-term when it was held more than
  /// `longTermDays` days (disposal day − acquisition day > longTermDays).
  public func gains(
    _ portfolios: [Portfolio], since: CalendarDay, until: CalendarDay, method: CostMethod?,
    longTermDays: Int
  ) throws -> GainsReport {
    if since > until {
      throw ReportError.emptyRange(since: since.description, until: until.description)
    }
    if Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    let method = method ?? portfolios.first?.method ?? .fifo
    var rows: [GainRow] = []
    var income: [IncomeRow] = []
    try store.database.read {
      for portfolio in portfolios {
        try collect(portfolio, method: method, until: until, into: &rows, income: &income)
      }
    }
    let from = since.description
    let through = until.description
    rows = rows.filter { $0.disposed >= from && $0.disposed <= through }
    income = income.filter { $0.received >= from && $0.received <= through }
    income.sort { ($0.received, $0.tradeID) < ($1.received, $1.tradeID) }
    var incomeTotal = ExactDecimal.zero
    for row in income { incomeTotal = try incomeTotal + row.value }
    rows = rows.map { row in
      guard let acquired = CalendarDay(row.acquired), let disposed = CalendarDay(row.disposed)
      else { return row }
      return GainRow(
        portfolio: row.portfolio, coinID: row.coinID, quantity: row.quantity,
        acquired: row.acquired,
        disposed: row.disposed, proceeds: row.proceeds, costBasis: row.costBasis, gain: row.gain,
        longTerm: disposed.ordinal - acquired.ordinal > Int64(longTermDays), tradeID: row.tradeID)
    }
    rows.sort { ($0.disposed, $0.tradeID) < ($1.disposed, $1.tradeID) }
    var short = GainTotals()
    var long = GainTotals()
    var total = GainTotals()
    for row in rows {
      if row.longTerm { try long.add(row) } else { try short.add(row) }
      try total.add(row)
    }
    return GainsReport(
      portfolios: portfolios, currency: portfolios.first?.currency ?? "usd", method: method,
      since: from, until: through, longTermDays: longTermDays, rows: rows, shortTerm: short,
      longTerm: long, total: total, income: income, incomeTotal: incomeTotal)
  }

  /// Books every trade of `portfolio` up to the end of `until` with `method` and adds a row
  /// for each lot piece each disposal took (a sell for cash, or the coin a swap gave up; a
  /// transfer out or a withdrawal realizes nothing and is no disposal), and one per income.
  /// A lot is acquired when its units first were: a transferred piece or a deposit keeps the
  /// date it carries.
  func collect(
    _ portfolio: Portfolio, method: CostMethod, until: CalendarDay, into rows: inout [GainRow],
    income: inout [IncomeRow]
  ) throws {
    var books: [String: PositionBook] = [:]
    var acquired: [Int64: String] = [:]
    try Trade.each(
      portfolioID: portfolio.id, filter: Trade.Filter(before: until.next.start), store.database
    ) { trade in
      switch trade.side {
      case .buy:
        let lot = try books[trade.coinID, default: PositionBook(method: method)].buy(trade)
        acquired[trade.id] = String(lot.acquiredAt.prefix(10))
        if trade.kind == .income {
          income.append(
            IncomeRow(
              portfolio: portfolio.name, coinID: trade.coinID, quantity: trade.quantity,
              received: String(trade.executedAt.prefix(10)), type: trade.incomeType ?? .other,
              price: trade.price, value: try trade.quantity * trade.price, tradeID: trade.id))
        }
      case .sell:
        let result = try books[trade.coinID, default: PositionBook(method: method)].sell(trade)
        guard trade.kind == .trade || trade.kind == .swap else { return }
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
          rows.append(
            GainRow(
              portfolio: portfolio.name, coinID: trade.coinID, quantity: piece.quantity,
              acquired: acquired[piece.lotTradeID] ?? "",
              disposed: String(
                trade.executedAt.prefix(10)), proceeds: part, costBasis: piece.cost,
              gain: try part - piece.cost, longTerm: false, tradeID: trade.id))
        }
      }
    }
  }
}
