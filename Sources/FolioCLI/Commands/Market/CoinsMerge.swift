import FolioService

/// `folio coins merge FROM INTO`: moves the trades of one coin to another.
struct CoinsMerge: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "merge",
    abstract: "Move every trade of one coin to another coin and recompute the lots.",
    discussion: """
      The coin FROM is taken as the trades store it (such as 'btc', recorded before the coin
      directory; 'folio db check' lists such trades). INTO is an id or symbol of the coin
      directory (--new-coin: an id it does not know, which is added). The trades of every
      portfolio move, or only those of --portfolio P when it is given, with the rows of
      their transfers in other portfolios (a transfer names one coin on both sides). Both
      positions of each portfolio are recomputed in one transaction: if any sell would
      oversell, nothing is written (65).
      """,
    portfolioHelp:
      "Move only this portfolio's trades (default: every portfolio; $FOLIO_PORTFOLIO is not "
      + "read).")

  enum Format: String, OutputFormat { case text, json }

  @Argument(name: "from", help: "The coin the trades name now.") var from: String
  @Argument(name: "into", help: "The coin they should name (id or symbol).") var into: String
  @OptionGroup var newCoin: NewCoinOption
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    // Only an explicit --portfolio limits the merge; without it every portfolio's trades move.
    let portfolio = try context.globals.portfolio.map {
      try PortfolioService(store).resolve($0)
    }
    let merge = try TradeService(store).mergeCoin(
      from: from, into: into, portfolio: portfolio, newCoin: newCoin.newCoin, note: context.note)
    switch format {
    case .json:
      context.print(
        JSONValue.object([
          ("from", .string(merge.from)), ("into", .string(merge.into)),
          ("added_to_directory", .bool(merge.added)),
          (
            "portfolios",
            .array(
              merge.moved.map {
                .object([("portfolio", .string($0.portfolio)), ("trades", .int($0.trades))])
              })
          ),
        ]).rendered())
    case .text:
      let total = merge.moved.reduce(0) { $0 + $1.trades }
      let places = merge.moved.map { "\($0.portfolio) \($0.trades)" }.joined(separator: ", ")
      context.print(
        "moved \(total) trade(s) of '\(merge.from)' to '\(merge.into)' (\(places))".shown)
    }
  }
}
