import FolioService
import Foundation
import Testing

@testable import FolioCLI

/// What a person gets who types `folio` alone, a typo, or a value in the wrong place:
/// the overview, did-you-mean, the option a stray word belongs to, and help that fits 80
/// columns.
@Suite struct GuidanceTests {
  let sandbox = Sandbox()

  @Test func bareFolioPrintsAGroupedOverviewAndExits0() {
    let result = sandbox.run([])
    #expect(result.code == 0)
    #expect(result.err.isEmpty)
    #expect(result.out.hasPrefix(Root.spec.abstract + "\n\nRecord trades:\n  buy "))
    // The groups, most used first, and a way on.
    let titles = Root.overviewGroups.map(\.title)
    let positions = titles.compactMap { result.out.range(of: "\n\($0):\n")?.lowerBound }
    #expect(positions.count == titles.count)
    #expect(positions == positions.sorted())
    #expect(result.out.contains("folio help <command>"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }

  @Test func theOverviewListsEveryCommandOnce() {
    let listed = Root.overviewGroups.flatMap(\.commands)
    #expect(listed.sorted() == Root.spec.subcommands.map(\.name).sorted())
    #expect(Set(listed).count == listed.count)
  }

  @Test func swappedLettersGetDidYouMean() {
    let cases: [([String], String)] = [
      (["coins", "lsit"], "unknown command 'lsit'; did you mean 'list'?"),
      (["locations", "nera"], "unknown command 'nera'; did you mean 'near'?"),
      (["hodlings"], "unknown command 'hodlings'; did you mean 'holdings'?"),
      (["tx", "lsit"], "unknown command 'lsit'; did you mean 'list'?"),
      (["holdings", "--mehtod", "fifo"], "unknown option '--mehtod'; did you mean '--method'?"),
    ]
    for (arguments, message) in cases {
      let result = sandbox.run(arguments)
      #expect(result.code == 64, "\(arguments)")
      #expect(result.err.hasPrefix("folio: error: \(message)\n"), "\(arguments): \(result.err)")
    }
  }

  @Test func aPriceWithoutItsOptionIsSuggested() throws {
    let before = sandbox.run("buy", "bitcoin", "0.5", "40000")
    #expect(before.code == 64)
    #expect(
      before.err.hasPrefix(
        "folio: error: unexpected argument '40000'; did you mean '--price 40000'?\n"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    // Given --price, a stray word is only unexpected.
    let stray = sandbox.run("sell", "bitcoin", "1", "2", "--price", "3")
    #expect(stray.err.hasPrefix("folio: error: unexpected argument '2'\n"), "\(stray.err)")
  }

  @Test func enumValuesAreReadInAnyCase() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-02").code == 0)
    let upper = sandbox.run("holdings", "--method", "FIFO", "--format", "JSON")
    #expect(upper.code == 0, "\(upper.err)")
    #expect(upper.out == sandbox.run("holdings", "--method", "fifo", "--format", "json").out)
    #expect(sandbox.run("tx", "list", "--side", "Buy").out.contains("bitcoin"))
    #expect(sandbox.run("holdings", "--method", "FIF").code == 64)
  }

  @Test func everyHelpTextFitsEightyColumns() {
    func walk(_ spec: CommandSpec, _ path: [String]) {
      let help = sandbox.run(path + ["--help"])
      #expect(help.code == 0)
      for line in help.out.split(separator: "\n") where line.count > Help.widest {
        Issue.record("folio \(path.joined(separator: " ")) --help: \(line.count) columns: \(line)")
      }
      for sub in spec.subcommands { walk(sub, path + [sub.name]) }
    }
    walk(Root.spec, [])
    for line in sandbox.run([]).out.split(separator: "\n") where line.count > Help.widest {
      Issue.record("folio: \(line.count) columns: \(line)")
    }
  }

  @Test func wrappingKeepsEveryWordAndTheHangingIndent() {
    let long = String(repeating: "word ", count: 30) + "a|b|" + String(repeating: "c", count: 70)
    let help = Help.reflow(long)
    #expect(help.split(separator: "\n").allSatisfy { $0.count <= Help.widest })
    #expect(
      help.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "| ", with: "|")
        == long)
  }
}

/// `tx list`: --last, the empty result, and a range that ends before it starts.
@Suite struct TxListTests {
  let sandbox = Sandbox()

