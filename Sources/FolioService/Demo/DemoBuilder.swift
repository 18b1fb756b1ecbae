import FolioStorage
import Foundation

/// What `folio demo` put in its database.
public struct DemoOutcome: Sendable {
  /// The portfolios, by name, with their trade counts.
  public let portfolios: [(name: String, trades: Int)]
  public let locations: Int
  /// Market snapshots, one a day.
  public let marketSnapshots: Int
  /// Rows of the daily history saved for all portfolios together.
  public var historyRows: Int { historyDays.reduce(0, +) }
  /// The days of daily history saved for each portfolio, in the order of `portfolios`.
  public let historyDays: [Int]
  public let firstDay: String
}

/// Why the demo could not be built.
public enum DemoError: LocalizedError, ClassifiedError, Equatable {
  /// The database already holds data; the demo only fills a new one.
  case notEmpty(String)
  /// A fixture embedded in the binary is missing or unreadable (a build problem).
  case brokenFixture(String, reason: String)

  public var kind: FailureKind {
    switch self {
    case .notEmpty: return .badData
    case .brokenFixture: return .internalFailure
    }
  }

  public var errorDescription: String? {
    switch self {
    case .notEmpty(let what):
      return "the demo only fills a new database, and this one already holds \(what); "
        + "run 'folio demo' without --db, or give a new file"
    case .brokenFixture(let name, let reason):
      return "the demo fixture \(name) built into this folio cannot be used: \(reason)"
    }
  }
}

/// Builds the demo database from the fixtures built into the binary (see the EmbedFixtures
/// plugin): the five locations, a made-up daily market history ending with today's fixture
/// prices, three months of trades in two portfolios (sells, fees, locations, a back-dated
/// trade) and the saved daily history of both. Deterministic apart from the clock.
public struct DemoBuilder {
  let store: Store
  var database: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// How many days the market history and the trades go back.
  public static let days = 90

  public static let savingsPortfolio = "savings"

  /// One trade of the demo: `daysBack` days before today at `time` (UTC), or now when `time`
  /// is nil; the price is the made-up market price of that day.
  struct Entry {
    let portfolio: String
    let daysBack: Int
    let time: String?
    let side: TradeSide
    let quantity: String
    let coin: String
    let fee: String
    let location: String?
    let note: String?

    /// `side` `quantity` of `coin` (`.buy, "0.35", "bitcoin"`) in `portfolio`.
    init(
      _ portfolio: String, _ daysBack: Int, _ time: String?, _ side: TradeSide,
      _ quantity: String, _ coin: String, fee: String, at location: String? = nil,
      note: String? = nil
    ) {
      self.portfolio = portfolio
      self.daysBack = daysBack
      self.time = time
      self.side = side
      self.quantity = quantity
      self.coin = coin
      self.fee = fee
      self.location = location
      self.note = note
    }
  }

