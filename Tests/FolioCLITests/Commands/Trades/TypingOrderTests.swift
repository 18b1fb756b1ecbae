import FolioStorage
import FolioTestSupport
import Foundation
import Testing

/// The same trades give the same figures whatever order they were typed in, and after an
/// export imported into a new database: lots bought at the same moment are ordered by what
/// they are (docs/trades.md, "The order of lots"), never by when their rows were written.
@Suite struct TypingOrderTests {
  let sandbox = Sandbox()

  /// Buys sharing dates (date-only, so the same moment) with different sizes and prices, and
  /// sells between them.
  static let buys: [[String]] = [
    ["bitcoin", "1", "--price", "100", "--date", "2024-01-01"],
    ["bitcoin", "0.5", "--price", "120", "--date", "2024-01-01"],
    ["bitcoin", "2", "--price", "90", "--fee", "1", "--date", "2024-01-01"],
    ["bitcoin", "1", "--price", "110", "--date", "2024-02-01"],
    ["bitcoin", "1", "--price", "105", "--date", "2024-02-01"],
    ["ethereum", "3", "--price", "10", "--date", "2024-01-01"],
    ["ethereum", "1", "--price", "12", "--date", "2024-01-01"],
  ]
  static let sells: [[String]] = [
    ["bitcoin", "1.2", "--price", "150", "--date", "2024-01-15"],
    ["bitcoin", "1.5", "--price", "160", "--date", "2024-03-01"],
    ["ethereum", "2.5", "--price", "15", "--date", "2024-03-01"],
  ]

  /// Holdings and gains under every method, without row ids.
  func figures(_ database: String) -> String {
    var text = ""
    for method in ["fifo", "lifo", "hifo", "average"] {
      for command in [
        ["holdings", "--method", method, "--format", "csv"],
        [
          "gains", "--since", "2024-01-01", "--until", "2024-12-31", "--method", method, "--format",
          "csv",
        ],
      ] {
        let result = sandbox.run(command, environment: ["FOLIO_DB": database])
        text += command.joined(separator: " ") + "\n" + result.out + result.err
      }
    }
    return text
  }

  func type(_ rows: [(side: String, words: [String])], into database: String) {
    for row in rows {
      let result = sandbox.run([row.side] + row.words, environment: ["FOLIO_DB": database])
      #expect(result.code == 0, "\(row): \(result.err)")
    }
  }

  @Test func typedInAnyOrderOrExportedAndImportedTheFiguresAreTheSame() throws {
    let inOrder = sandbox.file("in-order.sqlite3")
    let dated =
      (Self.buys.map { ("buy", $0) } + Self.sells.map { ("sell", $0) }).sorted {
        ($0.1.last ?? "", $0.0) < ($1.1.last ?? "", $1.0)
      }
    type(dated, into: inOrder)
    let expected = figures(inOrder)
    #expect(expected.contains("bitcoin"))

    // Buys in reverse and shuffled orders first (back-dated as they come), then the sells.
    var generator = SplitMix64(seed: 7)
    for (index, buys) in [Self.buys.reversed(), Self.buys.shuffled(using: &generator)].enumerated()
    {
      let database = sandbox.file("typed-\(index).sqlite3")
      type(buys.map { ("buy", $0) } + Self.sells.reversed().map { ("sell", $0) }, into: database)
      #expect(figures(database) == expected, "order \(index)")
    }

    // Exported, then imported into a new database.
    let file = sandbox.file("trades.csv")
    let exported = sandbox.run(
      ["export", "trades", "--out", file], environment: ["FOLIO_DB": inOrder])
    #expect(exported.code == 0, "\(exported.err)")
    let copy = sandbox.file("imported.sqlite3")
    let imported = sandbox.run(["import", "trades", file], environment: ["FOLIO_DB": copy])
    #expect(imported.code == 0, "\(imported.err)")
    #expect(figures(copy) == expected)
  }
}
