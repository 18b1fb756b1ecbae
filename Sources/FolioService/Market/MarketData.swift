import FolioStorage
import Foundation

/// The market-data service: importing and refreshing CoinGecko snapshots, and reading the cache.
public struct MarketData {
  let store: Store
  var database: Database { store.database }

  public init(_ store: Store) { self.store = store }

  // MARK: Import

  /// Imports CoinGecko responses saved as files. Every file is read and checked first, so a
  /// missing (66), malformed or wrongly shaped file (65) stops the command before anything is
  /// stored; then each file is stored in its own transaction.
  ///
  /// The snapshot time is `at`, else the data's own time, else `now`. A markets page whose
  /// time matches an existing snapshot of the currency joins it (coins already there are kept
  /// as they were), so importing the same file twice adds nothing.
  ///
  /// A markets page whose prices do not look like `vsCurrency` (`PageCurrencyCheck`) is
  /// refused with `currencyMismatch` (65), unless `force`, when it is imported with a warning.
  ///
  /// A `market_chart` response (`{"prices": [[ms, price], …], …}`) holds daily prices of the
  /// coin `coin` in `vsCurrency` (`PriceHistory`); without `coin` it is refused (65), and so
  /// is any other file when `coin` is given.
  public func importFiles(
    _ paths: [String], vsCurrency: String, at: Date?, now: Date, force: Bool = false,
    coin: String? = nil
  ) throws -> [ImportOutcome] {
    var documents: [(path: String, document: CoinGeckoDocument, notes: PayloadNotes)] = []
    var charts: [(path: String, series: PriceSeries, notes: PayloadNotes)] = []
    for path in paths {
      let bytes = try Self.readFile(path)
      let value: JSONValue
      // The elements of an array (a markets page) are decoded as they are parsed.
      var reader = CoinGeckoDocument.ArrayReader()
      do {
        value = try JSONValue.parse(bytes) { reader.add($0) }
      } catch {
        throw MarketError.malformedJSON(file: path, error)
      }
      var notes = PayloadNotes()
      if PriceSeries.isMarketChart(value) {
        guard coin != nil else { throw MarketError.chartWithoutCoin(file: path) }
        do {
          charts.append((path, try PriceSeries.read(value, notes: &notes), notes))
        } catch {
          throw MarketError.wrongShape(file: path, line: error.line, reason: error.reason)
        }
        continue
      }
      let document: CoinGeckoDocument
      do {
        document = try reader.document(of: value, notes: &notes)
      } catch {
        throw MarketError.wrongShape(
          file: path, line: error.line, reason: error.reason)
      }
      if case .markets(let page) = document, page.quotes.isEmpty {
        // Say why the coins were skipped: that is what the user has to fix.
        let why = notes.warnings.first.map { " (\($0))" } ?? ""
        throw MarketError.wrongShape(
          file: path, reason: "the /coins/markets page holds no coin with a price" + why)
      }
      if coin != nil {
        throw MarketError.coinForOtherFile(file: path, kind: document.kindName)
      }
      documents.append((path, document, notes))
    }
    // A snapshot is filed under its data's own time, or `--at`: neither may be more than a
    // day after now (as a trade's date), or the snapshot would stay the latest until then.
    let latest = Timestamp.format(now.addingTimeInterval(86_400))
    if let at, Timestamp.format(at) > latest {
      throw MarketError.future(file: nil, time: Timestamp.format(at), whose: nil)
    }
    for (path, document, _) in documents where at == nil {
      guard let data = document.dataTime, data > latest else { continue }
      var whose: String?
      if case .markets(let page) = document {
        whose = page.quotes.first(where: { $0.lastUpdated == data })?.id
      }
      throw MarketError.future(file: path, time: data, whose: whose)
    }
    func time(of document: CoinGeckoDocument) -> String {
      at.map(Timestamp.format) ?? document.dataTime ?? Timestamp.format(now)
    }
    let batchGlobals = documents.compactMap { item -> (String, GlobalData)? in
      guard case .global(let data) = item.document else { return nil }
      return (time(of: item.document), data)
    }
    for index in documents.indices {
      guard case .markets(let page) = documents[index].document else { continue }
      guard
        let mismatch = try checkCurrency(
          page, vsCurrency: vsCurrency, at: time(of: documents[index].document),
          batchGlobals: batchGlobals)
      else { continue }
      let path = documents[index].path
      let error = MarketError.currencyMismatch(
        file: path, currency: vsCurrency, evidence: mismatch.evidence, likely: mismatch.likely)
      guard force else { throw error }
      documents[index].notes.warnings.append(
        "the prices do not look like \(vsCurrency.uppercased()): \(mismatch.evidence); "
          + "imported as \(vsCurrency.uppercased()) anyway (--force)")
    }
    var outcomes: [ImportOutcome] = []
    if let coin {
      outcomes += try PriceHistory(store).importCharts(
        charts, coinID: coin, vsCurrency: vsCurrency, now: now)
    }
    for (path, document, notes) in documents {
      let fetchedAt = time(of: document)
      let source = "import:" + path
      let counts = try database.write {
        try persist(document, fetchedAt: fetchedAt, source: source, vsCurrency: vsCurrency)
      }
      var skipped = 0
      var vs: String?
      var coinID: String?
      switch document {
      case .markets(let page):
        skipped = page.skipped
        vs = vsCurrency
      case .coinDetail(let detail): coinID = detail.id
      case .global, .coinList: break
      }
      outcomes.append(
        ImportOutcome(
          file: path, kind: document.kindName, fetchedAt: fetchedAt, vsCurrency: vs,
          coinID: coinID, added: counts.added, alreadyPresent: counts.present, skipped: skipped,
          warnings: notes.allWarnings))
    }
    return outcomes
  }

