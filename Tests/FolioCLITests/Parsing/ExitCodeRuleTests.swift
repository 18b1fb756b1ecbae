import Foundation
import Testing

@testable import FolioCLI

/// The one exit-code rule of docs/cli.md, over every command: text that does not parse (a
/// malformed date or number, an unknown enum value) is 64, well-formed but unacceptable input
/// is 65, and a named record that does not exist (trade, location, portfolio, coin) is 66.
@Suite struct ExitCodeRuleTests {
  /// Each row: the command line and the exit code the rule gives it. Every command of the
  /// tree appears at least once (`everyCommandIsInTheTable`).
  static let table: [([String], Int32)] = [
    (["buy", "bitcoin", "1", "--price", "1", "--date", "01/02/2024"], 64),
    (["buy", "bitcoin", "abc", "--price", "1"], 64),
    (["buy", "bitcoin", "0", "--price", "1"], 65),
    (["buy", "bitcoin", "1", "--price", "1", "--location", "99"], 66),
    (["buy", "nosuchcoinxyz", "1", "--price", "1"], 66),
    (["--portfolio", "nope", "buy", "bitcoin", "1", "--price", "1"], 66),
    (["sell", "bitcoin", "1", "--price", "abc"], 64),
    (["sell", "bitcoin", "1", "--price", "1", "--date", "2024-13-01"], 64),
    (["sell", "bitcoin", "5", "--price", "1"], 65),
    (["sell", "nosuchcoinxyz", "1", "--price", "1"], 66),
    (["income", "bitcoin", "1", "--price", "1", "--kind", "salary"], 64),
    (["income", "bitcoin", "1", "--price", "1", "--kind", "staking", "--date", "01/02/2024"], 64),
    (["income", "bitcoin", "0", "--price", "1", "--kind", "staking"], 65),
    (["income", "nosuchcoinxyz", "1", "--price", "1", "--kind", "staking"], 66),
    (["deposit", "bitcoin", "1", "--cost", "1", "--acquired", "01/02/2024"], 64),
    (["deposit", "bitcoin", "1", "--cost", "1", "--acquired", "2099-01-01"], 65),
    (["deposit", "nosuchcoinxyz", "1", "--cost", "1"], 66),
    (["withdraw", "bitcoin", "abc"], 64),
    (["withdraw", "bitcoin", "5"], 65),
    (["withdraw", "nosuchcoinxyz", "1"], 66),
    (["--portfolio", "nope", "withdraw", "bitcoin", "1"], 66),
    (["transfer", "bitcoin", "1", "--from", "main"], 64),
    (["transfer", "bitcoin", "1", "--from", "main", "--to", "main"], 65),
    (["transfer", "bitcoin", "1", "--from", "main", "--to", "nope"], 66),
    (["transfer", "nosuchcoinxyz", "1", "--from", "main", "--to", "main"], 66),
    (["swap", "1", "bitcoin", "to", "2", "ethereum"], 64),
    (["swap", "1", "bitcoin", "for", "2", "ethereum", "--max-age", "x"], 64),
    (["swap", "1", "bitcoin", "for", "2", "ethereum", "--value", "abc"], 64),
    (["swap", "1", "bitcoin", "for", "1", "bitcoin"], 65),
    (["swap", "1", "bitcoin", "for", "2", "ethereum", "--date", "2024-01-03"], 65),
    (["swap", "1", "bitcoin", "for", "2", "nosuchcoinxyz"], 66),
    (["tx", "list", "--since", "01/02/2024"], 64),
    (["tx", "list", "--side", "hold"], 64),
    (["tx", "list", "--since", "2024-03-01", "--until", "2024-01-01"], 65),
    (["tx", "list", "--location", "99"], 66),
    (["tx", "show", "x"], 64),
    (["tx", "show", "99"], 66),
    (["tx", "edit", "1", "--date", "01/02/2024"], 64),
    (["tx", "edit", "1", "--quantity", "0"], 65),
    (["tx", "edit", "99", "--price", "1"], 66),
    (["tx", "delete", "x"], 64),
    (["tx", "delete", "99"], 66),
    (["holdings", "--method", "x"], 64),
    (["--portfolio", "nope", "holdings"], 66),
    (["portfolio", "list", "--format", "x"], 64),
    (["portfolio", "add", "p", "--method", "x"], 64),
    (["portfolio", "add", "bad name"], 65),
    (["portfolio", "show", "nope"], 66),
    (["portfolio", "set", "main", "--method", "x"], 64),
    (["portfolio", "set", "nope", "--method", "fifo"], 66),
    (["portfolio", "rename", "main", "bad name"], 65),
    (["portfolio", "rename", "nope", "other"], 66),
    (["portfolio", "delete", "main"], 65),
    (["portfolio", "delete", "nope"], 66),
    (["coins", "list", "--sort", "x"], 64),
    (["coins", "show", "B$D"], 64),
    (["coins", "show", "nosuchcoinxyz"], 66),
    (["coins", "history", "bitcoin", "--since", "xx"], 64),
    (["coins", "history", "nosuchcoinxyz"], 66),
    (["coins", "merge", "bitcoin", "bitcoin"], 65),
    (["coins", "merge", "nosuch", "bitcoin"], 66),
    (["market", "import", "@bad.json", "--at", "x"], 64),
    (["market", "import", "@bad.json"], 65),
    (["market", "import", "@missing.json"], 66),
    (["market", "refresh", "--pages", "x"], 64),
    (["market", "prune", "--keep-days", "x"], 64),
    (["market", "history", "--since", "01/02/2024"], 64),
    (["--portfolio", "nope", "market", "history"], 66),
    (["stats", "--max-age", "x"], 64),
    (["--portfolio", "nope", "stats"], 66),
    (["report", "--date", "01/02/2024"], 64),
    (["report", "--date", "2099-01-01"], 65),
    (["--portfolio", "nope", "report"], 66),
    (["report", "history", "--since", "x"], 64),
    (["report", "history", "--since", "2024-02-01", "--until", "2024-01-01"], 65),
    (["gains", "--since", "x"], 64),
    (["gains", "--since", "2024-02-01", "--until", "2024-01-01"], 65),
    (["--portfolio", "nope", "gains"], 66),
    (["report", "backfill", "--since", "x"], 64),
    (["report", "backfill", "--since", "2099-01-01"], 65),
    (["daily", "--keep-days", "x"], 64),
    (["locations", "list", "--format", "x"], 64),
    (["locations", "add", "X", "--city", "Y", "--lat", "abc", "--lon", "0"], 64),
    (["locations", "add", "X", "--city", "Y", "--lat", "100", "--lon", "0"], 65),
    (["locations", "show", "x"], 66),
    (["locations", "show", "99"], 66),
    (["locations", "next", "99"], 66),
    (["locations", "near", "x", "0"], 64),
    (["locations", "near", "0", "0", "--radius", "abc"], 64),
    (["locations", "near", "100", "0"], 65),
    (["locations", "edit", "1", "--lat", "north"], 64),
    (["locations", "edit", "1", "--lat", "100"], 65),
    (["locations", "edit", "99", "--name", "x"], 66),
    (["locations", "delete", "99"], 66),
    (["locations", "import", "@bad.json"], 65),
    (["locations", "import", "@missing.json"], 66),
    (["locations", "export", "--format", "x"], 64),
    (["import", "trades", "@bad.csv"], 65),
    (["import", "trades", "@missing.csv"], 66),
    (["import", "exchange", "@bad.csv", "--exchange", "ftx"], 64),
    (["import", "exchange", "@bad.csv"], 65),
    (["import", "exchange", "@missing.csv"], 66),
    (["export", "trades", "extra"], 64),
    (["--portfolio", "nope", "export", "trades"], 66),
    (["sql", "SELECT 1; SELECT 2"], 65),
    (["sql", "DELETE FROM trades"], 65),
    (["db", "status", "--format", "x"], 64),
    (["db", "check", "x"], 64),
    (["db", "rebuild", "x"], 64),
    (["db", "path", "x"], 64),
    (["db", "shell", "x"], 64),
    (["db", "migrate", "x"], 64),
    (["db", "backup"], 64),
    (["db", "restore", "@missing.sqlite3"], 66),
    (["demo", "x"], 64),
    (["completions", "tcsh"], 64),
  ]

