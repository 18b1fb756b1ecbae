/// `folio coins`: the coins in the market-data cache.
enum Coins: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "coins",
    abstract: "List coins, show one coin, or show a coin's cached prices over time.",
    discussion: """
      These commands read the cache only (except 'coins show --refresh'); every output says
      the time of the snapshot its prices come from.
      """,
    subcommands: [CoinsList.self, CoinsShow.self, CoinsHistory.self])
}
