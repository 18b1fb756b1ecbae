import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// Text output fits its width: `COLUMNS`, else the terminal's own, else 80 (a pipe or a file).
@Suite struct WidthTests {
  /// Every text output of a user's day, run on the demo database (7 coins, locations with long
  /// descriptions, notes, transfers, two portfolios).
  static let commands: [[String]] = [
    [], ["holdings"], ["holdings", "--portfolio", "savings"], ["report"],
    ["report", "--portfolio", "savings"], ["report", "history"], ["stats"], ["tx", "list"],
    ["tx", "show", "1"], ["gains"], ["coins", "list"], ["coins", "show", "bitcoin"],
    ["coins", "history", "bitcoin"], ["locations", "list"], ["locations", "show", "1"],
    ["locations", "near", "41.9", "12.5"], ["portfolio", "list"], ["portfolio", "show"],
    ["db", "status"], ["db", "check"], ["db", "rebuild"], ["report", "--portfolio", "all"],
    [
      "import", "exchange", Fixtures.path("exchanges/coinbase.csv"), "--dry-run",
      "--skip-unknown", "--portfolio", "savings",
    ],
  ]

  /// Lines wider than `width`, but for a line whose excess is one word that no wrapping could
  /// fit (a URL or a path longer than the line left for it after a label of at most 20
  /// columns, such as "  map          " or "Demo database: ").
  static func tooWide(_ text: String, _ width: Int) -> [String] {
    text.split(separator: "\n").map(String.init).filter { line in
      guard TextLayout.columns(line) > width else { return false }
      let words: [Substring] = line.split(separator: " ")
      guard let longest = words.max(by: { $0.count < $1.count }) else {
        return true
      }
      let label = TextLayout.columns(line) - TextLayout.columns(longest)
      return !(TextLayout.columns(longest) > width - 20 && label <= 20)
    }
  }

  /// Every text output and every help text fits 80, 60 and 200 columns.
  @Test(arguments: [80, 60, 200]) func everyTextOutputFits(columns: Int) throws {
    let sandbox = Sandbox()
    let environment = ["COLUMNS": String(columns)]
    let demo = sandbox.run(["--db", sandbox.database, "demo"], environment: environment)
    #expect(demo.code == 0, "\(demo.err)")
    // The "Try next" lines are commands to copy whole, never broken.
    let shown = demo.out.components(separatedBy: "Try next:")[0]
    #expect(Self.tooWide(shown, columns) == [], "demo")
    for command in Self.commands {
      let result = sandbox.run(command, environment: environment)
      #expect(result.code == 0, "\(command): \(result.err)")
      #expect(result.out.split(separator: "\n").count > 0, "\(command) printed nothing")
      #expect(Self.tooWide(result.out, columns) == [], "folio \(command.joined(separator: " "))")
    }
    func walk(_ spec: CommandSpec, _ path: [String]) {
      let help = sandbox.run(path + ["--help"], environment: environment)
      #expect(Self.tooWide(help.out, min(columns, Help.widest)) == [], "\(path) --help")
      for sub in spec.subcommands { walk(sub, path + [sub.name]) }
    }
    walk(Root.spec, [])
  }

