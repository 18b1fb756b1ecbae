import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

extension Sandbox {
  /// A /coins/markets page of bitcoin, ethereum and solana at the given prices and 24h changes
  /// (nil writes null), with a short 7-day sparkline for bitcoin.
  func marketsPage(
    bitcoin: (String, String?), ethereum: (String, String?), solana: (String, String?)
  ) -> String {
    func coin(
      _ id: String, _ symbol: String, _ name: String, _ rank: Int, _ quote: (String, String?)
    )
      -> String
    {
      let sparkline =
        id == "bitcoin"
        ? ", \"sparkline_in_7d\": {\"price\": [91000, 92500, 90500, 93000, 94500, 93800, 95500, "
          + "96200, 95100, 96800, 97300, \(quote.0)]}" : ""
      return """
        {"id": "\(id)", "symbol": "\(symbol)", "name": "\(name)", "current_price": \(quote.0),
         "market_cap_rank": \(rank), "price_change_percentage_24h": \(quote.1 ?? "null")\(sparkline)}
        """
    }
    return "["
      + [
        coin("bitcoin", "btc", "Bitcoin", 1, bitcoin),
        coin("ethereum", "eth", "Ethereum", 2, ethereum),
        // A name with characters every format must escape.
        coin("solana", "sol", "Solana & <Co> | *x*", 5, solana),
      ].joined(separator: ",\n") + "]"
  }

  /// Puts a copy of the report scenario's database (built once per test run, see
  /// `buildReportScenario`) in this sandbox.
  func useReportScenario() throws {
    try FileManager.default.copyItem(atPath: ReportScenario.template.database, toPath: database)
  }

  /// The report scenario, with the clock at 2024-11-30T12:00:00Z:
  /// - market snapshots on 2024-11-29 at 12:00 and 2024-11-30 at 11:00, /global on the 30th;
  /// - the five locations;
  /// - main (fifo): bitcoin 0.5 at 60000 + 10 fee (2024-10-01, at the Colosseum), ethereum 4 at
  ///   2500 + 5 (2024-11-02), 1 ethereum sold at 3000 − 3 (2024-11-15: realized 495.75),
  ///   100 of an unpriced coin at 0.5 (2024-11-20), solana 10 at 235 + 1 (today 09:30, at the
  ///   Eiffel Tower), 0.1 bitcoin sold at 96000 − 2 (today 10:15: realized 3596);
  /// - the daily history saved from 2024-11-25 through 2024-11-29.
  func buildReportScenario() {
    let day29 = write(
      "markets-29.json",
      marketsPage(bitcoin: ("95000", "-1.5"), ethereum: ("3500", "2"), solana: ("230", "0")))
    let day30 = write(
      "markets-30.json",
      marketsPage(bitcoin: ("97000.5", "2.105"), ethereum: ("3600", "2.857"), solana: ("240", nil)))
    let steps: [[String]] =
      [
        ["market", "import", day29, "--at", "2024-11-29T12:00:00Z"],
        ["market", "import", day30, "--at", "2024-11-30T11:00:00Z"],
        [
          "market", "import", Fixtures.path("coingecko/global_usd.json"), "--at",
          "2024-11-30T11:00:00Z",
        ],
        ["locations", "import", Fixtures.path("locations.json")],
        [
          "buy", "bitcoin", "0.5", "--price", "60000", "--fee", "10", "--date", "2024-10-01",
          "--location", "Colosseum, Rome",
        ],
        ["buy", "ethereum", "4", "--price", "2500", "--fee", "5", "--date", "2024-11-02"],
        [
          "sell", "ethereum", "1", "--price", "3000", "--fee", "3", "--date",
          "2024-11-15T16:00:00Z",
        ],
        ["buy", "obscure-coin", "100", "--price", "0.5", "--date", "2024-11-20", "--new-coin"],
        [
          "buy", "solana", "10", "--price", "235", "--fee", "1", "--date", "2024-11-30T09:30:00Z",
          "--location", "Eiffel Tower, Paris",
        ],
        [
          "sell", "bitcoin", "0.1", "--price", "96000", "--fee", "2", "--date",
          "2024-11-30T10:15:00Z",
        ],
      ]
      // Saved one by one: backfill skips the days before the first snapshot (value n/a).
      + (25...29).map { ["report", "--date", "2024-11-\($0)", "--save"] }
    for step in steps {
      let result = run(step)
      #expect(result.code == 0, "\(step): \(result.err)")
    }
  }
}

/// The report scenario built once per test run; every test copies its database.
enum ReportScenario {
  /// The template database, its folder (removed when the tests end) and the folder its market
  /// files were imported from (named in the snapshots' sources).
  static let template: (database: String, folder: String, importedFrom: String) = {
    let folder = TemporaryFolder.forTheRun("folio-report-scenario").path
    let builder = Sandbox()
    builder.buildReportScenario()
    let database = folder + "/folio.sqlite3"
    try? FileManager.default.copyItem(atPath: builder.database, toPath: database)
    return (database, folder, builder.path)
  }()
}

/// Expected outputs kept as files under Tests/FolioCLITests/Golden/, compared exactly.
/// Run the tests with FOLIO_UPDATE_GOLDEN=1 to write the files from the current output
/// (then review the diff before committing).
enum Golden {
  static let folder = Fixtures.package + "/Tests/FolioCLITests/Golden"

  static var updating: Bool { ProcessInfo.processInfo.environment["FOLIO_UPDATE_GOLDEN"] == "1" }

  static func check(
    _ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let path = folder + "/" + name
    if updating {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
      return
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      Issue.record(
        "missing golden file \(path); run the tests with FOLIO_UPDATE_GOLDEN=1 to write it",
        sourceLocation: sourceLocation)
      return
    }
    let expected = String(decoding: data, as: UTF8.self)
    if expected != actual {
      let expectedLines = expected.components(separatedBy: "\n")
      let actualLines = actual.components(separatedBy: "\n")
      let index =
        (0..<min(expectedLines.count, actualLines.count)).first {
          expectedLines[$0] != actualLines[$0]
        } ?? min(expectedLines.count, actualLines.count)
      let want = index < expectedLines.count ? expectedLines[index] : "<end>"
      let got = index < actualLines.count ? actualLines[index] : "<end>"
      let message =
        "\(name) differs from the golden file at line \(index + 1):\n  want: \(want)\n"
        + "  got:  \(got)\n(FOLIO_UPDATE_GOLDEN=1 rewrites it)"
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }
}

extension ExternalTool {
  /// Runs python3 with `script` and `arguments` (tests that call it are `.requires(.python3)`).
  static func python(_ script: String, _ arguments: [String]) throws -> RunResult {
    try Binary.runTool(python3.path ?? "python3", ["-c", script] + arguments)
  }
}
