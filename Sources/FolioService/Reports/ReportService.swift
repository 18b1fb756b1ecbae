import FolioStorage
import Foundation

/// Why a report, history or backfill was refused.
public enum ReportError: LocalizedError, ClassifiedError, Equatable {
  case futureDay(String, today: String)
  case emptyRange(since: String, until: String)
  case saveWithOtherMethod(method: String, portfolioMethod: String)
  /// `--save` with `--portfolio all`: the history holds each portfolio's own figures.
  case saveCombined
  /// `--save` of a past day on which some held coins have a price within `--max-age` and one
  /// has none there: a value of part of the holdings is no value of the day, so it is not
  /// saved (backfill leaves such a day out too).
  case saveWithoutPrices(day: String, coins: [String], window: String)

  public var kind: FailureKind { .badData }

  public var errorDescription: String? {
    switch self {
    case .futureDay(let day, let today):
      return "\(day) is in the future (today is \(today) in UTC); give a day up to today"
    case .emptyRange(let since, let until):
      return "--since \(since) is after --until \(until); give the earlier day first"
    case .saveWithOtherMethod(let method, let portfolioMethod):
      return "--save stores figures computed with the portfolio's own method "
        + "(\(portfolioMethod)), not \(method); drop --method or change the portfolio's "
        + "method with 'folio portfolio set NAME --method M'"
    case .saveCombined:
      return "--save stores one portfolio's figures, and --portfolio all combines several; "
        + "save each with --portfolio NAME (or let 'folio daily' save them all)"
    case .saveWithoutPrices(let day, let coins, let window):
      return "the value of \(day) is n/a: no market price \(window) for "
        + coins.joined(separator: ", ") + ", so the day is not saved; run 'folio market "
        + "history --since \(day)' for its closing prices, or give a larger --max-age"
    }
  }
}

/// What `report backfill` did.
public struct BackfillOutcome: Equatable, Sendable {
  public let since: String
  public let until: String
  /// The days computed and saved, oldest first.
  public let saved: [String]
  /// Days in the range that were already saved and left as they were (without `--replace`).
  public let alreadySaved: Int
  /// Days that hold coins but have no market snapshot taken within `maxAge` before their end:
  /// not valued, so not saved (a row saved earlier for such a day is kept as it was).
  public let noFreshSnapshot: [String]
  /// Of `noFreshSnapshot`, the days whose saved row was kept.
  public let keptWithoutSnapshot: Int
  /// Days on which some held coins have a price within `maxAge` and others have none: a value
  /// of part of the holdings is no value of the day, so they are n/a and not saved (a row
  /// saved earlier is kept as it was). Oldest first.
  public var partial: [String] = []
  /// The coins without a price on the `partial` days, each with those days, oldest first.
  public var missingCoins: [String: [String]] = [:]
  /// Days (with `--replace`) whose saved value was kept because the recomputed value would
  /// be unknown (no held coin priced): a known value is never replaced by n/a.
  public let keptKnownValue: [String]
  /// The `--max-age` the days were judged with.
  public let maxAge: TimeInterval
}

/// Daily reports, the saved daily history and its backfill.
public struct ReportService {
  let store: Store
  var database: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// The default number of days of the value-over-time series in a report.
  public static let historyDays = 30

  /// The report of `portfolio` as of the end of `day` (UTC): holdings from the trades executed
  /// before the next day, prices from the newest quotes taken before then, computed with
  /// `method` (default: the portfolio's). A day after today is refused (65), and so is
  /// another method than the portfolio's for a report `forSaving`.
  public func report(
    _ portfolio: Portfolio, day: CalendarDay, method: CostMethod? = nil,
    maxAge: TimeInterval = 86_400, now: Date, historyDays: Int = ReportService.historyDays,
    forSaving: Bool = false
  ) throws -> DailyReport {
    if forSaving, let method, method != portfolio.method {
      throw ReportError.saveWithOtherMethod(
        method: method.rawValue, portfolioMethod: portfolio.method.rawValue)
    }
    try Self.checkNotFuture(day, now: now)
    return try database.read {
      try build(
        portfolio, day: day, method: method ?? portfolio.method, maxAge: maxAge, now: now,
        historyDays: max(1, historyDays))
    }
  }

