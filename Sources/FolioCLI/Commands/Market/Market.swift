/// `folio market`: the cache of CoinGecko market data.
enum Market: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "market",
    abstract: "Import, refresh and prune cached CoinGecko market data.",
    discussion: """
      Folio keeps every snapshot it fetched or imported, so prices can be read offline and over
      time. 'folio market refresh' needs the network; 'folio market import' reads saved
      responses.
      """,
    subcommands: [MarketImport.self, MarketRefresh.self, MarketHistory.self, MarketPrune.self])
}
