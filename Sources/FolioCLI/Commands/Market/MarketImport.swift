import FolioService
import FolioStorage
import Foundation

/// `folio market import FILE...`: stores saved CoinGecko responses as snapshots.
struct MarketImport: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract:
      "Import saved CoinGecko responses (/coins/markets, /global, /coins/{id}, /coins/list, market_chart).",
    discussion: """
      Each file is recognised by its shape: a /coins/markets array, a /global object, a
      /coins/{id} object, or a /coins/list array (id, symbol and name only), whose coins join the
      coin directory. A coin with a null price is skipped with a warning. A file that is not
      valid JSON or not one of those shapes stops the command (exit 65) before anything is
      stored; a missing file exits 66. Each file is stored in one transaction.
      The snapshot time is --at, else the data's own last_updated / updated_at, else now;
      more than a day after now is refused (exit 65). Importing a file again adds nothing.
      A /coins/markets page does not say its currency, so its prices are checked against
      --vs: USD stablecoins (tether, usd-coin, dai...) must be priced near 1 USD at the rates
      of a /global taken within a day (without one, within 3% of 1 when imported as USD);
      a page without them must be within 5% of the latest snapshot in that currency taken
      within a day. A page that does not match is refused (exit 65) naming the currency it
      looks like; --force imports it anyway.
      A /coins/{id}/market_chart response ({"prices": [[ms, price], ...], ...}) holds daily
      prices: give its coin with --coin (an id or symbol of the coin directory; another is
      refused, exit 66) and its currency with --vs. Each complete UTC day is
      stored once as that day's closing price (the last point up to the next 00:00:00Z); a day
      already stored is kept.
      """, createsDatabase: true)

  @Argument(name: "file", help: "A saved response.") var files: [String]
  @OptionGroup var currency: CurrencyOption
  @Option(help: "The snapshot time, such as 2024-01-24T00:30:00Z.") var at: Timestamp?
  @Flag(help: "Import a markets page even if its prices do not look like --vs.") var force: Bool
  @Option(valueName: "id", help: "The coin of market_chart files (an id or symbol).")
  var coin: String?

  func run(_ context: Context) throws {
    // A refused import into a database this command creates leaves no new file behind.
    try context.withStore(dryRun: false) { try run(context, $0) }
  }

  private func run(_ context: Context, _ store: Store) throws {
    // Prices are stored only under a coin of the directory: a typo is refused (66), not
    // stored under an id made up from it.
    let coinID = try coin.map { text in
      let coin = try CoinDirectory(store).resolve(text, unknown: .known)
      if let note = coin.note { context.note(note) }
      return coin.id
    }
    let outcomes = try MarketData(store).importFiles(
      files, vsCurrency: currency.vsCurrency, at: at?.date, now: context.now, force: force,
      coin: coinID)
    for outcome in outcomes {
      context.warn(all: outcome.warnings.map { "\(FolioCLI.visible(outcome.file)): \($0)" })
      context.print(Self.describe(outcome))
    }
  }

  static func describe(_ outcome: ImportOutcome) -> String {
    // A file name is the user's text: control characters in it are shown, never run.
    let file = FolioCLI.visible(outcome.file)
    if outcome.kind == PriceSeries.kindName {
      let coin = outcome.coinID ?? ""
      let currency = (outcome.vsCurrency ?? "").uppercased()
      var text = "\(file): \(outcome.added) daily price(s) of \(coin) in \(currency) stored"
      if !outcome.fetchedAt.isEmpty { text += " (\(outcome.fetchedAt))" }
      if outcome.alreadyPresent > 0 { text += ", \(outcome.alreadyPresent) already there" }
      return text
    }
    let target = "snapshot \(outcome.fetchedAt)"
    if outcome.alreadyImported {
      return "\(file): already imported (\(outcome.kind), \(target)); nothing added"
    }
    switch (outcome.vsCurrency, outcome.coinID) {
    case (let currency?, _):
      var text =
        "\(file): \(outcome.added) coin(s) in \(currency.uppercased()) stored in \(target)"
      if outcome.alreadyPresent > 0 { text += ", \(outcome.alreadyPresent) already there" }
      if outcome.skipped > 0 { text += ", \(outcome.skipped) skipped" }
      return text
    case (nil, let coin?):
      return "\(file): details of \(coin) stored (\(target))"
    case (nil, nil) where outcome.kind == "/coins/list":
      return "\(file): \(outcome.added) coin(s) stored in the coin directory"
    case (nil, nil):
      return "\(file): /global stored (\(target))"
    }
  }
}

/// `--at`: a snapshot time, a date or an ISO-8601 time from 1970 to 9999.
extension Timestamp: ExpressibleByArgument {
  init?(argument: String) {
    guard let time = try? Timestamp(parsing: argument, .lenient) else { return nil }
    self = time
  }

  static var expected: String {
    "a time from 1970 to 9999 such as 2024-01-24T00:30:00Z or 2024-01-24"
  }
  static var placeholder: String? { "time" }
}