  /// The report of several portfolios of one currency as one (`--portfolio all`), as of the
  /// end of `day`: each coin's quantity, cost basis and profit summed over them, their trades
  /// of the day, the saved history and the returns of their sum (transfers between them net
  /// out). Each portfolio is booked with its own method, or `method` when given. One portfolio is its own
  /// report; different currencies are refused (65), and so is `forSaving` (65).
  public func report(
    _ portfolios: [Portfolio], day: CalendarDay, method: CostMethod? = nil,
    maxAge: TimeInterval = 86_400, now: Date, forSaving: Bool = false
  ) throws -> DailyReport {
    if portfolios.count == 1, let only = portfolios.first {
      return try report(
        only, day: day, method: method, maxAge: maxAge, now: now, forSaving: forSaving)
    }
    if Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    if forSaving { throw ReportError.saveCombined }
    try Self.checkNotFuture(day, now: now)
    let methods = MethodInUse(portfolios, method: method)
    let first = portfolios.first
    let shown = Portfolio(
      id: 0, name: "all", currency: first?.currency ?? "usd",
      method: methods.single ?? first?.method ?? .fifo, createdAt: first?.createdAt ?? "")
    return try database.read {
      try build(
        portfolios, shown: shown, day: day, methods: methods, maxAge: maxAge, now: now,
        historyDays: Self.historyDays)
    }
  }

  /// The reports of `portfolios` as of the end of `day`, each with the portfolio's own method,
  /// computed and saved as the day's rows in ONE write transaction: what is saved follows from
  /// the method, trades and prices of that moment (another command changing a method meanwhile
  /// waits, and cannot make them disagree), and all the rows are saved or none. `method`, when
  /// given, must be each portfolio's own (65 otherwise: the history holds its own figures).
  /// `check` sees each report before anything is saved; what it throws saves nothing.
  public func reportsSaved(
    _ portfolios: [Portfolio], day: CalendarDay, method: CostMethod? = nil,
    maxAge: TimeInterval = 86_400, now: Date, check: (DailyReport) throws -> Void = { _ in }
  ) throws -> [DailyReport] {
    try Self.checkNotFuture(day, now: now)
    return try database.write {
      let reports = try portfolios.map { portfolio in
        let current = try Portfolio.current(portfolio, database)
        if let method, method != current.method {
          throw ReportError.saveWithOtherMethod(
            method: method.rawValue, portfolioMethod: current.method.rawValue)
        }
        return try build(
          current, day: day, method: current.method, maxAge: maxAge, now: now,
          historyDays: Self.historyDays)
      }
      for report in reports { try check(report) }
      try save(reports, now: now)
      return reports
    }
  }

  /// Saves the report's figures as the day's row of the daily history, replacing a row saved
  /// earlier for the same day. Refused (65) for a report computed with another method than
  /// the portfolio's.
  public func save(_ report: DailyReport, now: Date) throws {
    try save([report], now: now)
  }

  /// Saves the figures of every report as its day's row (replacing a row saved earlier for
  /// the same portfolio and day) in ONE write transaction: all the rows are saved or none
  /// (a refusal, an error or a process killed midway leaves the saved history as it was).
  /// Refused (65) when any report was computed with another method than its portfolio's.
  public func save(_ reports: [DailyReport], now: Date) throws {
    for report in reports where report.method != .one(report.portfolio.method) {
      throw ReportError.saveWithOtherMethod(
        method: report.method.single?.rawValue ?? "each portfolio's own",
        portfolioMethod: report.portfolio.method.rawValue)
    }
    for report in reports {
      if let window = report.statistics.priceWindow, !report.statistics.unpriced.isEmpty,
        report.figures.value != nil
      {
        throw ReportError.saveWithoutPrices(
          day: report.day.description, coins: report.statistics.unpriced, window: window)
      }
    }
    try database.write {
      for report in reports {
        // A method changed since the report was computed makes its figures the wrong ones.
        let current = try Portfolio.current(report.portfolio, database)
        guard report.method == .one(current.method) else {
          throw ReportError.saveWithOtherMethod(
            method: report.method.single?.rawValue ?? "each portfolio's own",
            portfolioMethod: current.method.rawValue)
        }
        try record(report.figures, portfolio: current, now: now).save(database)
      }
    }
  }

