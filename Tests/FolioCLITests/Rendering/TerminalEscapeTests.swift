import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// Text that came from outside (trade notes, coin names, symbols and descriptions from
/// CoinGecko or files, location descriptions) is shown, never obeyed, in every text-format
/// output: no ESC, BEL or CR from the data reaches the terminal. JSON keeps it exact.
@Suite struct TerminalEscapeTests {
  let sandbox = Sandbox()

  /// OSC 52 (writes the clipboard), OSC 8 (a hidden link), ESC[2J (clears the screen) and a bare
  /// carriage return (overwrites the line).
  static let hostile =
    "a\u{1B}]52;c;SGVsbG8=\u{07}b\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\"
    + "c\u{1B}[2Jd\re\u{9B}31m\u{202E}f"

  /// A JSON file of CoinGecko's shape, with bitcoin's name, symbol and texts made hostile.
  func craft(_ fixture: String, _ change: (inout [String: Any]) -> Void) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture)))
    let object = try JSONSerialization.jsonObject(with: data)
    let result: Any
    if var items = object as? [[String: Any]] {
      for index in items.indices where items[index]["id"] as? String == "bitcoin" {
        change(&items[index])
      }
      result = items
    } else {
      var item = try #require(object as? [String: Any])
      change(&item)
      result = item
    }
    let path = sandbox.file((fixture as NSString).lastPathComponent)
    try JSONSerialization.data(withJSONObject: result).write(to: URL(fileURLWithPath: path))
    return path
  }

  func prepare() throws {
    let markets = try craft("coingecko/markets_usd.json") {
      $0["name"] = "Bit" + Self.hostile
      $0["symbol"] = "b\u{1B}[2Jtc"
    }
    let coin = try craft("coingecko/coin_bitcoin.json") {
      $0["name"] = "Bit" + Self.hostile
      $0["hashing_algorithm"] = "SHA" + Self.hostile
      $0["description"] = ["en": "About " + Self.hostile]
    }
    let imported = sandbox.run(
      ["market", "import", markets, Fixtures.path("coingecko/global_usd.json"), coin])
    try #require(imported.code == 0, "\(imported.err)")
    let place = sandbox.run(
      "locations", "add", "Harbour", "--city", "Oslo", "--lat", "59.9", "--lon", "10.7",
      "--description", "Pier " + Self.hostile)
    try #require(place.code == 0, "\(place.err)")
    let buy = sandbox.run(
      "buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-23T12:00:00Z", "--note",
      "note " + Self.hostile, "--location", "Harbour, Oslo")
    try #require(buy.code == 0, "\(buy.err)")
  }

  @Test func textOutputsShowControlCharactersInsteadOfSendingThem() throws {
    try prepare()
    let commands: [[String]] = [
      ["tx", "list"], ["tx", "show", "1"], ["coins", "list"], ["coins", "show", "bitcoin"],
      ["coins", "history", "bitcoin"], ["holdings"], ["stats"], ["report"],
      ["report", "--format", "md"], ["report", "--format", "html"],
      ["sql", "SELECT note FROM trades"], ["sql", "SELECT name, symbol FROM coins"],
      ["locations", "list"], ["locations", "show", "Harbour, Oslo"],
      ["locations", "near", "59.9", "10.7"], ["locations", "next", "Harbour, Oslo"],
      ["portfolio", "list"], ["portfolio", "show"], ["db", "check"],
    ]
    var shown = 0
    for command in commands {
      let result = sandbox.run(command, environment: Sandbox.wide)
      #expect(result.code == 0, "\(command): \(result.err)")
      let bad = result.out.unicodeScalars.filter {
        $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" || $0 == "\u{9B}" || $0 == "\u{202E}"
      }
      #expect(bad.isEmpty, "\(command): \(result.out.debugDescription)")
      #expect(!result.err.contains("\u{1B}"), "\(command): \(result.err)")
      if result.out.contains("\\u{1B}]52;c;SGVsbG8=\\u{7}") { shown += 1 }
    }
    // The escapes are shown as text where the data is printed, not dropped.
    #expect(shown >= 10)
    let note = sandbox.run(["tx", "show", "1"], environment: Sandbox.wide)
    #expect(note.out.contains("note:      note a\\u{1B}]52;c;SGVsbG8=\\u{7}b"))
    #expect(note.out.contains("d\\re\\u{9B}31m\\u{202E}f\n"))
  }

  @Test func jsonAndCSVKeepTheDataExactly() throws {
    try prepare()
    let trades = sandbox.run("tx", "list", "--format", "json")
    let list = try #require(
      try JSONSerialization.jsonObject(with: Data(trades.out.utf8)) as? [[String: Any]])
    #expect(list.first?["note"] as? String == "note " + Self.hostile)
    let coin = sandbox.run("coins", "show", "bitcoin", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(coin.out.utf8)) as? [String: Any])
    #expect(object["name"] as? String == "Bit" + Self.hostile)
    let place = sandbox.run("locations", "show", "Harbour, Oslo", "--format", "json")
    let location = try #require(
      try JSONSerialization.jsonObject(with: Data(place.out.utf8)) as? [String: Any])
    #expect(location["description"] as? String == "Pier " + Self.hostile)
    let sql = sandbox.run("sql", "SELECT note FROM trades", "--format", "json")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(sql.out.utf8)) as? [[String: Any]])
    #expect(rows.first?["note"] as? String == "note " + Self.hostile)
    let csv = sandbox.run("sql", "SELECT note FROM trades", "--format", "csv")
    #expect(csv.out == "note\n\"note \(Self.hostile)\"\n")
  }
}
