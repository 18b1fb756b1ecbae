import FolioService
import FolioStorage

/// `folio stats`: Market Cap, 24h Volume, BTC Dominance and Portfolio Value.
struct Stats: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "stats",
    abstract: "Show Market Cap, 24h Volume, BTC Dominance and Portfolio Value with 24h changes.",
    discussion: """
      The market figures come from the latest /global snapshot, the portfolio's from its
      holdings at the latest cached price of each coin in the portfolio's currency. Portfolio
      24h change = (Σ value − Σ value / (1 + pct24h / 100)) / Σ previous × 100. A figure that
      cannot be computed (no snapshot, an empty portfolio, a held coin without a price, a coin
      at −100%) reads n/a and the reason is printed; held coins without a price are listed as
      unpriced and not counted in the value. Market cap and volume are abbreviated
      ($1.61Tr, $62.10Bn, $12.35M, $123.46K).
      """)

  enum Format: String, OutputFormat { case text, json }

  @Option var format = Format.text
  @OptionGroup var freshness: PriceFreshness

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    let report = try MarketData(store).statistics(of: context.portfolio())
    if let snapshot = report.snapshot { try freshness.check(snapshot.fetchedAt, context) }
    switch format {
    case .json: context.print(Self.json(report).rendered())
    case .text:
      context.out.write(Self.text(report, useColor: context.useColor, width: context.width))
    }
  }

  static func text(_ report: StatisticsReport, useColor: Bool, width: Int) -> String {
    let statistics = report.statistics
    var output = ReportText.paragraphs(
      [
        "Statistics of portfolio '\(report.portfolio.name)' "
          + "(\(report.portfolio.currency.uppercased()))"
      ] + [report.snapshot.map(MarketFormat.snapshotLine)].compactMap { $0 }
        + [statistics.globalAt.map { "Market totals as of \($0) (/global)" }].compactMap { $0 },
      width: width)
    output += "\n"
    output += ReportText.text(
      ReportFormat.statisticsTable(statistics), useColor: useColor, width: width)
    let notes = ReportFormat.notes(statistics)
    if !notes.isEmpty { output += "\n" + ReportText.paragraphs(notes, width: width) }
    return output
  }

  /// A figure as `{"value": "…", "unavailable": null}` or `{"value": null, "unavailable": "…"}`.
  static func json(_ measure: Measure) -> JSONValue {
    .object([("value", .decimal(measure.value)), ("unavailable", .string(measure.reason))])
  }

  static func json(_ statistics: PortfolioStatistics) -> JSONValue {
    .object([
      ("market_cap", json(statistics.marketCap)),
      ("market_cap_change_24h_percent", json(statistics.marketCapChange24h)),
      ("volume_24h", json(statistics.volume24h)),
      ("btc_dominance_percent", json(statistics.btcDominance)),
      ("portfolio_value", json(statistics.portfolioValue)),
      ("portfolio_change_24h_percent", json(statistics.portfolioChange24h)),
      ("unpriced", .array(statistics.unpriced.map { .string($0) })),
      ("global_at", .string(statistics.globalAt)),
    ])
  }

  static func json(_ report: StatisticsReport) -> JSONValue {
    .object([
      ("portfolio", .string(report.portfolio.name)),
      ("currency", .string(report.portfolio.currency)),
      ("snapshot_at", .string(report.snapshot?.fetchedAt)),
      ("statistics", json(report.statistics)),
    ])
  }
}