  /// The saved days of `portfolio` from `since` through `until` (nil bounds are open),
  /// oldest first.
  public func history(_ portfolio: Portfolio, since: CalendarDay?, until: CalendarDay?) throws
    -> [DailyRecord]
  {
    if let since, let until, since > until {
      throw ReportError.emptyRange(since: since.description, until: until.description)
    }
    return try DailyRecord.list(
      portfolioID: portfolio.id, from: since?.description, through: until?.description, database)
  }

  /// The default `--max-age` of a backfill: a day is valued only with a snapshot taken at most
  /// this long before the day's end.
  public static let backfillMaxAge: TimeInterval = 2 * 86_400

  /// Computes and saves every day from `since` through `until` (default: today) that has no
  /// saved row yet (every day with `replace`), each as `report --date DAY --save` would, from
  /// the trades and the snapshots taken within `maxAge` before the end of that day. A day that
  /// holds coins and has no such snapshot is skipped; with `replace`, a saved known value is
  /// never replaced by an unknown one. One transaction.
  public func backfill(
    _ portfolio: Portfolio, since: CalendarDay, until: CalendarDay? = nil, replace: Bool = false,
    maxAge: TimeInterval = ReportService.backfillMaxAge, now: Date
  ) throws -> BackfillOutcome {
    let today = CalendarDay(containing: now)
    let until = until ?? today
    // A --since in the future is named as such, not as a range after a --until not given.
    try Self.checkNotFuture(since, now: now)
    try Self.checkNotFuture(until, now: now)
    guard since <= until else {
      throw ReportError.emptyRange(since: since.description, until: until.description)
    }
    return try database.write {
      try backfillDays(
        portfolio, since: since, until: until, days: replace ? .every : .missing, maxAge: maxAge,
        now: now)
    }
  }

  /// Recomputes every stale saved day (`DailyRecord.staleDays`: a trade dated on or before it,
  /// or its portfolio's method, changed) from the trades and the prices of the day's end that
  /// a backfill would use (within `backfillMaxAge`), or as old as the newest price the day was
  /// saved with. A day that can no longer be valued so (a coin now held that has no such price)
  /// is saved as unknown (value and unrealized profit NULL), never left as it was.
  /// Must run inside a write transaction: the store runs it before every commit.
  ///
  /// A portfolio whose trades cannot be booked any more (a sell edited by hand to oversell,
  /// lots changed by hand) keeps its stale days as they are, for `db check` to name: folio
  /// itself never writes such trades, and refusing every write to the database for them
  /// (another portfolio's buy, a market refresh, the `tx edit` that would fix them) helps no one.
  func refreshStaleDays(now: Date) throws {
    for (portfolioID, days) in try DailyRecord.staleDays(database) {
      guard let portfolio = try Portfolio.find(id: portfolioID, database),
        let first = days.first.flatMap(CalendarDay.init),
        let last = days.last.flatMap(CalendarDay.init)
      else { continue }
      do {
        // A savepoint: what a failing portfolio wrote is undone, the others' is kept.
        let snapshots = try DailyRecord.staleSnapshots(portfolioID: portfolioID, database)
        _ = try database.write {
          try backfillDays(
            portfolio, since: first, until: last,
            days: .stale(Set(days), savedWithPricesFrom: snapshots), now: now)
        }
      } catch is OversellError {
        continue
      } catch is StoredLotsShortError {
        continue
      }
    }
  }

  // MARK: Internals (callers hold a transaction)

  static func checkNotFuture(_ day: CalendarDay, now: Date) throws {
    let today = CalendarDay(containing: now)
    guard day <= today else {
      throw ReportError.futureDay(day.description, today: today.description)
    }
  }

