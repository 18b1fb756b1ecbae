/// `folio portfolio`: named portfolios with their own trades and cost-basis method.
enum PortfolioGroup: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "portfolio",
    abstract: "Create, list, rename and delete portfolios; set their cost-basis method.",
    subcommands: [
      PortfolioAdd.self, PortfolioList.self, PortfolioShow.self, PortfolioRename.self,
      PortfolioSet.self, PortfolioDelete.self,
    ])
}
