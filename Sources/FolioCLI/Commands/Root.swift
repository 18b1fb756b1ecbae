/// `folio`: the root of the command tree.
enum Root: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "folio",
    abstract: "A command-line crypto portfolio manager whose whole state is one SQLite file.",
    discussion: """
      Exit codes: 0 ok, 64 usage or text that does not parse, 65 well-formed but
      unacceptable data, 66 a named record or input missing, 69 service unavailable,
      70 internal error, 74 I/O error, 75 busy (database locked, or another daily run).
      """,
    subcommands: [
      Buy.self, Sell.self, IncomeCommand.self, DepositCommand.self, WithdrawCommand.self,
      TransferCommand.self, SwapCommand.self, Tx.self, HoldingsCommand.self, PortfolioGroup.self,
      Coins.self, Market.self, Stats.self, Report.self, Gains.self, Daily.self, Locations.self,
      Import.self, Export.self, SQLCommand.self, DB.self, Demo.self, Completions.self,
    ])

  /// The groups a bare `folio` lists the commands in, the most used first.
  static let overviewGroups: [(title: String, commands: [String])] = [
    ("Record trades", ["buy", "sell", "tx", "import", "export"]),
    ("Other transactions", ["income", "transfer", "swap", "deposit", "withdraw"]),
    ("See where you stand", ["holdings", "report", "gains", "stats", "daily"]),
    ("Market data", ["coins", "market"]),
    ("Portfolios and places", ["portfolio", "locations"]),
    ("The database", ["db", "sql", "demo"]),
    ("Shell", ["completions"]),
  ]
}