  /// Runs `PageCurrencyCheck` on a page to be stored at `at`, with the rates of the newest
  /// /global (stored or among `batchGlobals`, the /global files of the same import) and the
  /// latest stored snapshot of the currency, each used to decide only when taken within a day
  /// of the page.
  func checkCurrency(
    _ page: MarketPage, vsCurrency: String, at: String, batchGlobals: [(String, GlobalData)]
  ) throws -> PageCurrencyCheck.Mismatch? {
    guard let pageTime = try? Timestamp(parsing: at, .lenient).date else { return nil }
    let window = PageCurrencyCheck.window
    let earliest = Timestamp.format(pageTime.addingTimeInterval(-window))
    let until = Timestamp.format(pageTime.addingTimeInterval(window + 1))
    func newest(_ candidates: [(String, GlobalData)]) -> PageCurrencyCheck.Rates? {
      guard let best = candidates.max(by: { $0.0 < $1.0 }) else { return nil }
      return PageCurrencyCheck.Rates(best.1, takenAt: best.0)
    }
    var stored: [(String, GlobalData)] = []
    if let latest = try MarketRecords.latestGlobal(database) {
      stored.append((latest.fetchedAt, latest.data))
    }
    if let near = try MarketRecords.latestGlobal(database, before: until) {
      stored.append((near.fetchedAt, near.data))
    }
    let all = stored + batchGlobals
    let rates = newest(all.filter { $0.0 >= earliest && $0.0 < until })
    let namingRates = newest(all)
    var previous: (prices: [String: ExactDecimal], takenAt: String)?
    if let snapshot = try MarketRecords.latestSnapshot(
      database, vsCurrency: vsCurrency, before: until), snapshot.fetchedAt >= earliest
    {
      var prices: [String: ExactDecimal] = [:]
      for quote in try MarketRecords.quotes(database, snapshotID: snapshot.id) {
        prices[quote.coinID] = quote.price
      }
      previous = (prices, snapshot.fetchedAt)
    }
    return PageCurrencyCheck.check(
      page.quotes, currency: vsCurrency, rates: rates, namingRates: namingRates,
      previous: previous)
  }

