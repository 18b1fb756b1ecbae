import FolioService
import FolioStorage

/// `folio coins show ID|SYMBOL`: one coin's overview, statistics, description, links and chart.
struct CoinsShow: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show one coin: price, statistics, 7-day chart, description and links.",
    discussion: """
      With --refresh, fetches a new snapshot first (as 'folio market refresh' does, with this
      coin included) and the coin's /coins/{id} details.
      """)

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "A CoinGecko id (bitcoin) or a symbol (BTC).") var coin: String
  @Flag(help: "Fetch current data and the coin's details from CoinGecko first.") var refresh: Bool
  @Option var format = Format.text
  @OptionGroup var currency: CurrencyOption
  @OptionGroup var freshness: PriceFreshness

  var vsCurrency: String { currency.vsCurrency }

  /// With --refresh it stores a snapshot, so it may create the database.
  var createsDatabase: Bool { refresh }

  func run(_ context: Context) throws {
    let store = try context.store()
    let service = MarketData(store)
    let id = try context.resolve(coin, in: store)
    if refresh {
      let outcome = try MarketRefresh.refresh(
        context, vsCurrency: vsCurrency, pages: 1, coins: [], detailFor: id)
      context.warn(all: outcome.warnings)
    }
    let overview = try service.overview(of: id, vsCurrency: vsCurrency)
    if let quote = overview.quote { try freshness.check(quote.snapshotAt, context) }
    switch format {
    case .json: context.print(json(overview).rendered())
    case .text: context.out.write(text(overview, useColor: context.useColor, width: context.width))
    }
  }

  // MARK: - Text

  private func text(_ overview: CoinOverview, useColor: Bool, width: Int) -> String {
    func prose(_ text: String, margin: String = "") -> String {
      TextLayout.fill(margin + text, width: width, continuation: margin + "  ")
    }
    let name = (overview.coin?.name ?? overview.coinID).shown
    let symbol = (overview.coin?.symbol ?? "").uppercased().shown
    var lines = ["\(name)\(symbol.isEmpty ? "" : " (\(symbol))")  ·  \(overview.coinID)"]
    if let stored = overview.quote {
      lines += quoteLines(stored, overview.detail?.detail, useColor: useColor, width: width)
    } else {
      lines.append(
        prose(
          "No price in \(vsCurrency.uppercased()) is cached; run "
            + "'folio coins show \(overview.coinID) --refresh'."))
      if let detail = overview.detail?.detail {
        lines += ["", "Additional details"] + technicalLines(detail)
      }
    }
    if let stored = overview.detail {
      let detail = stored.detail
      if let description = detail.description {
        lines += ["", "About (details as of \(stored.fetchedAt))"]
        // Each paragraph refilled at a margin of two columns; paragraphs stay apart.
        lines += description.components(separatedBy: "\n").map { paragraph in
          let words = paragraph.split(separator: " ").joined(separator: " ")
          return words.isEmpty
            ? "" : TextLayout.fill("  " + words.shown, width: width, continuation: "  ")
        }
      }
      var links: [String] = []
      if let homepage = detail.homepage { links.append("  Homepage   \(homepage.shown)") }
      if let subreddit = detail.subredditURL { links.append("  Subreddit  \(subreddit.shown)") }
      if !links.isEmpty { lines += ["", "Links"] + links }
    } else {
      lines += [
        "",
        prose(
          "No details cached; run 'folio coins show \(overview.coinID) --refresh' to fetch them."),
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func quoteLines(
    _ stored: StoredQuote, _ detail: CoinDetail?, useColor: Bool, width: Int
  ) -> [String] {
    let quote = stored.quote
    let currency = stored.snapshot.vsCurrency
    func money(_ value: ExactDecimal?) -> String {
      Formatting.money(value, .price, in: currency, missing: "—")
    }
    func big(_ value: ExactDecimal?) -> String {
      Formatting.money(value, .abbreviated, in: currency, missing: "—")
    }
    func change(_ amount: String, _ percent: ExactDecimal?) -> String {
      let text = "\(amount) (\(Formatting.percent(percent, missing: "—")))"
      return MarketFormat.colored(text, up: MarketFormat.direction(percent), useColor)
    }
    var lines = [
      TextLayout.fill(MarketFormat.snapshotLine(stored.snapshot), width: width, continuation: "  "),
      "", "Overview",
    ]
    lines.append(row("Current price", money(quote.currentPrice)))
    lines.append(
      row("Market cap", change(big(quote.marketCap), quote.marketCapChangePercentage24h)))
    lines.append(row("Rank", quote.marketCapRank.map { "#\($0)" } ?? "—"))
    lines.append(row("Volume", big(quote.totalVolume)))
    lines += ["", "Additional details"]
    lines.append(row("24h high", money(quote.high24h)))
    lines.append(row("24h low", money(quote.low24h)))
    lines.append(
      row("24h price change", change(money(quote.priceChange24h), quote.change24hPercent)))
    lines.append(
      row(
        "24h market cap change",
        change(big(quote.marketCapChange24h), quote.marketCapChangePercentage24h)))
    if let detail { lines += technicalLines(detail) }
    lines += chartLines(stored, useColor: useColor, width: width)
    return lines
  }

  private func technicalLines(_ detail: CoinDetail) -> [String] {
    [
      row("Block time", detail.blockTimeInMinutes.map { "\($0) min" } ?? "—"),
      row("Hashing algorithm", detail.hashingAlgorithm?.shown ?? "—"),
    ]
  }

  private func chartLines(_ stored: StoredQuote, useColor: Bool, width: Int) -> [String] {
    let points = stored.sparkline
    let known = points.compactMap { $0 }
    guard let first = known.first, let last = known.last else { return [] }
    let currency = stored.snapshot.vsCurrency
    let up = last >= first
    func price(_ value: ExactDecimal) -> String { Formatting.money(value, .price, in: currency) }
    let change = MarketFormat.colored(
      Formatting.percent(stored.sparklineChange, missing: "—"), up: up, useColor)
    return [
      "",
      "7 days  \(price(first)) → \(price(last)) (\(change))",
    ]
      + Formatting.chart(
        points, width: 56, fitting: width - 2, height: 6, gaps: .carried, label: price,
        style: { MarketFormat.colored($0, up: up, useColor) }
      ).map { "  " + $0 }
  }

  private func row(_ label: String, _ value: String) -> String {
    "  " + label + String(repeating: " ", count: max(1, 24 - label.count)) + value
  }

  // MARK: - JSON

  private func json(_ overview: CoinOverview) -> JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("id", .string(overview.coinID)),
      ("symbol", .string(overview.coin?.symbol)),
      ("name", .string(overview.coin?.name)),
      ("image", .string(overview.coin?.imageURL)),
      ("vs_currency", .string(vsCurrency)),
    ]
    if let stored = overview.quote {
      let quote = stored.quote
      pairs += [
        ("snapshot_at", .string(stored.snapshotAt)),
        ("source", .string(stored.snapshot.source)),
        ("current_price", .decimal(quote.currentPrice)),
        ("market_cap", .decimal(quote.marketCap)),
        ("market_cap_rank", .int(quote.marketCapRank)),
        ("fully_diluted_valuation", .decimal(quote.fullyDilutedValuation)),
        ("total_volume", .decimal(quote.totalVolume)),
        ("high_24h", .decimal(quote.high24h)),
        ("low_24h", .decimal(quote.low24h)),
        ("price_change_24h", .decimal(quote.priceChange24h)),
        ("price_change_percentage_24h", .decimal(quote.change24hPercent)),
        ("market_cap_change_24h", .decimal(quote.marketCapChange24h)),
        ("market_cap_change_percentage_24h", .decimal(quote.marketCapChangePercentage24h)),
        ("circulating_supply", .decimal(quote.circulatingSupply)),
        ("total_supply", .decimal(quote.totalSupply)),
        ("max_supply", .decimal(quote.maxSupply)),
        ("ath", .decimal(quote.ath)),
        ("ath_date", .string(quote.athDate)),
        ("atl", .decimal(quote.atl)),
        ("atl_date", .string(quote.atlDate)),
        ("last_updated", .string(quote.lastUpdated)),
        ("sparkline_7d", .array(stored.sparkline.map { JSONValue.decimal($0) })),
      ]
    } else {
      pairs += [("snapshot_at", .null), ("current_price", .null)]
    }
    if let stored = overview.detail {
      let detail = stored.detail
      pairs.append(
        (
          "details",
          .object([
            ("fetched_at", .string(stored.fetchedAt)),
            ("block_time_in_minutes", .decimal(detail.blockTimeInMinutes)),
            ("hashing_algorithm", .string(detail.hashingAlgorithm)),
            ("description", .string(detail.description)),
            ("homepage", .string(detail.homepage)),
            ("subreddit_url", .string(detail.subredditURL)),
          ])
        ))
    } else {
      pairs.append(("details", .null))
    }
    return .object(pairs)
  }
}
