import Testing

@testable import FolioCLI

@Suite struct HelpTests {
  /// The section headings of a help text, in order.
  func sections(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init)
      .filter { $0.first?.isUppercase == true && $0.contains(":") }
      .map { String($0.prefix { $0 != ":" }) }
  }

  @Test func leafCommandHasArgumentsAndOptionsButNoSubcommands() throws {
    let backup = try #require(DB.spec.subcommand("backup"))
    let text = Help.text(path: ["folio", "db", "backup"], spec: backup)
    #expect(sections(text) == ["OVERVIEW", "USAGE", "ARGUMENTS", "OPTIONS"])
    #expect(text.contains("\nUSAGE: folio db backup <file> [<options>]\n"))
    #expect(text.contains("\n  <file>                  Where to write the copy.\n"))
    #expect(text.contains("\n  -h, --help              Show help information.\n"))
    #expect(text.contains("\n  --db <path>  "))
    #expect(!text.contains("--version"))  // only the root offers it
  }

  /// `daily` and `coins merge` work on every portfolio unless --portfolio names one, and do
  /// not read $FOLIO_PORTFOLIO: their help says so instead of the global default.
  @Test func commandsOverEveryPortfolioSayWhatPortfolioMeans() throws {
    let daily = unwrapped(Help.text(path: ["folio", "daily"], spec: Daily.spec))
    #expect(daily.contains("The one portfolio to file, or all (default: all; $FOLIO_PORTFOLIO"))
    #expect(!daily.contains("else 'main'"))
    let merge = try #require(Coins.spec.subcommand("merge"))
    let text = unwrapped(Help.text(path: ["folio", "coins", "merge"], spec: merge))
    #expect(text.contains("Move only this portfolio's trades (default: every portfolio;"))
    let backup = try #require(DB.spec.subcommand("backup"))
    #expect(
      unwrapped(Help.text(path: ["folio", "db", "backup"], spec: backup))
        .contains("The portfolio to work on (default: $FOLIO_PORTFOLIO, else 'main')."))
  }

  @Test func groupListsEverySubcommandInOrder() {
    let text = Help.text(path: ["folio", "db"], spec: DB.spec)
    #expect(sections(text) == ["OVERVIEW", "USAGE", "OPTIONS", "SUBCOMMANDS"])
    #expect(text.contains("\nUSAGE: folio db <subcommand>\n"))
    let listed = text.components(separatedBy: "SUBCOMMANDS:\n")[1].split(separator: "\n")
      .compactMap {
        // A row's wrapped help continues on lines indented further.
        $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  See")
          ? $0.split(separator: " ").first : nil
      }
      .map(String.init)
    #expect(listed == DB.spec.subcommands.map(\.name))
    #expect(text.hasSuffix("  See 'folio help db <subcommand>' for detailed help.\n"))
  }

  @Test func aGroupThatAlsoRunsByItselfTakesItsSubcommandOptionally() {
    let text = Help.text(path: ["folio", "report"], spec: Report.spec)
    #expect(text.contains("\nUSAGE: folio report [<subcommand>] [<options>]\n"))
    #expect(text.contains("\nSUBCOMMANDS:\n  history  "))
  }

  @Test func rootHelpOffersTheVersionAndListsExitCodes() {
    let text = Help.text(path: ["folio"], spec: Root.spec)
    #expect(unwrapped(text).hasPrefix("OVERVIEW: \(Root.spec.abstract)\n"))
    #expect(text.contains("\n  --version               Show the version.\n"))
    for code in ["64", "65", "66", "69", "70", "74", "75"] {
      #expect(text.contains(code))
    }
  }

  @Test func longOptionNamesWrapOntoTheirOwnLine() {
    let spec = CommandSpec(
      name: "x", abstract: "X.",
      options: [.value("a-very-long-option-name", "value", help: "Explained here.")])
    let text = Help.text(path: ["folio", "x"], spec: spec)
    #expect(
      text.contains(
        "\n  --a-very-long-option-name <value>\n                          Explained here.\n"))
  }

  /// `text` with the line breaks of wrapped help (a break and the indentation after it)
  /// read as spaces.
  func unwrapped(_ text: String) -> String {
    text.replacingOccurrences(of: #"\n +"#, with: " ", options: .regularExpression)
  }
}