  func record(_ figures: DailyFigures, portfolio: Portfolio, now: Date) -> DailyRecord {
    DailyRecord(
      portfolioID: portfolio.id, day: figures.day, value: figures.value,
      costBasis: figures.costBasis, unrealized: figures.unrealized, realized: figures.realized,
      snapshotAt: figures.snapshotAt, savedAt: Timestamp.format(now))
  }

  /// The trades of the portfolio executed before `bound`, in time order, with the columns
  /// booking reads (`Trade.Selection.booking`).
  func trades(_ portfolio: Portfolio, before bound: Timestamp) throws -> [Trade] {
    var trades: [Trade] = []
    try Trade.each(
      portfolioID: portfolio.id, filter: Trade.Filter(before: bound), selection: .booking,
      database
    ) {
      trades.append($0)
    }
    return trades
  }

  /// Which days of a range `backfillDays` saves.
  enum DayChoice {
    /// The days with no saved row.
    case missing
    /// Every day (`--replace`).
    case every
    /// These saved days, which went stale: valued with prices within `maxAge` before the day's
    /// end or as old as the day's saved `snapshot_at` (by day), and saved as unknown when a
    /// held coin has none.
    case stale(Set<String>, savedWithPricesFrom: [String: String])
  }

  /// Saves the days `days` chooses of [since, until]; must run inside a write transaction.
  /// The portfolio's method and currency are read again here, inside that transaction.
  func backfillDays(
    _ portfolio: Portfolio, since: CalendarDay, until: CalendarDay, days: DayChoice,
    maxAge: TimeInterval = ReportService.backfillMaxAge, now: Date
  ) throws -> BackfillOutcome {
    var isStale = false
    if case .stale = days { isStale = true }
    let portfolio = try Portfolio.current(portfolio, database)
    var existing: [String: DailyRecord] = [:]
    for row in try DailyRecord.list(
      portfolioID: portfolio.id, from: since.description, through: until.description, database)
    {
      existing[row.day] = row
    }
    // Stale days (recomputed inside every write that reaches them, such as today's buys after
    // a saved report) are read from the stored positions, which the write has just updated,
    // as a report reads them: replaying every trade at each write held the write lock long
    // enough to time other writers out. A replay remains for any other case.
    var stored: [String: Standing] = [:]
    if case .stale(let staleDays, _) = days {
      for text in staleDays {
        guard let day = CalendarDay(text),
          let standing = try Standing.stored(
            database, portfolioID: portfolio.id, method: portfolio.method, through: day,
            since: day.firstOfYear.start)
        else {
          stored = [:]
          break
        }
        stored[text] = standing
      }
    }
    let allTrades = stored.isEmpty ? try trades(portfolio, before: until.next.start) : []
    var replay = PortfolioReplay(method: portfolio.method, trades: allTrades)
    var saved: [String] = []
    var noFreshSnapshot: [String] = []
    var keptWithoutSnapshot = 0
    var keptKnownValue: [String] = []
    var partial: [String] = []
    var missingCoins: [String: [String]] = [:]
    // The coins with a price of the currency at some time (a snapshot quote or a daily close).
    // A held coin among them without one near a day makes the day n/a; a coin never priced at
    // all stays unpriced and out of the total (the one valuation rule), or no day could ever
    // be saved while it is held.
    let everHeld = Array(
      Set(allTrades.map(\.coinID)).union(stored.values.flatMap { $0.held.map(\.coinID) }))
    var everPriced = Set(
      try MarketRecords.latestPrices(
        database, coinIDs: everHeld, vsCurrency: portfolio.currency,
        before: "9999-12-31T23:59:59Z"
      ).keys)
    everPriced.formUnion(
      try DailyPriceRecords.latestPrices(
        database, coinIDs: everHeld, vsCurrency: portfolio.currency, from: "0000-01-01",
        through: "9999-12-31"
      ).keys)
    var day = since
    while day <= until {
      defer { day = day.next }
      try replay.advance(before: day.next.start)
      let bound = day.next.start.description
      let old = existing[day.description]
      switch days {
      case .missing: guard old == nil else { continue }
      case .every: break
      case .stale(let stale, _): guard stale.contains(day.description) else { continue }
      }
      let held = stored[day.description]?.held ?? replay.held
      let realizedTotal = stored[day.description]?.realizedTotal ?? replay.realizedTotal
      // Only prices of [end − maxAge, end] may value the day; never a later one. A stale day
      // also takes prices as old as those it was saved with.
      var oldest = Timestamp.format(day.next.start.date.addingTimeInterval(-max(0, maxAge)))
      if case .stale(_, let snapshots) = days, let saved = snapshots[day.description] {
        oldest = min(oldest, saved)
      }
      var prices: [String: ExactDecimal] = [:]
      var pricedAt: String?
      var snapshot: MarketSnapshotRef?
      if !held.isEmpty {
        snapshot = try MarketRecords.latestSnapshot(
          database, vsCurrency: portfolio.currency, before: bound)
        let chosen = try Self.endOfDayPrices(
          database, coinIDs: held.map(\.coinID), vsCurrency: portfolio.currency, day: day,
          oldest: oldest, freshSnapshot: (snapshot?.fetchedAt ?? "") >= oldest)
        guard chosen.anyFresh || isStale else {
          noFreshSnapshot.append(day.description)
          if old != nil { keptWithoutSnapshot += 1 }
          continue
        }
        let missing = held.map(\.coinID).filter {
          chosen.prices[$0] == nil && everPriced.contains($0)
        }
        guard missing.isEmpty || isStale else {
          partial.append(day.description)
          for coin in missing { missingCoins[coin, default: []].append(day.description) }
          continue
        }
        prices = chosen.prices.mapValues(\.price)
        pricedAt = chosen.prices.values.map(\.at).max()
      }
      var figures = try Self.figures(
        day: day, held: held, realized: realizedTotal, prices: prices,
        snapshot: snapshot, pricedAt: pricedAt)
      if isStale,
        held.contains(where: { prices[$0.coinID] == nil && everPriced.contains($0.coinID) })
      {
        // A value of part of the holdings is no value of the day.
        figures = DailyFigures(
          day: figures.day, value: nil, costBasis: figures.costBasis, unrealized: nil,
          realized: figures.realized, snapshotAt: figures.snapshotAt)
      }
      if !isStale, figures.value == nil, old?.value != nil {
        keptKnownValue.append(day.description)
        continue
      }
      try record(figures, portfolio: portfolio, now: now).save(database)
      saved.append(day.description)
    }
    var outcome = BackfillOutcome(
      since: since.description, until: until.description, saved: saved,
      alreadySaved: { if case .missing = days { existing.count } else { 0 } }(),
      noFreshSnapshot: noFreshSnapshot,
      keptWithoutSnapshot: keptWithoutSnapshot, keptKnownValue: keptKnownValue, maxAge: maxAge)
    outcome.partial = partial
    outcome.missingCoins = missingCoins
    return outcome
  }

