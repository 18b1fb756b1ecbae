/// `folio`: the root of the command tree.
enum Root {
  static let spec = CommandSpec(
    name: "folio",
    abstract: "A command-line crypto portfolio manager whose whole state is one SQLite file.",
    discussion: """
      Exit codes: 0 ok, 64 usage, 65 bad data or rule violated, 66 input missing,
      69 service unavailable, 70 internal error, 74 I/O error, 75 database busy.
      """,
    subcommands: [
      Buy.spec, Sell.spec, Tx.spec, HoldingsCommand.spec, PortfolioGroup.spec, Coins.spec,
      Market.spec, Stats.spec, Report.spec, Locations.spec, Import.spec, Export.spec,
      SQLCommand.spec, DB.spec, Demo.spec,
    ]
  )
}
