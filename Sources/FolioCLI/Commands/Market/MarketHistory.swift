import FolioService
import FolioStorage
import Foundation

/// `folio market history`: fetches daily closing prices of the past from CoinGecko.
struct MarketHistory: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "history",
    abstract: "Fetch daily closing prices of the past from CoinGecko.",
    discussion: """
      Fetches /coins/{id}/market_chart/range for the coins named with --coins, or (--held, the
      default) every coin the portfolio held at any time since --since, from --since (default:
      the day of the portfolio's first trade) through yesterday (UTC), and stores one closing
      price per coin and day. Only days not stored or fetched before are asked for, so a second
      run fetches nothing new. The free CoinGecko API serves the past 365 days: without
      COINGECKO_PRO_API_KEY earlier days are not asked for, and a warning says so (import saved
      market_chart files with 'folio market import FILE --coin ID' for those). HTTP 429 is
      retried honouring Retry-After. Each coin is stored as soon as it is fetched: when one
      fails, the others stay stored and the command names the coins not fetched and the
      command that fetches them (exit 69). --vs defaults to the portfolio's currency.
      """, createsDatabase: true)

  @OptionGroup var currency: PortfolioCurrencyOption
  @Option(valueName: "id,...", help: "The coins (ids or symbols) to fetch.") var coins: String?
  @Flag(help: "The coins the portfolio held at any time since --since (the default).")
  var held: Bool
  @Option(help: "The first day (default: the portfolio's first trade).") var since: CalendarDay?

  /// The coins --coins names, as written.
  var named: [String] {
    (coins ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  func validate() throws {
    if held, coins != nil { throw ValidationError("give --coins or --held, not both") }
    if coins != nil, named.isEmpty { throw ValidationError("--coins names no coin") }
  }

  func run(_ context: Context) throws {
    let configuration = try CoinGeckoConfiguration.fromEnvironment(context.environment)
    let store = try context.store()
    var request = HistoryRequest()
    request.vsCurrency = try currency.vsCurrency(context)
    request.since = since
    var ids: [String] = []
    for text in named {
      let id = try context.resolve(text, in: store)
      if !ids.contains(id) { ids.append(id) }
    }
    request.coins = ids
    if ids.isEmpty { request.portfolio = try context.portfolio().name }
    let client = CoinGeckoClient(configuration: configuration)
    let progress = ProgressLine(context)
    defer { progress.finish() }
    do {
      let outcome = try PriceHistory(store).fetch(
        request, client: client, now: context.now, progress: progress.show)
      progress.finish()
      report(outcome, context)
    } catch var error as HistoryIncomplete {
      progress.finish()
      report(error.outcome, context)
      // The command to run again names the same database.
      if let database = context.globals.database {
        error.globalArguments = ["--db", Demo.quoted(database)]
      }
      throw error
    }
  }

  func report(_ outcome: HistoryOutcome, _ context: Context) {
    context.warn(all: outcome.warnings)
    if let from = outcome.freeTierFrom {
      context.warn(
        "the free CoinGecko API serves only the past \(PriceHistory.freeTierDays) days: "
          + "days before \(from) were not fetched (set COINGECKO_PRO_API_KEY for older days, or "
          + "import saved market_chart files with 'folio market import FILE --coin ID')")
    }
    let currency = outcome.vsCurrency.uppercased()
    for coin in outcome.coins {
      var line = "\(coin.coinID): "
      if coin.failed {
        line += "not fetched"
        if let first = coin.firstDay, let last = coin.lastDay {
          line += " (\(coin.stored) day(s) from \(first) to \(last) stored before the failure)"
        }
      } else if let first = coin.firstDay, let last = coin.lastDay {
        line += "\(coin.stored) day(s) in \(currency) stored (\(first) to \(last))"
      } else if coin.requests == 0 {
        line += "up to date"
      } else {
        line += "no new day with a price"
      }
      context.print(line)
    }
  }
}