  /// The price of each of `coinIDs` at the end of `day`: of the newest quote of a snapshot
  /// taken in [`oldest`, end of day) (only when `freshSnapshot`) and the newest daily close
  /// priced in [`oldest`, end of day], the one nearer the end of the day, with its time. A
  /// day's own close is priced at its end, so it wins over any snapshot of that day; a
  /// snapshot wins over an earlier day's close when it was taken later. `anyFresh` is false
  /// when neither a fresh snapshot nor any close within `oldest` exists: the day is n/a.
  static func endOfDayPrices(
    _ database: Database, coinIDs: [String], vsCurrency: String, day: CalendarDay,
    oldest: String, freshSnapshot: Bool
  ) throws -> (prices: [String: (price: ExactDecimal, at: String)], anyFresh: Bool) {
    let bound = day.next.start.description
    var prices: [String: (price: ExactDecimal, at: String)] = [:]
    if freshSnapshot {
      prices = try MarketRecords.latestPrices(
        database, coinIDs: coinIDs, vsCurrency: vsCurrency, before: bound, notBefore: oldest)
    }
    let firstDay = (try? Timestamp(parsing: oldest, .lenient))?.adding(seconds: -1).day ?? day
    let closes = try DailyPriceRecords.latestPrices(
      database, coinIDs: coinIDs, vsCurrency: vsCurrency, from: firstDay.description,
      through: day.description)
    var anyClose = false
    for (coin, close) in closes where close.pricedAt >= oldest && close.pricedAt <= bound {
      anyClose = true
      if let quote = prices[coin], quote.at > close.pricedAt { continue }
      prices[coin] = (close.price, close.pricedAt)
    }
    return (prices, freshSnapshot || anyClose)
  }

