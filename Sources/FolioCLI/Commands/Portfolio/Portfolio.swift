/// `folio portfolio`: named portfolios with their own trades and cost-basis method.
enum PortfolioGroup {
  static let spec = CommandSpec(
    name: "portfolio",
    abstract: "Create, list, rename and delete portfolios; set their cost-basis method.",
    subcommands: [
      PortfolioAdd.spec, PortfolioList.spec, PortfolioShow.spec, PortfolioRename.spec,
      PortfolioSet.spec, PortfolioDelete.spec,
    ])
}
