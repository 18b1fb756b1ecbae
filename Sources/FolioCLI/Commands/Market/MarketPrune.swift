import FolioService

/// `folio market prune --keep-days N`: removes old snapshots.
struct MarketPrune: RunnableCommand {
  static let spec = CommandSpec(
    name: "prune",
    abstract: "Remove snapshots older than N days (the latest ones are always kept).",
    discussion: """
      Removes market and /global snapshots and coin details fetched more than N days ago,
      except the latest market snapshot of each currency, the latest /global snapshot and the
      latest details of each coin.
      """,
    options: [.value("keep-days", "n", help: "Keep snapshots of the last N days (required).")],
    make: { try Self($0) })

  let keepDays: Int

  init(_ values: ParsedValues) throws {
    guard
      let days = try values.value(
        "keep-days", expected: "a whole number of days from 0 to 36500",
        { Int($0).flatMap { (0...36_500).contains($0) ? $0 : nil } })
    else {
      throw UsageError("missing option '--keep-days <n>'", commandPath: values.path)
    }
    keepDays = days
  }

  func run(_ context: Context) throws {
    let outcome = try MarketData(context.existingStore()).prune(
      keepDays: keepDays, now: context.now)
    context.print(
      "removed \(outcome.marketSnapshots) market snapshot(s) (\(outcome.quotes) quotes), "
        + "\(outcome.globalSnapshots) /global snapshot(s) and \(outcome.coinDetails) coin "
        + "detail(s) fetched before \(outcome.cutoff); the latest of each were kept")
  }
}