  /// The day's history figures from the held positions and the market prices.
  static func figures(
    day: CalendarDay, held: [Standing.Held], realized: ExactDecimal,
    prices: [String: ExactDecimal], snapshot: MarketSnapshotRef?, pricedAt: String? = nil
  ) throws -> DailyFigures {
    var values: [Measure?] = []
    var profits: [Measure?] = []
    var cost = ExactDecimal.zero
    for coin in held {
      cost = try cost + coin.costBasis
      let value = prices[coin.coinID].map { price in
        Measure.computing { try coin.quantity * price }
      }
      values.append(value)
      profits.append(value?.then { try $0 - coin.costBasis })
    }
    let value = Measure.total(of: values)
    let unrealized = Measure.total(of: profits)
    return DailyFigures(
      day: day.description, value: value?.value, costBasis: cost, unrealized: unrealized?.value,
      realized: realized,
      snapshotAt: prices.isEmpty ? nil : pricedAt ?? snapshot?.fetchedAt,
      unavailable: value?.reason ?? unrealized?.reason)
  }

  /// Builds the report from the stored positions, or, with `replay` or another method than
  /// the portfolio's, by booking every trade again.
  func build(
    _ portfolio: Portfolio, day: CalendarDay, method: CostMethod, maxAge: TimeInterval,
    now: Date, historyDays: Int, replay: Bool = false
  ) throws -> DailyReport {
    try build(
      [portfolio], shown: portfolio, day: day, methods: .one(method), maxAge: maxAge, now: now,
      historyDays: historyDays, replay: replay)
  }

