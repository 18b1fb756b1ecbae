import FolioHTTP
import FolioStorage
import Foundation

/// What `market history` asks for.
public struct HistoryRequest: Equatable, Sendable {
  public var vsCurrency = "usd"
  /// Coin ids to fetch; empty: the coins `portfolio` held at any time since `since`.
  public var coins: [String] = []
  public var portfolio = "main"
  /// The first day; nil: the day of the portfolio's first trade (or a year ago without trades).
  public var since: CalendarDay?

  public init() {}
}

/// What `market history` did for one coin.
public struct HistoryCoinOutcome: Equatable, Sendable {
  public let coinID: String
  /// Days newly stored.
  public let stored: Int
  /// Requests made.
  public let requests: Int
  /// The first and last day stored, if any.
  public let firstDay: String?
  public let lastDay: String?
  /// True when its requests failed (the days stored before the failure stay stored).
  public var failed = false
}

/// What `market history` fetched and stored.
public struct HistoryOutcome: Equatable, Sendable {
  public let vsCurrency: String
  public let since: String
  public let until: String
  public let coins: [HistoryCoinOutcome]
  /// With the free API: the first day it serves, when `since` was earlier.
  public let freeTierFrom: String?
  public let warnings: [String]
}

/// Why `market history` did not complete: the coins stored before the failure stay stored.
public struct HistoryIncomplete: LocalizedError, ClassifiedError, Equatable {
  public let outcome: HistoryOutcome
  /// The coins not fetched, each with why.
  public let failed: [(coin: String, reason: String)]
  public let kind: FailureKind
  /// The global options to repeat in the command to run again (`--db PATH`), shell-quoted.
  public var globalArguments: [String] = []

  public static func == (a: HistoryIncomplete, b: HistoryIncomplete) -> Bool {
    a.outcome == b.outcome && a.failed.map(\.coin) == b.failed.map(\.coin)
  }

  /// The command that fetches what is missing: the coins not fetched, from the same first
  /// day, in the same currency (the days stored already are not asked for again).
  public var rerun: String {
    (["folio"] + globalArguments + [
      "market", "history", "--coins", failed.map(\.coin).joined(separator: ","), "--since",
      outcome.since, "--vs", outcome.vsCurrency,
    ]).joined(separator: " ")
  }

  public var errorDescription: String? {
    let which = failed.map { "\($0.coin) (\($0.reason))" }.joined(separator: "; ")
    let stored = outcome.coins.filter { $0.stored > 0 }.map(\.coinID)
    let kept =
      stored.isEmpty
      ? "nothing new was stored"
      : "the daily prices of \(stored.joined(separator: ", ")) were stored"
    return "daily prices were not fetched for \(which); \(kept); "
      + "run '\(rerun)' later to fetch the rest"
  }
}

/// Daily closing prices: fetched from CoinGecko, imported from saved market_chart responses,
/// and read for valuing past days.
public struct PriceHistory {
  let store: Store
  var database: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// How far back the free (and demo) CoinGecko API serves history.
  public static let freeTierDays = 365

  /// Stores the complete days of `series` as closing prices of `coinID` in `vsCurrency`
  /// (restricted to `days`, when given); a day already stored is kept as it was. Must run
  /// inside a write transaction. Returns the days added and already there.
  func store(
    _ series: PriceSeries, coinID: String, vsCurrency: String, source: String, fetchedAt: String,
    days: ClosedRange<CalendarDay>? = nil
  ) throws -> (added: [String], present: Int) {
    try MarketRecords.insertCoinIfMissing(
      database, id: coinID, symbol: "", name: coinID, imageURL: nil, at: fetchedAt)
    var added: [String] = []
    var present = 0
    for close in series.closes where days?.contains(close.day) ?? true {
      let row = DailyPrice(
        coinID: coinID, vsCurrency: vsCurrency, day: close.day.description, price: close.price,
        pricedAt: close.pricedAt.description, source: source, fetchedAt: fetchedAt)
      if try DailyPriceRecords.insert(database, row) {
        added.append(row.day)
      } else {
        present += 1
      }
    }
    return (added, present)
  }

