/// `folio coins`: the coins in the market-data cache, and repairing trades' coins.
enum Coins: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "coins",
    abstract:
      "List coins, show one coin, show a coin's cached prices over time, or merge two coins.",
    discussion: """
      list, show and history read the cache only (except 'coins show --refresh'); every output
      says the time of the snapshot its prices come from. merge moves trades to another coin.
      """,
    subcommands: [CoinsList.self, CoinsShow.self, CoinsHistory.self, CoinsMerge.self])
}