  init() {
    for (index, day) in ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"].enumerated() {
      _ = sandbox.run("buy", "bitcoin", "1", "--price", String(100 + index), "--date", day)
    }
  }

  func ids(_ arguments: String...) -> [String] {
    let result = sandbox.run(["tx", "list", "--format", "csv"] + arguments)
    return result.out.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }
  }

  @Test func lastGivesTheNewestTradesOldestFirst() {
    #expect(ids("--last", "2") == ["3", "4"])
    #expect(ids("--limit", "2") == ["1", "2"])
    #expect(ids("--last", "9") == ["1", "2", "3", "4"])
    #expect(ids("--last", "2", "--until", "2024-01-02") == ["1", "2"])
    #expect(
      sandbox.run("tx", "list", "--last", "1").out.split(separator: "\n").dropFirst().first?
        .hasPrefix(" 4  2024-01-04") == true)
    let both = sandbox.run("tx", "list", "--last", "1", "--limit", "1")
    #expect(both.code == 64)
    #expect(both.err.contains("not both"))
    #expect(sandbox.run("tx", "list", "--last", "0").code == 64)
  }

  @Test func aListingIsMeasuredThenWrittenAsOneTable() throws {
    _ = sandbox.run(
      "sell", "bitcoin", "0.5", "--price", "12345.5", "--date", "2024-01-05", "--note",
      "rent \u{1B}[2J paid")
    let text = sandbox.run(["tx", "list"], environment: ["COLUMNS": "60"]).out
    // Every row is measured before the first is written: the sell's price, the widest, is
    // what leaves PRICE out at 60 columns.
    #expect(
      text == """
        ID  DATE                  SIDE  COIN     QUANTITY
         1  2024-01-01T00:00:00Z  buy   bitcoin         1
         2  2024-01-02T00:00:00Z  buy   bitcoin         1
         3  2024-01-03T00:00:00Z  buy   bitcoin         1
         4  2024-01-04T00:00:00Z  buy   bitcoin         1
         5  2024-01-05T00:00:00Z  sell  bitcoin       0.5
        (not shown, to fit 60 columns: PRICE, FEE, LOCATION, NOTE)

        """)
    let wide = sandbox.run(["tx", "list", "--last", "1"], environment: ["COLUMNS": "200"]).out
    #expect(wide.hasSuffix("  $12,345.50  $0.00            rent \\u{1B}[2J paid\n"))
    // The JSON is written a trade at a time, byte for byte as the whole array would be.
    let json = sandbox.run("tx", "list", "--format", "json").out
    let items = try #require(JSONValue.parse(json).arrayValue)
    #expect(items.count == 5)
    #expect(json == JSONValue.array(items).rendered() + "\n")
  }

  @Test func aListingStopsReadingOnceItsOutputIsClosed() {
    for format in ["text", "json", "csv"] {
      let out = ClosingSink()
      let code = FolioCLI.run(
        ["tx", "list", "--format", format, "--db", sandbox.database], out: out, err: StringSink(),
        environment: [:], now: sandbox.now)
      // The header (text, CSV) or the first trade (JSON) is the last write tried; finishing
      // would have written five or six times. `FolioCLI.main` turns the failed write into 74.
      #expect(code == 0, "\(format)")
      #expect(out.writes == 1, "\(format)")
    }
    let sql = ClosingSink()
    _ = FolioCLI.run(
      ["sql", "--format", "csv", "--db", sandbox.database, "SELECT * FROM trades"], out: sql,
      err: StringSink(), environment: [:], now: sandbox.now)
    #expect(sql.writes == 1)
  }

  @Test func anEmptyResultSaysNoTrades() {
    #expect(sandbox.run("tx", "list", "--since", "2025-01-01").out == "no trades\n")
    #expect(sandbox.run("tx", "list", "--since", "2025-01-01", "--format", "json").out == "[]\n")
  }

  @Test func sinceAfterUntilIsRefused() {
    let result = sandbox.run("tx", "list", "--since", "2024-01-03", "--until", "2024-01-02")
    #expect(result.code == 65)
    #expect(
      result.err
        == "folio: error: --since 2024-01-03 is after --until 2024-01-02; give the earlier date "
        + "first\n")
    #expect(result.out.isEmpty)
    // The same day is a whole day: not refused.
    #expect(ids("--since", "2024-01-02", "--until", "2024-01-02") == ["2"])
  }
}

/// A stdout that takes no more text after its first write, as a pipe closed by `head`.
final class ClosingSink: TextSink {
  private(set) var writes = 0
  func write(_ text: String) { writes += 1 }
  func flush() {}
  var failed: Bool { writes > 0 }
}