  /// The trades, in the order they are recorded: the last one is back-dated.
  static let entries: [Entry] = {
    var entries = [
      Entry(
        "main", 88, "09:12", .buy, "0.35", "bitcoin", fee: "9.8", at: "Colosseum, Rome",
        note: "first buy, on holiday in Rome"),
      Entry("main", 84, "14:30", .buy, "4", "ethereum", fee: "5.2"),
      Entry("main", 78, "10:05", .buy, "60", "solana", fee: "2.1"),
      Entry("main", 72, "16:45", .buy, "300", "chainlink", fee: "3", at: "Eiffel Tower, Paris"),
      Entry("main", 68, "11:20", .buy, "0.15", "bitcoin", fee: "4.5"),
      Entry("main", 57, "13:00", .sell, "1.5", "ethereum", fee: "3.9", note: "rebalance"),
      Entry("main", 51, "09:40", .buy, "5000", "cardano", fee: "1.5"),
      Entry("main", 41, "15:15", .sell, "20", "solana", fee: "1.2", note: "took some profit"),
      Entry("main", 35, "10:30", .buy, "1", "ethereum", fee: "2.6", at: "Louvre Museum, Paris"),
      Entry("main", 25, "17:05", .sell, "0.1", "bitcoin", fee: "6"),
      Entry("main", 18, "12:10", .buy, "25000", "dogecoin", fee: "1"),
      Entry("main", 10, "08:55", .sell, "100", "chainlink", fee: "1.4"),
      Entry("main", 4, "19:20", .buy, "250", "polkadot", fee: "0.8", at: "Trevi Fountain, Rome"),
      Entry("main", 0, nil, .buy, "5", "solana", fee: "0.4"),
    ]
    // The savings plan: bitcoin and ether every two weeks, cash parked in tether for a while.
    let savings = savingsPortfolio
    for daysBack in stride(from: 89, through: 5, by: -14) {
      entries += [
        Entry(
          savings, daysBack, "08:00", .buy, "0.01", "bitcoin", fee: "0.99", note: "savings plan"),
        Entry(
          savings, daysBack, "08:01", .buy, "0.15", "ethereum", fee: "0.99", note: "savings plan"),
      ]
    }
    entries += [
      Entry(savings, 52, "18:30", .buy, "3000", "tether", fee: "0", note: "cash parked in USDT"),
      Entry(savings, 32, "09:15", .sell, "0.2", "ethereum", fee: "0.5"),
      Entry(savings, 21, "16:00", .sell, "1200", "tether", fee: "1", note: "moved to the bank"),
      // Recorded last but executed long ago: the ledger rebooks everything after it.
      Entry(
        "main", 75, "13:45", .buy, "0.5", "ethereum", fee: "1.1", at: "Pantheon, Rome",
        note: "back-dated: the receipt turned up later"),
    ]
    return entries
  }()

  /// A new file in the system's temporary folder, named after the time and the process.
  public static func defaultPath(now: Date) -> String {
    let folder = NSTemporaryDirectory()
    return (folder.hasSuffix("/") ? folder : folder + "/")
      + "folio-demo-\(Timestamp.compact(now))-\(ProcessInfo.processInfo.processIdentifier).sqlite3"
  }

  /// Creates the demo database at `path`, which must not exist yet, and returns what it holds
  /// with today's report of the default portfolio. It is built in a file with no name, named
  /// only once complete (`NewDatabaseFile`), so a failed demo leaves nothing behind. Where the
  /// system cannot build such a file, the file the demo made at `path` is removed on failure,
  /// and only that one: never a database another command made there meanwhile.
  public static func create(at location: StoreLocation, now: Date) throws -> (
    DemoOutcome, DailyReport
  ) {
    let path = location.path
    guard !FileManager.default.fileExists(atPath: path) else {
      throw FileError.alreadyExists(path)
    }
    if let result = try Store.building(location, now: now, { try fill($0, now: now) }) {
      return result
    }
    var made: Database.MadeFile?
    do {
      let store = try Store(location, now: now)
      made = store.database.made
      return try fill(store, now: now)
    } catch {
      if let made, made.file.isAt(path) { Database.removeFiles(of: path) }
      throw error
    }
  }

  /// Fills the new database of `store` and returns what it holds with today's report of the
  /// default portfolio.
  private static func fill(_ store: Store, now: Date) throws -> (DemoOutcome, DailyReport) {
    let outcome = try DemoBuilder(store).build(now: now)
    let main = try PortfolioService(store).resolve(nil)
    let report = try ReportService(store).report(
      main, day: CalendarDay(containing: now), now: now)
    return (outcome, report)
  }

