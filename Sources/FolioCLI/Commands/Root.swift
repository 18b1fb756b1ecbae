/// `folio`: the root of the command tree.
enum Root: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "folio",
    abstract: "A command-line crypto portfolio manager whose whole state is one SQLite file.",
    discussion: """
      Exit codes: 0 ok, 64 usage, 65 bad data or rule violated, 66 input missing,
      69 service unavailable, 70 internal error, 74 I/O error, 75 busy (database locked, or
      another daily run).
      """,
    subcommands: [
      Buy.self, Sell.self, IncomeCommand.self, DepositCommand.self, WithdrawCommand.self,
      TransferCommand.self, SwapCommand.self, Tx.self, HoldingsCommand.self, PortfolioGroup.self,
      Coins.self,
      Market.self, Stats.self, Report.self, Daily.self, Locations.self, Import.self, Export.self,
      SQLCommand.self, DB.self, Demo.self,
    ])
}