  /// Builds the report of `portfolios` (of one currency) as one, shown as `shown`.
  func build(
    _ portfolios: [Portfolio], shown portfolio: Portfolio, day: CalendarDay,
    methods: MethodInUse, maxAge: TimeInterval, now: Date, historyDays: Int, replay: Bool = false
  ) throws -> DailyReport {
    var standings: [Standing] = []
    for each in portfolios {
      let method = methods.method(for: each)
      if !replay, method == each.method,
        let stored = try Standing.stored(
          database, portfolioID: each.id, method: method, through: day,
          since: day.firstOfYear.start)
      {
        standings.append(stored)
      } else {
        var replay = PortfolioReplay(
          method: method, trades: try trades(each, before: day.next.start))
        try replay.advance(before: day.next.start)
        standings.append(replay.standing(since: day.firstOfYear.start))
      }
    }
    let standing = try Standing.merged(standings)
    let bound = day.next.start.description
    let held = standing.held
    let quotes = try MarketRecords.latestQuotes(
      database, coinIDs: held.map(\.coinID), vsCurrency: portfolio.currency, before: bound)
    let snapshot = try MarketRecords.latestSnapshot(
      database, vsCurrency: portfolio.currency, before: bound)
    let global = try MarketRecords.latestGlobal(database, before: bound)
    // A daily close within --max-age of the day's end (or now, for today) and nearer it than
    // the coin's newest quote prices it instead (docs/reports.md): the 24h change is then the
    // change from the close of the day before. An older close is never used.
    let reference = min(now, day.next.start.date)
    var closes: [String: (price: DailyPrice, change24h: ExactDecimal?)] = [:]
    for (coin, close) in try DailyPriceRecords.latestPrices(
      database, coinIDs: held.map(\.coinID), vsCurrency: portfolio.currency, from: "0000-01-01",
      through: day.description)
    where close.pricedAt <= bound
      && MarketData.staleness(of: close.pricedAt, now: reference, maxAge: maxAge) == nil
    {
      if let quote = quotes[coin], quote.snapshotAt > close.pricedAt { continue }
      let before = CalendarDay(close.day)?.adding(days: -1).description ?? ""
      let previous = try DailyPriceRecords.prices(
        database, coinIDs: [coin], vsCurrency: portfolio.currency, day: before)[coin]
      let change = previous.flatMap {
        try? ExactDecimal.scaled(close.price - $0.price, by: .hundred, dividedBy: $0.price)
      }
      closes[coin] = (close, change)
    }
    // A past day is valued only with prices from within --max-age before its end: a quote of
    // an older snapshot leaves its coin unpriced (n/a, with the reason), never valued at a
    // stale price. Today keeps the newest quote, with the staleness warning (or --strict).
    let isPast = day < CalendarDay(containing: now)
    let usable = quotes.filter { _, quote in
      !isPast || MarketData.staleness(of: quote.snapshotAt, now: reference, maxAge: maxAge) == nil
    }
    // The reason names the window when a quote was left out for its age.
    let priceWindow =
      usable.count < quotes.count
      ? "within \(MarketTime.formatDuration(maxAge)) before the end of \(day)" : nil
    func price(_ coin: String) -> ExactDecimal? { closes[coin]?.price.price ?? usable[coin]?.price }
    func change(_ coin: String) -> ExactDecimal? {
      closes[coin].map(\.change24h) ?? usable[coin]?.change24hPercent
    }
    let statistics = Statistics.statistics(
      held: held.map {
        HeldQuote(
          coinID: $0.coinID, quantity: $0.quantity, price: price($0.coinID),
          change24h: change($0.coinID))
      }, global: global, currency: portfolio.currency,
      missingGlobal: "no /global snapshot was taken by the end of \(day)", priceWindow: priceWindow)
    var prices: [String: ExactDecimal] = [:]
    for coin in held.map(\.coinID) { prices[coin] = price(coin) }
    let newestClose = closes.values.map(\.price.pricedAt).max()
    let figures = try Self.figures(
      day: day, held: held, realized: standing.realizedTotal, prices: prices, snapshot: snapshot,
      pricedAt: max(newestClose ?? "", snapshot?.fetchedAt ?? "").nilIfEmpty)

    // Holdings, largest value first, unpriced last.
    var holdings: [ReportHolding] = []
    let total = figures.value ?? .zero
    for book in held {
      let coin = book.coinID
      let quote = quotes[coin]
      let close = closes[coin]?.price
      // A coin added with --new-coin has no symbol, and its name is its id: show neither.
      let record =
        quote == nil
        ? try MarketRecords.coin(database, id: coin).flatMap { $0.symbol.isEmpty ? nil : $0 } : nil
      let measure = price(coin).map { price in Measure.computing { try book.quantity * price } }
      let value = measure?.value
      let profit = measure?.then { try $0 - book.costBasis }
      holdings.append(
        ReportHolding(
          coinID: coin, symbol: quote?.quote.symbol ?? record?.symbol,
          name: quote?.quote.name ?? record?.name, quantity: book.quantity,
          costBasis: book.costBasis, price: price(coin),
          priceAt: close?.pricedAt ?? usable[coin]?.snapshotAt, value: value,
          change24h: change(coin), sparkline: close == nil ? usable[coin]?.sparkline ?? [] : [],
          share: try value.flatMap {
            total.isPositive ? try ExactDecimal.scaled($0, by: .hundred, dividedBy: total) : nil
          },
          unrealized: profit?.value, realized: standing.realizedByCoin[coin] ?? .zero,
          unavailable: measure?.reason ?? profit?.reason, isDailyClose: close != nil))
    }
    holdings.sort { a, b in
      switch (a.value, b.value) {
      case (let x?, let y?): return x != y ? x > y : a.coinID < b.coinID
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return a.coinID < b.coinID
      }
    }

    // Closed positions: sold out with a profit or loss, which is part of the all-time total.
    let heldIDs = Set(held.map(\.coinID))
    let closedIDs = standing.realizedByCoin.filter { !heldIDs.contains($0.key) && !$0.value.isZero }
      .keys.sorted()
    let closed = try closedIDs.map { coin in
      let record = try MarketRecords.coin(database, id: coin).flatMap {
        $0.symbol.isEmpty ? nil : $0
      }
      return ClosedPosition(
        coinID: coin, symbol: record?.symbol, name: record?.name,
        realized: standing.realizedByCoin[coin] ?? .zero)
    }

    // The day's trades, with locations.
    let book = LocationBook(store)
    var dayTrades: [ReportTrade] = []
    var realizedBySell: [Int64: ExactDecimal] = [:]
    for sell in standing.sells { realizedBySell[sell.id] = sell.realized }
    for each in portfolios {
      try Trade.each(
        portfolioID: each.id, filter: Trade.Filter(since: day.start, before: day.next.start),
        database
      ) { trade in
        let location = try trade.locationID.map { try book.load($0).reference }
        dayTrades.append(
          ReportTrade(trade: trade, realized: realizedBySell[trade.id], location: location))
      }
    }
    if portfolios.count > 1 { dayTrades.sort { $0.trade.key < $1.trade.key } }

    // Top movers: the largest 24h moves among priced holdings.
    let movers = holdings.compactMap { holding -> Mover? in
      guard let change = holding.change24h, let value = holding.value else { return nil }
      var valueChange: ExactDecimal?
      if let factor = try? ExactDecimal.hundred + change, factor.isPositive,
        let previous = try? ExactDecimal.scaled(value, by: .hundred, dividedBy: factor)
      {
        valueChange = try? value - previous
      }
      return Mover(
        coinID: holding.coinID, label: holding.label, change24h: change, valueChange: valueChange)
    }
    .sorted { a, b in
      a.change24h.magnitude != b.change24h.magnitude
        ? a.change24h.magnitude > b.change24h.magnitude : a.coinID < b.coinID
    }

    // The flows and saved values the returns are worked out from, read once per portfolio.
    let returnParts = try portfolios.map { try returnInputs($0, through: day) }

    // Value over time: saved rows of the window, the day itself from this report.
    let first = day.adding(days: -(historyDays - 1))
    var parts: [(inception: Timestamp?, points: [ValuePoint])] = []
    var savedToday = true
    for (each, part) in zip(portfolios, returnParts) {
      let rows = try DailyRecord.list(
        portfolioID: each.id, from: first.description, through: day.description, database)
      savedToday = savedToday && rows.contains { $0.day == day.description }
      parts.append(
        (
          inception: portfolios.count == 1 ? nil : part.inception,
          points: rows.filter { $0.day != day.description }.compactMap { row in
            CalendarDay(row.day).map { ValuePoint(day: $0, value: row.value) }
          }
        ))
    }
    var history = Self.combinePoints(parts).map {
      HistoryPoint(day: $0.day, value: $0.value, isSaved: true)
    }
    history.append(
      HistoryPoint(day: day.description, value: figures.value, isSaved: savedToday))

    // Freshness, judged at the end of the day (or now, for today).
    // The closes used are all fresh; the snapshot's age matters while any held coin is still
    // priced from it.
    var staleAge: TimeInterval?
    if let snapshot, held.contains(where: { closes[$0.coinID] == nil && quotes[$0.coinID] != nil })
    {
      staleAge = MarketData.staleness(of: snapshot.fetchedAt, now: reference, maxAge: maxAge)
    }

    var report = DailyReport(
      portfolio: portfolio, method: methods, day: day.description,
      generatedAt: Timestamp.format(now), snapshot: snapshot, staleAge: staleAge, maxAge: maxAge,
      statistics: statistics, holdings: holdings, closed: closed, totalCostBasis: figures.costBasis,
      totalUnrealized: figures.unrealized,
      realized: RealizedSummary(
        day: try standing.realized(since: day.start),
        monthToDate: try standing.realized(since: day.firstOfMonth.start),
        yearToDate: try standing.realized(since: day.firstOfYear.start),
        allTime: figures.realized),
      trades: dayTrades, movers: Array(movers.prefix(5)), history: history,
      historyDays: historyDays, figures: figures)
    report.returns = try periodReturns(
      portfolios, inputs: returnParts, through: day, value: figures.value,
      reason: figures.unavailable)
    report.chartReturn = windowReturn(
      inputs: returnParts, history: history, through: day, value: figures.value)
    return report
  }
}

extension String {
  /// nil for the empty string.
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