  @Test func everyCommandFollowsTheRule() throws {
    let sandbox = Sandbox()
    sandbox.write("bad.json", "not json\n")
    sandbox.write("bad.csv", "date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,-1,5\n")
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-02").code == 0)
    let added = sandbox.run(
      "locations", "add", "Colosseum", "--city", "Rome", "--lat", "41.89", "--lon", "12.49")
    #expect(added.code == 0)
    let before = try sandbox.dump()
    for (arguments, expected) in Self.table {
      let words = arguments.map { $0.hasPrefix("@") ? sandbox.file(String($0.dropFirst())) : $0 }
      let result = sandbox.run(words)
      #expect(
        result.code == expected,
        "folio \(arguments.joined(separator: " ")) exited \(result.code): \(result.err)")
      #expect(result.err.hasPrefix("folio: error: "), "\(arguments): \(result.err)")
    }
    #expect(try sandbox.dump() == before, "a refused command changed the database")
  }

  @Test func everyCommandIsInTheTable() {
    func leaves(_ spec: CommandSpec, _ path: [String]) -> [[String]] {
      (spec.make == nil ? [] : [path])
        + spec.subcommands.flatMap { leaves($0, path + [$0.name]) }
    }
    let commandLines = Self.table.map { row in
      // The command words: the row without the global `--portfolio NAME`.
      row.0.first == "--portfolio" ? Array(row.0.dropFirst(2)) : row.0
    }
    for path in leaves(Root.spec, []) where !path.isEmpty {
      #expect(
        commandLines.contains {
          Array($0.prefix(path.count)) == path
        }, "no row for folio \(path.joined(separator: " "))")
    }
  }
}