  /// The coins `portfolio` held at any time from the start of `since` on, and the day of its
  /// first trade.
  func heldCoins(portfolio name: String, since: CalendarDay?) throws -> (
    coins: [String], firstDay: CalendarDay?
  ) {
    let portfolio = try PortfolioService(store).resolve(name)
    var trades: [Trade] = []
    try Trade.each(
      portfolioID: portfolio.id, filter: Trade.Filter(), selection: .booking, database
    ) {
      trades.append($0)
    }
    guard let first = trades.first else { return ([], nil) }
    let firstDay = (try? Timestamp(parsing: first.executedAt, .lenient))?.day
    let start = since ?? firstDay ?? CalendarDay(ordinal: 0)
    var replay = PortfolioReplay(method: portfolio.method, trades: trades)
    try replay.advance(before: start.start)
    var coins = Set(replay.held.map(\.coinID))
    let bound = start.start.description
    for trade in trades where trade.executedAt >= bound { coins.insert(trade.coinID) }
    return (coins.sorted(), firstDay)
  }

  /// Fetches the daily prices of the coins asked for from `since` through yesterday (UTC),
  /// asking only for days neither stored nor fetched before, one request per run of missing
  /// days. Each coin is stored in its own transaction as soon as it is fetched, so a failure
  /// keeps the coins done before it and throws `HistoryIncomplete` naming the others. With the
  /// free API (no `COINGECKO_PRO_API_KEY`), days more than 365 days ago are not asked for and
  /// the outcome says so. A 429 stops the run after the client's retries (honouring
  /// Retry-After); another failure of one coin goes on with the next.
  public func fetch(
    _ request: HistoryRequest, client: CoinGeckoClient, now: Date,
    progress: (String) -> Void = { _ in }
  ) throws -> HistoryOutcome {
    let today = CalendarDay(containing: now)
    let until = today.adding(days: -1)
    var coins = request.coins
    var since = request.since
    if coins.isEmpty {
      let held = try database.read { try heldCoins(portfolio: request.portfolio, since: since) }
      coins = held.coins
      since = since ?? held.firstDay
      guard !coins.isEmpty else {
        throw MarketError.nothingToFetch(portfolio: request.portfolio)
      }
    }
    // The free (and demo) API serves days from `earliest` on; nil with a pro key.
    let earliest: CalendarDay? =
      client.configuration.apiKey?.header == "x-cg-pro-api-key"
      ? nil
      : CalendarDay(
        containing: now.addingTimeInterval(-TimeInterval(Self.freeTierDays) * 86_400)
      ).next
    let first = since ?? earliest ?? today.adding(days: -Self.freeTierDays)
    guard first <= until else {
      throw MarketError.sinceTooLate(since: first.description, lastDay: until.description)
    }
    // Warned about only when a day the free API does not serve is actually missing.
    var freeTierFrom: String?
    var outcomes: [HistoryCoinOutcome] = []
    var failed: [(coin: String, reason: String)] = []
    var failureKind: FailureKind?
    var warnings: [String] = []
    var stopped = false
    for (index, coin) in coins.enumerated() where !stopped {
      progress("fetching daily prices of \(coin) (\(index + 1) of \(coins.count))")
      var gaps = try missingRuns(coin, request.vsCurrency, first, until)
      if let earliest, gaps.contains(where: { $0.lowerBound < earliest }) {
        freeTierFrom = earliest.description
        gaps = gaps.compactMap {
          $0.upperBound < earliest ? nil : max($0.lowerBound, earliest)...$0.upperBound
        }
      }
      var added: [String] = []
      var requests = 0
      do {
        for gap in gaps {
          let to = min(
            Timestamp(now), gap.upperBound.next.start.adding(seconds: 2 * 3600))
          requests += 1
          let (series, notes) = try client.marketChartRange(
            id: coin, vsCurrency: request.vsCurrency, from: gap.lowerBound.start, to: to)
          warnings += notes.allWarnings.map { "\(coin): \($0)" }
          let source = client.takeSource()
          let fetchedAt = Timestamp.format(now)
          try database.write {
            let result = try store(
              series, coinID: coin, vsCurrency: request.vsCurrency, source: source,
              fetchedAt: fetchedAt, days: gap)
            added += result.added
            // The days the answer covers: up to its last complete day, or the whole gap
            // when it holds no point at all (nothing to be had for those days).
            let last = series.points.isEmpty ? gap.upperBound : series.lastCompleteDay
            if let last, last >= gap.lowerBound {
              try DailyPriceRecords.recordFetch(
                database, coinID: coin, vsCurrency: request.vsCurrency,
                first: gap.lowerBound.description, last: min(last, gap.upperBound).description,
                source: source, fetchedAt: fetchedAt)
            }
          }
        }
      } catch let error as CoinGeckoError {
        var reason = error.errorDescription ?? "the request failed"
        if case .rejected(_, _, let message?) = error,
          message.contains("365") || message.lowercased().contains("time range")
        {
          reason += " (the free CoinGecko API serves only the past 365 days)"
        }
        failed.append((coin, reason))
        failureKind = failureKind ?? error.kind
        outcomes.append(
          HistoryCoinOutcome(
            coinID: coin, stored: added.count, requests: requests, firstDay: added.min(),
            lastDay: added.max(), failed: true))
        switch error {
        case .rateLimited, .unreachable, .serverError:
          // The API is not answering: asking for the other coins would only wait again.
          for rest in coins[(index + 1)...] {
            failed.append((rest, "not asked for after that failure"))
          }
          stopped = true
        default: break
        }
        continue
      }
      outcomes.append(
        HistoryCoinOutcome(
          coinID: coin, stored: added.count, requests: requests, firstDay: added.min(),
          lastDay: added.max()))
    }
    let outcome = HistoryOutcome(
      vsCurrency: request.vsCurrency, since: first.description, until: until.description,
      coins: outcomes, freeTierFrom: freeTierFrom, warnings: warnings)
    if let failureKind {
      throw HistoryIncomplete(outcome: outcome, failed: failed, kind: failureKind)
    }
    return outcome
  }

