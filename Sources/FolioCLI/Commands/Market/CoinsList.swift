import FolioService
import FolioStorage

/// `folio coins list`: the coins of the latest snapshot with the portfolio's holdings.
struct CoinsList: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the coins of the latest snapshot, with holdings when held.",
    discussion: """
      Search keeps coins whose name, symbol or id contains the text, ignoring case.
      Sorts: rank (rank 1 first), price (highest first), holdings (largest holding value
      first) and their -reversed forms. Coins without the sorted value come last either way.
      Held coins missing from the latest snapshot are listed with their newest older price,
      marked '*'.
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(valueName: "text", help: "Keep coins whose name, symbol or id contains the text.")
  var search: String?
  @Option(
    valueName: "order", help: "rank|rank-reversed|price|price-reversed|holdings|holdings-reversed.")
  var sort = CoinSort.rank
  @Option(help: "Show at most N coins.") var limit: Limit?
  @Option var format = Format.text
  @OptionGroup var currency: CurrencyOption
  @OptionGroup var freshness: PriceFreshness

  func run(_ context: Context) throws {
    var query = CoinListQuery()
    (query.search, query.sort, query.limit) = (search, sort, limit?.value)
    query.vsCurrency = currency.vsCurrency
    query.portfolio = try context.portfolio().name
    let list = try MarketData(context.existingStore()).coinList(query)
    try freshness.check(list.snapshot.fetchedAt, context)
    switch format {
    case .json: context.print(json(list).rendered())
    case .csv: context.out.write(csv(list))
    case .text: context.out.write(text(list, useColor: context.useColor, width: context.width))
    }
  }

  private func text(_ list: CoinList, useColor: Bool, width: Int) -> String {
    let currency = list.snapshot.vsCurrency
    var output = ReportText.paragraphs([MarketFormat.snapshotLine(list.snapshot)], width: width)
    if list.hasHoldings { output += "Holdings of portfolio '\(list.portfolio)'\n" }
    output += "\n"
    var headers = ["#", "SYMBOL", "NAME", "PRICE", "24H", "MARKET CAP"]
    if list.hasHoldings { headers += ["HOLDINGS", "VALUE"] }
    var table = TextTable(headers: headers, shortenable: [2: 10], dropOrder: [5, 4, 1])
    table.rightAligned = [0, 3, 4, 5, 6, 7]
    for row in list.rows {
      let quote = row.quote.quote
      let change = quote.change24hPercent
      var cells = [
        quote.marketCapRank.map(String.init) ?? "—", quote.symbol.uppercased(), quote.name,
        Formatting.money(quote.currentPrice, .price, in: currency)
          + (row.isFromOlderSnapshot ? "*" : ""),
        Formatting.percent(change, missing: "—"),
        Formatting.money(quote.marketCap, .abbreviated, in: currency, missing: "—"),
      ]
      if list.hasHoldings {
        cells.append(row.holding.map(Formatting.quantity) ?? "")
        cells.append(
          Formatting.money(row.value, in: currency, missing: row.unavailable == nil ? "" : "n/a"))
      }
      table.append(cells, directions: [nil, nil, nil, nil, MarketFormat.direction(change)])
    }
    if list.rows.isEmpty {
      let filter = search.map { " match '\($0)'" } ?? ""
      output += "no coins\(filter)\n"
    } else {
      output += table.rendered(useColor: useColor, width: width)
    }
    var notes: [String] = []
    for row in list.rows {
      guard let reason = row.unavailable else { continue }
      notes += ReportFormat.unavailable([("value", .unavailable(reason))], of: row.quote.coinID)
    }
    output += ReportText.paragraphs(notes, width: width)
    let older = list.rows.filter(\.isFromOlderSnapshot)
    if !older.isEmpty {
      output +=
        "\n"
        + ReportText.paragraphs(
          [
            "* from an older snapshot: "
              + older.map { "\($0.quote.coinID) (\($0.quote.snapshotAt))" }
              .joined(separator: ", ")
          ], width: width)
    }
    if !list.heldWithoutPrice.isEmpty {
      output += ReportText.paragraphs(
        [
          "held but never priced in \(currency.uppercased()): "
            + list.heldWithoutPrice.joined(separator: ", ")
        ], width: width)
    }
    return output
  }

  private func json(_ list: CoinList) -> JSONValue {
    .object([
      ("vs_currency", .string(list.snapshot.vsCurrency)),
      ("snapshot_at", .string(list.snapshot.fetchedAt)),
      ("source", .string(list.snapshot.source)),
      ("portfolio", .string(list.portfolio)),
      (
        "coins",
        .array(
          list.rows.map { row in
            let quote = row.quote.quote
            return .object([
              ("id", .string(quote.id)),
              ("rank", .int(quote.marketCapRank)),
              ("symbol", .string(quote.symbol)),
              ("name", .string(quote.name)),
              ("price", .decimal(quote.currentPrice)),
              ("price_change_percentage_24h", .decimal(quote.change24hPercent)),
              ("market_cap", .decimal(quote.marketCap)),
              ("holding", .decimal(row.holding)),
              ("value", .decimal(row.value)),
              ("price_at", .string(row.quote.snapshotAt)),
              ("unavailable", .string(row.unavailable)),
            ])
          })
      ),
      ("held_without_price", .array(list.heldWithoutPrice.map { .string($0) })),
    ])
  }

  private func csv(_ list: CoinList) -> String {
    var output = CSVWriter.line([
      "rank", "id", "symbol", "name", "price", "price_change_percentage_24h", "market_cap",
      "holding", "value", "vs_currency", "price_at",
    ])
    for row in list.rows {
      let quote = row.quote.quote
      output += CSVWriter.line([
        quote.marketCapRank.map(String.init) ?? "", quote.id, quote.symbol, quote.name,
        quote.currentPrice.description, quote.change24hPercent?.description ?? "",
        quote.marketCap?.description ?? "", row.holding?.description ?? "",
        row.value?.description ?? "", list.snapshot.vsCurrency, row.quote.snapshotAt,
      ])
    }
    return output
  }
}
