import FolioService

/// `folio market prune --keep-days N`: removes old snapshots.
struct MarketPrune: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "prune",
    abstract: "Remove snapshots older than N days (the latest ones are always kept).",
    discussion: """
      Removes market and /global snapshots and coin details fetched more than N days ago,
      except the latest market snapshot of each currency, the latest /global snapshot and the
      latest details of each coin.
      """)

  @Option(help: "Keep snapshots of the last N days (required).") var keepDays: Days

  /// A number of days to keep: 0 to 36500 (a century).
  struct Days: ExpressibleByArgument {
    let value: Int

    init?(argument: String) {
      guard let days = Int(argument), (0...36_500).contains(days) else { return nil }
      value = days
    }

    static let expected = "a whole number of days from 0 to 36500"
    static let placeholder: String? = "n"
  }

  func run(_ context: Context) throws {
    let outcome = try MarketData(context.existingStore()).prune(
      keepDays: keepDays.value, now: context.now)
    context.print(
      "removed \(outcome.marketSnapshots) market snapshot(s) (\(outcome.quotes) quotes), "
        + "\(outcome.globalSnapshots) /global snapshot(s) and \(outcome.coinDetails) coin "
        + "detail(s) fetched before \(outcome.cutoff); the latest of each were kept")
  }
}