  /// Fills the (new, empty) database. Everything is written in one transaction.
  public func build(now: Date) throws -> DemoOutcome {
    // Checked again inside the transaction; this spares the work on a database in use.
    try database.read { try refuseUnlessEmpty() }
    let stamp = Timestamp.format(now)
    let markets = try Self.document("coingecko/markets_usd.json")
    let global = try Self.document("coingecko/global_usd.json")
    guard case .markets(let page) = markets, case .global(let globalData) = global else {
      throw DemoError.brokenFixture("coingecko/*.json", reason: "unexpected shape")
    }
    let details = try ["coingecko/coin_bitcoin.json", "coingecko/coin_ethereum.json"].map {
      name -> CoinDetail in
      guard case .coinDetail(let detail) = try Self.document(name) else {
        throw DemoError.brokenFixture(name, reason: "not a /coins/{id} response")
      }
      return detail
    }
    let locations = try LocationBook.readEntries(
      data: Data(try Self.fixture("locations.json")), path: "locations.json")
    let history = try DemoMarket(
      base: page.quotes, global: globalData, days: Self.days, now: now,
      sparklineCoins: Set(Self.entries.map(\.coin)))
    let today = CalendarDay(containing: now)
    let firstDay = today.adding(days: -Self.days)

    return try database.write {
      try refuseUnlessEmpty()
      // Locations.
      let book = LocationBook(store)
      for entry in locations { _ = try book.insert(entry.valid, input: entry.input, now: now) }
      // Market history, oldest first; today's /global is the fixture's own.
      let market = MarketData(store)
      for k in stride(from: Self.days, through: 0, by: -1) {
        let at = Timestamp.format(history.time(k))
        let source = k == 0 ? "import:demo/markets_usd.json" : "import:demo/made-up-history"
        _ = try market.writeMarkets(
          try history.quotes(daysBack: k), vsCurrency: "usd", fetchedAt: at, source: source)
        var data = k == 0 ? globalData : try history.global(daysBack: k)
        if k == 0 { data.updatedAt = at }
        _ = try MarketRecords.insertGlobal(
          database, data, fetchedAt: at,
          source: k == 0 ? "import:demo/global_usd.json" : "import:demo/made-up-history")
      }
      for detail in details {
        _ = try market.writeDetail(
          detail, fetchedAt: stamp, source: "import:demo/coin_\(detail.id).json")
      }
      // Portfolios and trades.
      let main = try PortfolioService(store).resolve(nil)
      let savings = try Portfolio.insert(
        name: Self.savingsPortfolio, currency: "usd", method: .average, createdAt: stamp,
        database)
      let portfolios = [main.name: main, savings.name: savings]
      let trades = TradeService(store)
      var counts: [String: Int] = [:]
      for entry in Self.entries {
        guard let portfolio = portfolios[entry.portfolio],
          let price = history.price(entry.coin, daysBack: entry.daysBack)
        else { throw DemoError.brokenFixture("coingecko/markets_usd.json", reason: entry.coin) }
        let day = today.adding(days: -entry.daysBack)
        let draft = TradeDraft(
          side: entry.side, coin: entry.coin, quantity: entry.quantity, price: price.description,
          fee: entry.fee, date: entry.time.map { "\(day)T\($0):00Z" }, note: entry.note)
        _ = try trades.record(draft, location: entry.location, in: portfolio, now: now)
        counts[portfolio.name, default: 0] += 1
      }
      // The saved daily history of both portfolios.
      var historyDays: [Int] = []
      for portfolio in [main, savings] {
        historyDays.append(
          try ReportService(store).backfillDays(
            portfolio, since: firstDay, until: today, days: .missing, now: now
          ).saved.count)
      }
      return DemoOutcome(
        portfolios: [main, savings].map { ($0.name, counts[$0.name] ?? 0) },
        locations: locations.count, marketSnapshots: Self.days + 1, historyDays: historyDays,
        firstDay: firstDay.description)
    }
  }

  /// Refuses a database that already holds trades, locations or market data.
  private func refuseUnlessEmpty() throws {
    for (table, what) in [
      ("trades", "trades"), ("locations", "locations"), ("market_snapshots", "market data"),
    ] where !(try database.isEmpty(table: table)) {
      throw DemoError.notEmpty(what)
    }
  }

  static func fixture(_ name: String) throws -> [UInt8] {
    guard let file = embeddedFixtureFiles.first(where: { $0.name == name }) else {
      throw DemoError.brokenFixture(name, reason: "it is not built in")
    }
    guard let data = Data(base64Encoded: file.base64) else {
      throw DemoError.brokenFixture(name, reason: "its embedded bytes are damaged")
    }
    return [UInt8](data)
  }

  /// An embedded CoinGecko fixture, parsed.
  static func document(_ name: String) throws -> CoinGeckoDocument {
    let bytes = try fixture(name)
    do {
      var notes = PayloadNotes()
      return try CoinGeckoDocument.read(JSONValue.parse(bytes), notes: &notes)
    } catch {
      throw DemoError.brokenFixture(name, reason: String(describing: error))
    }
  }
}
