import FolioService
import FolioStorage

/// `folio tx show ID`.
struct TxShow: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show one trade with its lot or the lots it consumed and its realized profit.")

  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "The trade id.") var id: TradeID
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let portfolio = try context.portfolio()
    let detail = try TradeService(context.store()).detail(id.value, in: portfolio)
    let trade = detail.trade
    func money(_ value: ExactDecimal, sign: Formatting.Sign = .minusOnly) -> String {
      Formatting.money(value, in: portfolio.currency, sign: sign)
    }
    if format == .json {
      var json = TradeRendering.json(trade, location: detail.location?.reference)
      if let lot = detail.lot {
        json = json.appending([
          (
            "lot",
            .object([
              ("cost", .decimal(lot.cost)), ("remaining", .decimal(lot.remaining)),
              ("remaining_cost", .decimal(lot.remainingCost)),
            ])
          )
        ])
      }
      if let disposal = detail.disposal {
        json = json.appending([
          ("proceeds", .decimal(disposal.proceeds)), ("cost_basis", .decimal(disposal.costBasis)),
          ("realized_pnl", .decimal(disposal.realized)),
          ("method", .string(disposal.method.rawValue)),
          (
            "lots",
            .array(
              detail.consumptions.map {
                .object([
                  ("lot", .int($0.lotTradeID)), ("quantity", .decimal($0.quantity)),
                  ("cost", .decimal($0.cost)),
                ])
              })
          ),
        ])
      }
      context.print(json.rendered())
      return
    }
    context.say(
      "trade #\(trade.id): \(TradeRendering.label(trade)) \(Formatting.quantity(trade.quantity)) "
        + trade.coinID.shown)
    context.print("date:      \(trade.executedAt)")
    context.print("price:     \(TradeRendering.price(trade, in: portfolio.currency))")
    context.print("fee:       \(TradeRendering.fee(trade, in: portfolio.currency))")
    if let amount = trade.amount {
      let label = trade.kind == .swap ? "value:  " : "cost:   "
      context.print("\(label)   \(Formatting.money(amount, .ledger, in: portfolio.currency))")
    }
    if let acquired = trade.acquiredAt { context.print("acquired:  \(acquired)") }
    if let link = trade.linkID, link != trade.id { context.print("part of:   #\(link)") }
    if let note = trade.note { context.say("note:      \(note.shown)", indent: 11) }
    if let external = trade.externalID { context.print("id:        \(external.shown)") }
    if let location = detail.location {
      context.say("location:  \(location.reference.shown) (location \(location.id))", indent: 11)
    }
    if let lot = detail.lot {
      context.print("lot cost:  \(money(lot.cost))")
      context.print(
        "remaining: \(Formatting.quantity(lot.remaining)) (cost \(money(lot.remainingCost)))")
    }
    if let disposal = detail.disposal {
      context.print("proceeds:  \(money(disposal.proceeds))")
      context.print(
        "cost:      \(money(disposal.costBasis)) (\(disposal.method.rawValue))")
      context.print("realized:  \(money(disposal.realized, sign: .always))")
      for piece in detail.consumptions {
        context.print(
          "  from lot #\(piece.lotTradeID): \(Formatting.quantity(piece.quantity)) at cost "
            + money(piece.cost)
        )
      }
    }
  }
}