  /// Nothing is lost at 200 columns, and at 80 what is left out is said.
  @Test func narrowDropsTheLeastImportantColumnsAndSaysSo() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("--db", sandbox.database, "demo").code == 0)
    let wide = sandbox.run(["tx", "list"], environment: ["COLUMNS": "200"]).out
    let header = try #require(wide.split(separator: "\n").first)
    #expect(
      header.split(separator: " ").filter { !$0.isEmpty }
        == ["ID", "DATE", "SIDE", "COIN", "QUANTITY", "PRICE", "FEE", "LOCATION", "NOTE"])
    #expect(wide.contains("first buy, on holiday in Rome"))
    #expect(!wide.contains("not shown"))

    let narrow = sandbox.run(["tx", "list"]).out
    #expect(narrow.hasPrefix("ID  DATE"))
    #expect(narrow.hasSuffix("(not shown, to fit 80 columns: LOCATION, NOTE)\n"))
    #expect(!narrow.contains("Colosseum"))
    // The figures a user reads the list for stay.
    #expect(narrow.contains("$36,607.50"))

    let holdings = sandbox.run(["holdings"]).out
    #expect(holdings.contains("(not shown, to fit 80 columns: AVG COST, SHARE)"))
    #expect(holdings.contains("UNREALIZED"))
    let wideHoldings = sandbox.run(["holdings"], environment: ["COLUMNS": "200"]).out
    #expect(wideHoldings.contains("AVG COST") && wideHoldings.contains("SHARE"))
  }

  /// A coin id of 70 characters costs a few columns of its own, not the table's other columns.
  @Test func aLongCoinIdIsShortenedNotTheOtherColumnsDropped() throws {
    let sandbox = Sandbox()
    let coin = "the-extremely-long-coin-identifier-that-goes-on-and-on-forever-and-ever"
    let bought = sandbox.run(
      "buy", coin, "2", "--price", "3", "--new-coin", "--date", "2024-11-01")
    #expect(bought.code == 0, "\(bought.err)")
    for command in [["holdings"], ["tx", "list"], ["report"]] {
      let out = sandbox.run(command).out
      #expect(Self.tooWide(out, 80) == [], "\(command)")
      #expect(
        out.split(separator: "\n").contains { $0.contains("the-extreme") && $0.contains("…") },
        "\(command): \(out)")
      #expect(out.contains("QUANTITY"), "\(command): \(out)")
    }
  }

  /// A description written on Windows (CRLF) breaks where its author broke it, and its blank
  /// line carries no trailing spaces.
  @Test func aDescriptionsOwnLineBreaksOfAnyKindContinueTheField() throws {
    let sandbox = Sandbox()
    let added = sandbox.run(
      "locations", "add", "Harbour", "--city", "Oslo", "--lat", "59.9", "--lon", "10.7",
      "--description", "first line\r\n\r\nsecond line\rthird line")
    #expect(added.code == 0, "\(added.err)")
    let margin = String(repeating: " ", count: 15)
    #expect(
      sandbox.run("locations", "show", "1").out.contains(
        "  description  first line\n\n" + margin + "second line\n" + margin + "third line\n"))
  }

  @Test func aLongDescriptionWrapsAtItsFieldsMargin() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("--db", sandbox.database, "demo").code == 0)
    let lines = sandbox.run(["locations", "show", "1"], environment: ["COLUMNS": "60"]).out
      .split(separator: "\n")
    let start = try #require(lines.firstIndex { $0.hasPrefix("  description  An oval") })
    let next = lines[start + 1]
    #expect(next.hasPrefix(String(repeating: " ", count: 15)) && next.dropFirst(15).first != " ")
    #expect(lines.allSatisfy { TextLayout.columns($0) <= 60 || $0.contains("https://") })
  }

  // MARK: - The rules

  @Test func theWidthComesFromColumnsThenTheTerminalThenEighty() {
    func width(_ environment: [String: String], terminal: Bool, _ columns: Int?) -> Int {
      TextLayout.width(
        environment: environment, stdoutIsTerminal: terminal, terminalColumns: columns)
    }
    #expect(width(["COLUMNS": "132"], terminal: false, nil) == 132)
    #expect(width(["COLUMNS": "132"], terminal: true, 100) == 132)
    #expect(width([:], terminal: true, 100) == 100)
    #expect(width([:], terminal: false, 100) == 80)
    #expect(width([:], terminal: true, nil) == 80)
    #expect(width(["COLUMNS": "wide"], terminal: true, 90) == 90)
    #expect(width(["COLUMNS": "-5"], terminal: false, nil) == 80)
    #expect(width(["COLUMNS": "3"], terminal: false, nil) == TextLayout.narrowest)
  }

  @Test func displayColumnsCountWideCharactersTwiceAndMarksNever() {
    #expect(TextLayout.columns("abc") == 3)
    #expect(TextLayout.columns("東京タワー") == 10)
    #expect(TextLayout.columns("e\u{301}") == 1)
    #expect(TextLayout.columns("🚀x") == 3)
    #expect(TextLayout.columns("▁▂█┤€") == 5)
    // Printable ASCII is measured a byte at a time; anything else a character at a time, so a
    // string with one other character (a mark, a tab, a wide letter) is measured by Unicode.
    let printable = (0x20..<0x7F).map { Character(UnicodeScalar(UInt8($0))) }
    #expect(TextLayout.columns(String(printable)) == 95)
    #expect(printable.allSatisfy { TextLayout.columns(String($0)) == 1 })
    #expect(TextLayout.columns("cafe\u{301} 東京") == 9)
    #expect(TextLayout.columns("a\u{200B}b"[...]) == 2)
    #expect(FolioCLI.visible("plain ~ text") == "plain ~ text")
    #expect(FolioCLI.visible("bell\u{7}\u{7F}") == "bell\\u{7}\\u{7F}")
    #expect(TextLayout.shortened("東京タワー", to: 6) == "東京…")
    #expect(TextLayout.shortened("short", to: 6) == "short")
  }

  @Test func wrappingKeepsSpacingURLsAndQuotedCommandsAndBreaksTextWithoutSpaces() {
    let margin = String(repeating: " ", count: 15)
    // Japanese has no spaces: it breaks between characters, at the field's margin.
    let japanese = "  description  " + String(repeating: "長い説明文", count: 6)
    let wrapped = TextLayout.fill(japanese, width: 30, continuation: margin)
    // 15 columns of label, then 30 characters of 2 columns: 7 a line, 2 on the last.
    #expect(
      wrapped.split(separator: "\n").map { TextLayout.columns($0) } == [29, 29, 29, 29, 19])
    #expect(wrapped.replacingOccurrences(of: "\n" + margin, with: "") == japanese)
    // A URL stays whole on its own line; aligned spacing stays where the line is not broken.
    let link = "  link         https://example.com/" + String(repeating: "a", count: 40)
    #expect(
      TextLayout.fill("note:      see " + link.dropFirst(15), width: 40, continuation: margin)
        == "note:      see\n" + margin + "https://example.com/" + String(repeating: "a", count: 40))
    // A quoted command moves to the next line whole rather than being split.
    #expect(
      TextLayout.fill(
        "30d: n/a; run 'folio report backfill --since 2024-10-31'", width: 50, continuation: "  ")
        == "30d: n/a; run\n  'folio report backfill --since 2024-10-31'")
    #expect(
      TextLayout.fill("prices ('folio market history') first", width: 30, continuation: "")
        == "prices\n('folio market history') first")
    // A word with an emoji breaks only around it, never inside folio's own escapes.
    let family = "note: 👨\\u{200D}👩\\u{200D}👧 " + String(repeating: "w ", count: 10)
    for line in TextLayout.fill(family, width: 12, continuation: "").split(separator: "\n") {
      #expect(!line.hasSuffix("\\u{200D") && !line.hasPrefix("}"), "\(line)")
    }
  }

  @Test func aTableShortensThenDropsColumnsInItsOrder() {
    var table = TextTable(
      headers: ["ID", "NAME", "CITY", "NOTE"], rightAligned: [0], shortenable: [1: 12],
      dropOrder: [3, 2])
    table.rows = [["1", "東京タワー observation deck", "Tokyo", "a note of some length"]]
    // The name takes 10 + 17 = 27 columns; the whole line 2 + 27 + 5 + 21 + 3 × 2 = 61.
    #expect(
      table.rendered(width: 61)
        == "ID  NAME                         CITY   NOTE\n"
        + " 1  東京タワー observation deck  Tokyo  a note of some length\n")
    // At 40, shortening the name to 12 would not be enough (61 - 15 > 40): the note goes,
    // and 2 + 27 + 5 + 2 × 2 = 38 fits with the name whole.
    #expect(
      table.rendered(width: 40)
        == "ID  NAME                         CITY\n"
        + " 1  東京タワー observation deck  Tokyo\n"
        + "(not shown, to fit 40 columns: NOTE)\n")
    // At 30 the name gives up 8 columns (ending in "…") before the city would go.
    #expect(
      table.rendered(width: 30)
        == "ID  NAME                 CITY\n"
        + " 1  東京タワー observa…  Tokyo\n"
        + "(not shown, to fit 30 columns:\nNOTE)\n")
  }

  /// The real binary on a pseudo-terminal of 57 columns reads its width (TIOCGWINSZ).
  @Test(.requires(.script)) func theTerminalsOwnWidthIsUsed() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("--db", sandbox.database, "demo").code == 0)
    let script = try #require(ExternalTool.script.path)
    let command =
      "stty cols 57 rows 40; '\(Binary.folioPath)' --db '\(sandbox.database)' --color never "
      + "tx list"
    let result = try Binary.runTool(
      script, ["-qec", command, "/dev/null"],
      environment: ["PATH": "/usr/bin:/bin", "TERM": "dumb", "HOME": sandbox.path])
    #expect(result.code == 0, "\(result.err)")
    let lines = result.out.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("ID  DATE") })
    #expect(lines.allSatisfy { TextLayout.columns($0) <= 57 })
    // Even the price goes at 57 columns: ID, DATE, SIDE, COIN and QUANTITY take 51.
    #expect(lines.suffix(2) == ["(not shown, to fit 57 columns: PRICE, FEE, LOCATION,", "NOTE)"])
  }
}
