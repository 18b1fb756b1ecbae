import FolioService
import Foundation

/// `folio market refresh`: fetches a new snapshot from CoinGecko.
struct MarketRefresh: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "refresh",
    abstract: "Fetch current prices from CoinGecko and store them as a new snapshot.",
    discussion: """
      Fetches /coins/markets pages of 250 coins (with the 7-day sparkline), every coin of the
      portfolio, or named with --coins, that is not on those pages, and /global; and
      /coins/list into the coin directory when it was last fetched a day ago or more. Nothing is
      stored unless every request succeeds, so a failed refresh leaves the previous snapshot
      the latest. HTTP 429 and 5xx are retried with backoff (honouring Retry-After); after that
      the command exits 69.
      The requests are made by folio-fetch, folio's network helper, found beside the folio
      executable (or at $FOLIO_FETCH); without it the command exits 69.
      Environment: FOLIO_COINGECKO_URL, COINGECKO_API_KEY, COINGECKO_PRO_API_KEY (see README).
      """, createsDatabase: true)

  @OptionGroup var currency: CurrencyOption
  @Option(help: "How many pages of 250 coins to fetch (default 1; 0 to 40).") var pages = Pages(1)
  @Option(valueName: "id,...", help: "More coins (ids or symbols) to fetch by id.") var coins = ""

  /// How many pages of 250 coins to fetch: 0 to 40.
  struct Pages: ExpressibleByArgument {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
      guard let pages = Int(argument), (0...40).contains(pages) else { return nil }
      value = pages
    }

    static let expected = "a whole number from 0 to 40"
    static let placeholder: String? = "n"
  }

  func run(_ context: Context) throws {
    let named = coins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let outcome = try Self.refresh(
      context, vsCurrency: currency.vsCurrency, pages: pages.value,
      coins: named.filter { !$0.isEmpty }, detailFor: nil, coinList: true)
    context.warn(all: outcome.warnings)
    var parts = ["\(outcome.coinCount) coin(s) in \(outcome.vsCurrency.uppercased())"]
    parts.append("\(outcome.pagesFetched) page(s)")
    if !outcome.fetchedByID.isEmpty {
      parts.append("\(outcome.fetchedByID.count) fetched by id")
    }
    if outcome.globalStored { parts.append("/global") }
    if let listed = outcome.coinListStored { parts.append("/coins/list (\(listed) coin(s))") }
    context.print(
      "stored snapshot \(outcome.fetchedAt) "
        + "(\(MarketFormat.source(outcome.source))): " + parts.joined(separator: ", "))
  }

  /// Runs a refresh with the environment's CoinGecko settings, fetching the coins held in
  /// `portfolio` (default: the one in use); shared with `coins show --refresh` and `daily`.
  static func refresh(
    _ context: Context, vsCurrency: String, pages: Int, coins: [String], detailFor: String?,
    portfolio: String? = nil, coinList: Bool = false
  ) throws -> RefreshOutcome {
    let configuration = try CoinGeckoConfiguration.fromEnvironment(context.environment)
    let store = try context.store()
    let service = MarketData(store)
    var request = RefreshRequest()
    request.vsCurrency = vsCurrency
    request.pages = pages
    request.coins = try coins.map { try context.resolve($0, in: store) }
    request.portfolio = try portfolio ?? context.portfolio().name
    request.detailFor = detailFor
    request.coinList = coinList
    let client = CoinGeckoClient(configuration: configuration)
    let progress = ProgressLine(context)
    defer { progress.finish() }
    return try service.refresh(
      request, client: client, now: context.now, progress: progress.show)
  }
}
