import FolioService
import FolioStorage

/// `folio holdings`.
struct HoldingsCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "holdings",
    abstract: "Show quantity, cost basis, value and profit per coin, with totals.",
    discussion: """
      Cost basis includes buy fees; realized profit is sell proceeds (after fees) minus the cost
      basis of the units sold, chosen by the method (the portfolio's own unless --method is given).
      Prices are the latest cached market price of each coin in the portfolio's currency; a held
      coin without one reads n/a, is listed as unpriced and is not counted in the totals (as in
      stats and report).
      --portfolio all sums every portfolio of one currency per coin (refused, 65, when their
      currencies differ).
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(help: "Compute with this method instead.") var method: CostMethod?
  @Option var format = Format.text
  @OptionGroup var freshness: PriceFreshness

  func run(_ context: Context) throws {
    let holdings = try HoldingsService(context.store()).holdings(
      context.portfolios(), method: method)
    if let snapshot = holdings.snapshot { try freshness.check(snapshot.fetchedAt, context) }
    switch format {
    case .json: context.print(json(holdings).rendered())
    case .csv: csv(holdings, context)
    case .text: text(holdings, context)
    }
  }

  /// A row's figures that may be n/a, by label, for the notes and the `unavailable` field.
  static func measures(_ row: Holding) -> [(String, Measure?)] {
    [
      ("average cost", row.averageCost), ("value", row.value), ("unrealized", row.unrealized),
      ("share", row.share),
    ]
  }

  static func measures(totalsOf holdings: Holdings) -> [(String, Measure?)] {
    [
      ("cost basis", holdings.totalCostBasis), ("value", holdings.totalValue),
      ("unrealized", holdings.totalUnrealized), ("realized", holdings.totalRealized),
    ]
  }

  /// Why some figures of a row or the totals are n/a (the first reason), or nil.
  static func reason(_ measures: [(String, Measure?)]) -> String? {
    measures.lazy.compactMap { $0.1?.reason }.first
  }

  func json(_ holdings: Holdings) -> JSONValue {
    .object(
      [
        ("portfolio", .string(holdings.portfolio.name)),
        ("currency", .string(holdings.portfolio.currency)),
      ] + Formatting.methodMembers(holdings.method) + [
        (
          "holdings",
          .array(
            holdings.rows.map { row in
              .object([
                ("coin", .string(row.coinID)), ("quantity", .decimal(row.quantity)),
                ("average_cost", .decimal(row.averageCost?.value)),
                ("cost_basis", .decimal(row.costBasis)),
                ("price", .decimal(row.quote?.price)), ("price_source", .string(row.quote?.source)),
                ("price_time", .string(row.quote?.asOf)), ("value", .decimal(row.value.value)),
                ("unrealized_pnl", .decimal(row.unrealized.value)),
                ("realized_pnl", .decimal(row.realized)),
                ("share", .decimal(row.share?.value)),
                ("unavailable", .string(Self.reason(Self.measures(row)))),
              ])
            })
        ),
        (
          "totals",
          .object([
            ("value", .decimal(holdings.totalValue.value)),
            ("cost_basis", .decimal(holdings.totalCostBasis.value)),
            ("unrealized_pnl", .decimal(holdings.totalUnrealized.value)),
            ("realized_pnl", .decimal(holdings.totalRealized.value)),
            ("unavailable", .string(Self.reason(Self.measures(totalsOf: holdings)))),
          ])
        ),
        ("unpriced", .array(holdings.unpriced.map { .string($0) })),
      ])
  }

  func csv(_ holdings: Holdings, _ context: Context) {
    context.out.write(
      CSVWriter.line([
        "coin", "quantity", "average_cost", "cost_basis", "price", "price_time", "value",
        "unrealized_pnl", "realized_pnl", "share", "unavailable",
      ]))
    for row in holdings.rows {
      context.out.write(
        CSVWriter.line([
          row.coinID, row.quantity.description, row.averageCost?.value?.description ?? "",
          row.costBasis.description, row.quote?.price.description ?? "", row.quote?.asOf ?? "",
          row.value.value?.description ?? "", row.unrealized.value?.description ?? "",
          row.realized.description, row.share?.value?.description ?? "",
          Self.reason(Self.measures(row)) ?? "",
        ]))
    }
  }

  /// The colours of a row: unrealized and realized profit green when up, red when down, as
  /// `report` colours them.
  static func directions(_ unrealized: ExactDecimal?, _ realized: ExactDecimal?) -> [Bool?] {
    [
      nil, nil, nil, nil, nil, nil, MarketFormat.direction(unrealized),
      MarketFormat.direction(realized), nil,
    ]
  }

  func text(_ holdings: Holdings, _ context: Context) {
    context.say(
      "portfolio \(holdings.portfolio.name) (\(holdings.portfolio.currency), \(Formatting.method(holdings.method)))"
    )
    if let snapshot = holdings.snapshot {
      context.say(MarketFormat.snapshotLine(snapshot))
    } else if !holdings.unpriced.isEmpty {
      context.say(
        "No market snapshot in \(holdings.portfolio.currency.uppercased()) is cached; run "
          + "'folio market refresh' (online) or 'folio market import FILE'")
    }
    let newest = holdings.snapshot?.fetchedAt
    var table = TextTable(
      headers: [
        "COIN", "QUANTITY", "AVG COST", "COST BASIS", "PRICE", "VALUE", "UNREALIZED", "REALIZED",
        "SHARE",
      ],
      rightAligned: Set(1...8), shortenable: [0: 12], dropOrder: [2, 8, 7, 3, 4, 1])
    var notes: [String] = []
    let currency = holdings.portfolio.currency
    func money(_ value: ExactDecimal?, sign: Formatting.Sign = .minusOnly) -> String {
      Formatting.money(value, in: currency, sign: sign)
    }
    for row in holdings.rows {
      table.append(
        [
          row.coinID, Formatting.quantity(row.quantity),
          row.averageCost.map { Formatting.money($0.value, .price, in: currency) } ?? "-",
          money(row.costBasis),
          Formatting.money(row.quote?.price, .ledger, in: currency)
            + (row.quote.map { $0.asOf != newest } == true ? "*" : ""),
          money(row.value.value), money(row.unrealized.value, sign: .always),
          money(row.realized, sign: .always),
          row.share.map { Formatting.percent($0.value, .share) } ?? "",
        ], directions: Self.directions(row.unrealized.value, row.realized))
      if row.isPriced { notes += ReportFormat.unavailable(Self.measures(row), of: row.coinID) }
    }
    table.append(
      [
        "TOTAL", "", "", money(holdings.totalCostBasis.value), "", money(holdings.totalValue.value),
        money(holdings.totalUnrealized.value, sign: .always),
        money(holdings.totalRealized.value, sign: .always), "",
      ], directions: Self.directions(holdings.totalUnrealized.value, holdings.totalRealized.value))
    notes += ReportFormat.unavailable(Self.measures(totalsOf: holdings), of: "TOTAL")
    context.out.write(table.rendered(useColor: context.useColor, width: context.width))
    if let older = ReportFormat.olderPrices(
      holdings.rows.map { ($0.coinID, $0.quote?.asOf) }, newest: newest)
    {
      context.say(older)
    }
    if let unpriced = ReportFormat.unpriced(holdings.unpriced) { context.say(unpriced) }
    for note in notes { context.say(note) }
  }
}
