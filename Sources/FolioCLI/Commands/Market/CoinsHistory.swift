import FolioService
import FolioStorage
import Foundation

/// `folio coins history ID`: a coin's cached prices over time.
struct CoinsHistory: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "history",
    abstract: "Show a coin's cached prices over time: daily closes with a chart, and snapshots.",
    discussion: """
      Lists the coin's daily closing prices ('folio market history', or a market_chart file
      imported with 'folio market import FILE --coin ID') under a chart with one column per
      day (gaps left blank), then every market snapshot that holds the coin, oldest first.
      --format json gives both (daily_prices and prices); --format csv gives both too, the
      daily closes first (kind daily_close, with their day), then the snapshots (kind snapshot).
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  /// `--since`: a date or time, or a duration back from now.
  struct Since: ExpressibleByArgument {
    let text: String

    init?(argument: String) {
      guard MarketData.start(argument, now: Date()) != nil else { return nil }
      text = argument
    }

    static let expected = "a date or time such as 2024-01-01, or a duration such as 30d"
    static let placeholder: String? = "time"
  }

  @Argument(help: "A CoinGecko id (bitcoin) or a symbol (BTC).") var coin: String
  @Option(help: "Only snapshots since a date or time (2024-01-01) or for a duration back (30d).")
  var since: Since?
  @Option var format = Format.text
  @OptionGroup var currency: CurrencyOption
  @OptionGroup var freshness: PriceFreshness

  var vsCurrency: String { currency.vsCurrency }

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    let service = MarketData(store)
    let id = try context.resolve(coin, in: store)
    let start = since.flatMap { MarketData.start($0.text, now: context.now) }
    let history = try service.history(of: id, vsCurrency: vsCurrency, since: start)
    if let latest = try service.latestSnapshot(vsCurrency: vsCurrency) {
      try freshness.check(latest.fetchedAt, context)
    }
    switch format {
    case .json: context.print(json(history, since: start).rendered())
    case .csv: context.out.write(csv(history))
    case .text:
      context.out.write(
        text(history, since: start, useColor: context.useColor, width: context.width))
    }
  }

  private func text(_ history: CoinHistory, since: Date?, useColor: Bool, width: Int) -> String {
    let name = (history.coin?.name ?? history.coinID).shown
    let symbol = (history.coin?.symbol ?? "").uppercased().shown
    let sinceText = since.map { " since \(Timestamp.format($0))" } ?? ""
    let daily = history.dailyPrices
    let currency = history.vsCurrency
    var dailyText = ""
    if let first = daily.first, let last = daily.last {
      dailyText = ", \(daily.count) daily close(s) from \(first.day) to \(last.day)"
    }
    var output = ReportText.paragraphs(
      [
        "\(name)\(symbol.isEmpty ? "" : " (\(symbol))") in \(currency.uppercased()): "
          + "\(history.points.count) snapshot(s)\(dailyText)\(sinceText)"
      ], width: width)
    guard !history.points.isEmpty || !daily.isEmpty else {
      return output + "no cached prices; run 'folio market refresh' to fetch some\n"
    }
    if let first = daily.first, let start = CalendarDay(first.day),
      let end = daily.last.flatMap({ CalendarDay($0.day) })
    {
      // One chart column per calendar day, so missing days show as gaps.
      let byDay = Dictionary(daily.map { ($0.day, $0.price) }, uniquingKeysWith: { _, new in new })
      let values = (0...max(0, Int(end.ordinal - start.ordinal))).map {
        byDay[start.adding(days: $0).description]
      }
      let chart = Formatting.chart(
        values, width: 72, fitting: width, height: 8, gaps: .blank,
        label: { Formatting.money($0, .price, in: currency) })
      if !chart.isEmpty {
        output += "\n" + chart.map { $0 + "\n" }.joined()
        output += "daily closes, first \(first.day), last \(end)\n"
      }
      var closes = TextTable(headers: ["DAY", "CLOSE", "CHANGE", "SOURCE"], shortenable: [3: 10])
      closes.rightAligned = [1, 2]
      var previous: ExactDecimal?
      for price in daily {
        let change = previous.flatMap {
          try? ExactDecimal.scaled(price.price - $0, by: .hundred, dividedBy: $0)
        }
        previous = price.price
        closes.append(
          [
            price.day, Formatting.money(price.price, .price, in: currency),
            Formatting.percent(change, missing: "—"), MarketFormat.source(price.source),
          ], directions: [nil, nil, MarketFormat.direction(change)])
      }
      output += "\n" + closes.rendered(useColor: useColor, width: width)
    }
    guard !history.points.isEmpty else { return output }
    var table = TextTable(
      headers: ["SNAPSHOT", "PRICE", "24H", "MARKET CAP", "SOURCE"], shortenable: [4: 10],
      dropOrder: [3, 2])
    table.rightAligned = [1, 2, 3]
    for point in history.points {
      let quote = point.quote
      let currency = point.snapshot.vsCurrency
      table.append(
        [
          point.snapshotAt, Formatting.money(quote.currentPrice, .price, in: currency),
          Formatting.percent(quote.change24hPercent, missing: "—"),
          Formatting.money(quote.marketCap, .abbreviated, in: currency, missing: "—"),
          MarketFormat.source(point.snapshot.source),
        ], directions: [nil, nil, MarketFormat.direction(quote.change24hPercent)])
    }
    output += "\n" + table.rendered(useColor: useColor, width: width)
    return output
  }

  private func json(_ history: CoinHistory, since: Date?) -> JSONValue {
    .object([
      ("id", .string(history.coinID)),
      ("symbol", .string(history.coin?.symbol)),
      ("name", .string(history.coin?.name)),
      ("vs_currency", .string(history.vsCurrency)),
      ("since", .string(since.map(Timestamp.format))),
      (
        "daily_prices",
        .array(
          history.dailyPrices.map { price in
            .object([
              ("day", .string(price.day)),
              ("price", .decimal(price.price)),
              ("priced_at", .string(price.pricedAt)),
              ("source", .string(price.source)),
            ])
          })
      ),
      (
        "prices",
        .array(
          history.points.map { point in
            .object([
              ("snapshot_at", .string(point.snapshotAt)),
              ("price", .decimal(point.price)),
              ("price_change_percentage_24h", .decimal(point.change24hPercent)),
              ("market_cap", .decimal(point.quote.marketCap)),
              ("market_cap_rank", .int(point.quote.marketCapRank)),
              ("source", .string(point.snapshot.source)),
            ])
          })
      ),
    ])
  }

  /// One row per daily close (`kind` `daily_close`: `snapshot_at` is the time of its price,
  /// the next day's 00:00:00Z, `day` the day it closes, the change is from the close before),
  /// then one per snapshot (`kind` `snapshot`, `day` empty), as the text lists them.
  private func csv(_ history: CoinHistory) -> String {
    var output = CSVWriter.line([
      "snapshot_at", "id", "price", "price_change_percentage_24h", "market_cap", "vs_currency",
      "source", "kind", "day",
    ])
    var previous: ExactDecimal?
    for price in history.dailyPrices {
      let change = previous.flatMap {
        try? ExactDecimal.scaled(price.price - $0, by: .hundred, dividedBy: $0)
      }
      previous = price.price
      output += CSVWriter.line([
        price.pricedAt, history.coinID, price.price.description, change?.description ?? "", "",
        history.vsCurrency, price.source, "daily_close", price.day,
      ])
    }
    for point in history.points {
      output += CSVWriter.line([
        point.snapshotAt, history.coinID, point.price.description,
        point.change24hPercent?.description ?? "", point.quote.marketCap?.description ?? "",
        history.vsCurrency, point.snapshot.source, "snapshot", "",
      ])
    }
    return output
  }
}