  /// The runs of days from `from` through `until` that hold no price of the coin and lie in
  /// no range fetched before, oldest first.
  func missingRuns(_ coin: String, _ vsCurrency: String, _ from: CalendarDay, _ until: CalendarDay)
    throws -> [ClosedRange<CalendarDay>]
  {
    let known = try DailyPriceRecords.knownDays(
      database, coinID: coin, vsCurrency: vsCurrency, from: from.description,
      through: until.description)
    var covered = known.priced
    for range in known.fetched {
      guard let a = CalendarDay(range.first), let b = CalendarDay(range.last) else { continue }
      var day = max(a, from)
      while day <= min(b, until) {
        covered.insert(day.description)
        day = day.next
      }
    }
    var runs: [ClosedRange<CalendarDay>] = []
    var start: CalendarDay?
    var day = from
    while day <= until {
      if covered.contains(day.description) {
        if let s = start { runs.append(s...day.adding(days: -1)) }
        start = nil
      } else if start == nil {
        start = day
      }
      day = day.next
    }
    if let s = start { runs.append(s...until) }
    return runs
  }
}

extension PriceHistory {
  /// Stores the complete days of saved market_chart responses as daily prices of `coinID` in
  /// `vsCurrency`, each file in one transaction; a day already stored is kept as it was.
  func importCharts(
    _ charts: [(path: String, series: PriceSeries, notes: PayloadNotes)], coinID: String,
    vsCurrency: String, now: Date
  ) throws -> [ImportOutcome] {
    var outcomes: [ImportOutcome] = []
    for (path, series, notes) in charts {
      let result = try database.write {
        try store(
          series, coinID: coinID, vsCurrency: vsCurrency, source: "import:" + path,
          fetchedAt: Timestamp.format(now))
      }
      let closes = series.closes
      var warnings = notes.allWarnings
      if closes.isEmpty {
        warnings.append(
          "it holds no complete UTC day with a price above zero (a day is kept once the "
            + "series reaches its end)")
      }
      let span = closes.first.map { "\($0.day) to \(closes.last?.day ?? $0.day)" } ?? ""
      outcomes.append(
        ImportOutcome(
          file: path, kind: PriceSeries.kindName, fetchedAt: span, vsCurrency: vsCurrency,
          coinID: coinID, added: result.added.count, alreadyPresent: result.present,
          skipped: 0, warnings: warnings))
    }
    return outcomes
  }
}

extension PriceSeries {
  /// The kind of file, for messages.
  public static let kindName = "/coins/{id}/market_chart"
}