  private static func readFile(_ path: String) throws -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw MarketError.fileMissing(path)
    }
    guard !isDirectory.boolValue else {
      throw MarketError.unreadableFile(path, reason: "it is a directory")
    }
    return try contents(of: path)
  }

  /// The most bytes a market file may hold: far above CoinGecko's largest response (a
  /// /coins/markets array of 20,000 coins is 60 MB), so an endless input such as /dev/zero
  /// ends here.
  static let maxFileBytes = 256 << 20

  /// The bytes of the file at `path`, read straight into one array (no `Data` beside it, for a
  /// page can be 70 MB).
  private static func contents(of path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw MarketError.unreadableFile(path, reason: FileError.describe(errno: errno))
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_size > 0 {
      bytes.reserveCapacity(min(Int(clamping: info.st_size), maxFileBytes))
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try DescriptorReader.read(descriptor, into: $0) }
      } catch {
        throw MarketError.unreadableFile(path, reason: SystemErrorText.words(error))
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= maxFileBytes else {
        throw MarketError.wrongShape(
          file: path,
          reason:
            "it holds more than \(maxFileBytes >> 20) MiB, far more than any CoinGecko response")
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// Stores one document; must run inside a write transaction.
  private func persist(
    _ document: CoinGeckoDocument, fetchedAt: String, source: String, vsCurrency: String
  ) throws -> (added: Int, present: Int) {
    switch document {
    case .markets(let page):
      return try writeMarkets(
        page.quotes, vsCurrency: vsCurrency, fetchedAt: fetchedAt, source: source)
    case .global(let data):
      let added = try MarketRecords.insertGlobal(
        database, data, fetchedAt: fetchedAt, source: source)
      return added ? (1, 0) : (0, 1)
    case .coinDetail(let detail):
      let added = try writeDetail(detail, fetchedAt: fetchedAt, source: source)
      return added ? (1, 0) : (0, 1)
    case .coinList(let coins):
      try CoinDirectory(database).store(list: coins, fetchedAt: fetchedAt, source: source)
      return (coins.count, 0)
    }
  }

  func writeMarkets(
    _ quotes: [MarketQuote], vsCurrency: String, fetchedAt: String, source: String
  ) throws -> (added: Int, present: Int) {
    guard !quotes.isEmpty else { return (0, 0) }
    let snapshot = try MarketRecords.snapshot(
      database, vsCurrency: vsCurrency, fetchedAt: fetchedAt, source: source)
    for quote in quotes {
      try MarketRecords.upsertCoin(
        database, id: quote.id, symbol: quote.symbol, name: quote.name,
        imageURL: quote.imageURL, rank: quote.marketCapRank, at: fetchedAt)
    }
    // The CHECKs on market_quotes guard hand edits: every number here is an ExactDecimal and
    // every time a Timestamp, written in canonical form, and testing about six GLOB and ltrim
    // patterns on each of twenty columns cost SQLite a third of the insert (as for trades,
    // TradeImporter). The coins above keep theirs: their texts come from the page as given.
    var added = 0
    try database.ignoringCheckConstraints {
      for quote in quotes {
        if try MarketRecords.insertQuote(database, snapshotID: snapshot.id, quote) { added += 1 }
      }
    }
    return (added, quotes.count - added)
  }

  func writeDetail(_ detail: CoinDetail, fetchedAt: String, source: String) throws
    -> Bool
  {
    if let symbol = detail.symbol, let name = detail.name {
      try MarketRecords.upsertCoin(
        database, id: detail.id, symbol: symbol, name: name, imageURL: detail.imageURL,
        at: fetchedAt)
    } else {
      try MarketRecords.insertCoinIfMissing(
        database, id: detail.id, symbol: detail.symbol ?? "", name: detail.name ?? detail.id,
        imageURL: detail.imageURL, at: fetchedAt)
    }
    return try MarketRecords.insertDetail(database, detail, fetchedAt: fetchedAt, source: source)
  }

  // MARK: Refresh

  /// Fetches /coins/markets pages, the held and named coins missing from them, /global and
  /// optionally one coin's detail, then stores it all in one transaction at `now`. Any failure
  /// stores nothing, so the previous snapshot stays the latest.
  public func refresh(
    _ request: RefreshRequest, client: CoinGeckoClient, now: Date,
    progress: (String) -> Void = { _ in }
  ) throws -> RefreshOutcome {
    let held = try HeldPositions.quantities(store, portfolio: request.portfolio)
    let previous = try MarketRecords.latestSnapshot(database, vsCurrency: request.vsCurrency)
    var quotes: [MarketQuote] = []
    var seen: Set<String> = []
    var warnings: [String] = []
    var pagesFetched = 0
    var fetchedByID: [String] = []
    var global: GlobalData?
    var detail: CoinDetail?
    var coinList: [DirectoryCoin]?
    let directory = CoinDirectory(database)
    // Where each part came from: the base URL, or the origin a redirect led to.
    var listSource = ""
    var marketSource = ""
    var globalSource = ""
    var detailSource = ""
    func add(_ page: MarketPage, _ notes: PayloadNotes) {
      for quote in page.quotes where !seen.contains(quote.id) {
        seen.insert(quote.id)
        quotes.append(quote)
      }
      warnings += notes.allWarnings
    }
    let listIsDue = try request.coinList && directory.listIsDue(now: now)
    do {
      if listIsDue {
        progress("fetching /coins/list")
        let (list, listNotes) = try client.coinList()
        coinList = list
        listSource = client.takeSource()
        warnings += listNotes.allWarnings
      }
      for number in stride(from: 1, through: request.pages, by: 1) {
        progress("fetching /coins/markets page \(number) of \(request.pages)")
        let (page, notes) = try client.marketsPage(vsCurrency: request.vsCurrency, page: number)
        pagesFetched += 1
        add(page, notes)
        if page.quotes.count + page.skipped < CoinGeckoClient.pageSize { break }
      }
      var wanted = Set(held.keys).union(request.coins)
      if let id = request.detailFor { wanted.insert(id) }
      let missing = wanted.subtracting(seen).sorted()
      for start in stride(from: 0, to: missing.count, by: 100) {
        let chunk = Array(missing[start..<min(start + 100, missing.count)])
        progress("fetching \(chunk.count) coin(s) by id")
        let (page, notes) = try client.markets(vsCurrency: request.vsCurrency, ids: chunk)
        add(page, notes)
        fetchedByID += chunk.filter { seen.contains($0) }
      }
      marketSource = client.takeSource()
      for id in missing where !seen.contains(id) {
        let why = held[id] != nil ? "held in portfolio '\(request.portfolio)'" : "asked for"
        warnings.append("CoinGecko returned no market data for '\(id)' (\(why))")
      }
      progress("fetching /global")
      let (globalData, globalNotes) = try client.global()
      global = globalData
      globalSource = client.takeSource()
      warnings += globalNotes.allWarnings
      if let id = request.detailFor {
        progress("fetching /coins/\(id)")
        let (coinDetail, detailNotes) = try client.coinDetail(id: id)
        detail = coinDetail
        detailSource = client.takeSource()
        warnings += detailNotes.allWarnings
      }
    } catch {
      // Every call above throws only CoinGeckoError.
      throw MarketError.refreshFailed(error, latestSnapshot: previous?.fetchedAt)
    }
    let fetchedAt = Timestamp.format(now)
    try database.write {
      if let coinList {
        try directory.store(list: coinList, fetchedAt: fetchedAt, source: listSource)
      }
      _ = try writeMarkets(
        quotes, vsCurrency: request.vsCurrency, fetchedAt: fetchedAt, source: marketSource)
      if let global {
        _ = try MarketRecords.insertGlobal(
          database, global, fetchedAt: fetchedAt, source: globalSource)
      }
      if let detail {
        _ = try writeDetail(detail, fetchedAt: fetchedAt, source: detailSource)
      }
    }
    var outcome = RefreshOutcome(
      fetchedAt: fetchedAt, source: marketSource, vsCurrency: request.vsCurrency,
      coinCount: quotes.count, pagesFetched: pagesFetched, fetchedByID: fetchedByID,
      globalStored: global != nil, detailStored: detail?.id, warnings: warnings)
    outcome.coinListStored = coinList?.count
    return outcome
  }

  // MARK: Reading

  /// The latest snapshot of `vsCurrency`, if any.
  public func latestSnapshot(vsCurrency: String = "usd") throws -> MarketSnapshotRef? {
    try MarketRecords.latestSnapshot(database, vsCurrency: vsCurrency)
  }

  /// The newest cached quote of each coin in `vsCurrency` (price, snapshot time, 24h change,
  /// sparkline), keyed by coin id. With `coinIDs`, only those coins; coins never quoted are
  /// absent from the result.
  public func latestQuotes(for coinIDs: [String]? = nil, vsCurrency: String = "usd") throws
    -> [String: StoredQuote]
  {
    var result: [String: StoredQuote] = [:]
    if let coinIDs {
      for id in Set(coinIDs) {
        if let quote = try MarketRecords.latestQuote(database, coinID: id, vsCurrency: vsCurrency) {
          result[id] = quote
        }
      }
    } else {
      for quote in try MarketRecords.latestQuotes(database, vsCurrency: vsCurrency) {
        result[quote.coinID] = quote
      }
    }
    return result
  }

  /// The newest /global snapshot, if any.
  public func latestGlobal() throws -> GlobalSnapshot? {
    try MarketRecords.latestGlobal(database)
  }

  /// The coins of the latest snapshot (plus held coins missing from it, priced from older
  /// snapshots), searched, sorted and limited as `query` says, with the portfolio's holdings.
  public func coinList(_ query: CoinListQuery) throws -> CoinList {
    try database.read {
      guard
        let snapshot = try MarketRecords.latestSnapshot(database, vsCurrency: query.vsCurrency)
      else { throw MarketError.noMarketData(vsCurrency: query.vsCurrency) }
      let held = try HeldPositions.quantities(store, portfolio: query.portfolio)
      var quotes = try MarketRecords.quotes(database, snapshotID: snapshot.id)
      let listed = Set(quotes.map(\.coinID))
      var older: Set<String> = []
      var withoutPrice: [String] = []
      for id in held.keys.sorted() where !listed.contains(id) {
        if let quote = try MarketRecords.latestQuote(
          database, coinID: id, vsCurrency: query.vsCurrency)
        {
          quotes.append(quote)
          older.insert(id)
        } else {
          withoutPrice.append(id)
        }
      }
      var rows: [CoinList.Row] = []
      for quote in quotes {
        let holding = held[quote.coinID]
        let value = holding.map { quantity in Measure.computing { try quantity * quote.price } }
        rows.append(
          CoinList.Row(
            quote: quote, holding: holding, value: value?.value, unavailable: value?.reason,
            isFromOlderSnapshot: older.contains(quote.coinID)))
      }
      if let search = query.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
        rows = rows.filter { Self.matches($0.quote.quote, search) }
      }
      rows.sort(by: Self.ordering(query.sort))
      if let limit = query.limit { rows = Array(rows.prefix(max(0, limit))) }
      return CoinList(
        snapshot: snapshot, portfolio: query.portfolio, rows: rows,
        heldWithoutPrice: withoutPrice, hasHoldings: !held.isEmpty)
    }
  }

  /// True when the coin's name, symbol or id contains `text`, ignoring case.
  static func matches(_ quote: MarketQuote, _ text: String) -> Bool {
    let needle = text.lowercased()
    return quote.name.lowercased().contains(needle) || quote.symbol.lowercased().contains(needle)
      || quote.id.lowercased().contains(needle)
  }

  /// The "comes before" relation of `sort`: missing values last, ties by rank then id.
  static func ordering(_ sort: CoinSort) -> (CoinList.Row, CoinList.Row) -> Bool {
    func compare<T: Comparable>(_ a: T?, _ b: T?, descending: Bool) -> Bool? {
      switch (a, b) {
      case (nil, nil): return nil
      case (nil, _): return false
      case (_, nil): return true
      case (let a?, let b?):
        if a == b { return nil }
        return descending ? a > b : a < b
      }
    }
    func byRank(_ a: CoinList.Row, _ b: CoinList.Row) -> Bool {
      compare(a.quote.quote.marketCapRank, b.quote.quote.marketCapRank, descending: false)
        ?? (a.quote.coinID < b.quote.coinID)
    }
    return { a, b in
      switch sort {
      case .rank:
        return byRank(a, b)
      case .rankReversed:
        return compare(a.quote.quote.marketCapRank, b.quote.quote.marketCapRank, descending: true)
          ?? (a.quote.coinID < b.quote.coinID)
      case .price:
        return compare(a.quote.price, b.quote.price, descending: true) ?? byRank(a, b)
      case .priceReversed:
        return compare(a.quote.price, b.quote.price, descending: false) ?? byRank(a, b)
      case .holdings:
        return compare(a.value, b.value, descending: true) ?? byRank(a, b)
      case .holdingsReversed:
        return compare(a.value, b.value, descending: false) ?? byRank(a, b)
      }
    }
  }

  /// What the cache holds about `coinID`: its newest quote in `vsCurrency` and newest detail.
  /// Throws `unknownCoin` (66) when it holds nothing at all.
  public func overview(of coinID: String, vsCurrency: String = "usd") throws -> CoinOverview {
    try database.read {
      let coin = try MarketRecords.coin(database, id: coinID)
      let quote = try MarketRecords.latestQuote(database, coinID: coinID, vsCurrency: vsCurrency)
      let detail = try MarketRecords.latestDetail(database, coinID: coinID)
      // The coin directory knows many coins the cache holds nothing about.
      guard coin != nil, quote != nil || detail != nil else {
        throw MarketError.unknownCoin(coinID)
      }
      return CoinOverview(coinID: coinID, coin: coin, quote: quote, detail: detail)
    }
  }

  /// The start of a `--since` window: a date or time as written, or `now` minus a duration.
  public static func start(_ since: String, now: Date) -> Date? {
    if let time = try? Timestamp(parsing: since, .lenient) { return time.date }
    // Nothing is stored before 1970: a longer duration is all of it (not a date before year 0).
    return MarketTime.parseDuration(since).map {
      max(now.addingTimeInterval(-$0), Date(timeIntervalSince1970: 0))
    }
  }

  /// The cached prices of `coinID` in `vsCurrency` since `since`, oldest first: the snapshot
  /// quotes and the daily closes (of the days from the one `since` falls in). Throws
  /// `unknownCoin` (66) when the cache holds no price of it in `vsCurrency` at all.
  public func history(of coinID: String, vsCurrency: String = "usd", since: Date? = nil) throws
    -> CoinHistory
  {
    try database.read {
      let daily = try DailyPriceRecords.history(
        database, coinID: coinID, vsCurrency: vsCurrency,
        from: since.map { CalendarDay(containing: $0).description })
      guard let coin = try MarketRecords.coin(database, id: coinID),
        try !daily.isEmpty
          || MarketRecords.latestQuote(database, coinID: coinID, vsCurrency: vsCurrency) != nil
      else {
        throw MarketError.unknownCoin(coinID)
      }
      let points = try MarketRecords.history(
        database, coinID: coinID, vsCurrency: vsCurrency, since: since.map(Timestamp.format))
      var history = CoinHistory(
        coinID: coinID, coin: coin, vsCurrency: vsCurrency, points: points)
      history.dailyPrices = daily
      return history
    }
  }

  // MARK: Pruning

  /// Removes market and /global snapshots and coin details fetched more than `keepDays` days
  /// before `now`, always keeping the latest market snapshot of each currency, the latest
  /// /global snapshot and the latest detail of each coin.
  public func prune(keepDays: Int, now: Date) throws -> PruneOutcome {
    let cutoff = Timestamp.format(now.addingTimeInterval(-TimeInterval(max(0, keepDays)) * 86_400))
    let counts = try database.write { try MarketRecords.prune(database, before: cutoff) }
    return PruneOutcome(
      cutoff: cutoff, marketSnapshots: counts.marketSnapshots, quotes: counts.quotes,
      globalSnapshots: counts.globalSnapshots, coinDetails: counts.coinDetails)
  }

  // MARK: Freshness

  /// How much older than `maxAge` the snapshot taken at `snapshotAt` is at `now`; nil when it
  /// is fresh enough (or its time cannot be read).
  public static func staleness(of snapshotAt: String, now: Date, maxAge: TimeInterval)
    -> TimeInterval?
  {
    guard let time = try? Timestamp(parsing: snapshotAt, .lenient).date else { return nil }
    let age = now.timeIntervalSince(time)
    return age > maxAge ? age : nil
  }

  /// The error `--strict` raises for the snapshot taken at `snapshotAt` when it is older than
  /// `maxAge` at `now`; nil when it is fresh enough.
  public static func stale(_ snapshotAt: String, now: Date, maxAge: TimeInterval) -> MarketError? {
    staleness(of: snapshotAt, now: now, maxAge: maxAge).map {
      .stale(snapshotAt: snapshotAt, age: $0, maxAge: maxAge)
    }
  }
}

extension StoredQuote {
  /// The change in percent from the sparkline's first known price to its last.
  public var sparklineChange: ExactDecimal? {
    let known = sparkline.compactMap { $0 }
    guard let first = known.first, let last = known.last else { return nil }
    return try? ((last - first) / first) * ExactDecimal.hundred
  }
}
