import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI
@testable import FolioService

/// `folio daily`: refresh, save and file the day's reports (issue 19).
@Suite struct DailyCommandTests {
  let sandbox = Sandbox()
  var reports: String { sandbox.file("reports") }

  /// The report scenario (main, clock 2024-11-30T12:00:00Z) plus `cold`, holding one bitcoin.
  init() throws {
    try sandbox.useReportScenario()
    for step in [
      ["portfolio", "add", "cold"],
      ["buy", "bitcoin", "1", "--price", "50000", "--date", "2024-11-01", "--portfolio", "cold"],
    ] {
      let result = sandbox.run(step)
      try #require(result.code == 0, "\(result.err)")
    }
  }

  func daily(_ arguments: String..., environment: [String: String] = [:]) -> RunResult {
    sandbox.run(["daily", "--out-dir", reports] + arguments, environment: environment)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  func read(_ path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  func listing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// main: 0.4 BTC at 97,000.50, 3 ETH at 3,600 and 10 SOL at 240 (the obscure coin has no
  /// price); its profit went from 20,982 on the 29th (unrealized 20,486.25 + realized 495.75)
  /// to 22,229.20 (18,137.45 + 4,091.75): +1,247.20, 2.15% of the 29th's 58,000.
  static let summary =
    "daily 2024-11-30: cold $97,000.50 (no earlier day), main $52,000.20 (+$1,247.20, +2.15%); "
    + "snapshot 1h old; wrote 5 file(s) in "

  @Test func filesEachPortfolioInEachFormatSavesTheDayAndPrintsOneSummaryLine() throws {
    let result = daily("--offline")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    #expect(result.out == Self.summary + reports + "; refresh skipped (--offline)\n")
    #expect(listing(reports) == [".folio-daily.lock", "2024-11-30", "index.html"])
    #expect(
      listing(reports + "/2024-11-30") == ["cold.html", "cold.md", "main.html", "main.md"])
    // Each file is the report `folio report` renders for the day.
    let markdown = sandbox.run("report", "--format", "md")
    #expect(read(reports + "/2024-11-30/main.md") == markdown.out)
    #expect(read(reports + "/2024-11-30/cold.html").contains("<h1>cold <span"))
    #expect(
      try sandbox.sqlite(
        "SELECT p.name, d.value, d.snapshot_at FROM portfolio_daily d "
          + "JOIN portfolios p ON p.id = d.portfolio_id WHERE day = '2024-11-30' ORDER BY p.name")
        == "cold|97000.5|2024-11-30T11:00:00Z\nmain|52000.2|2024-11-30T11:00:00Z\n")
  }

  @Test func theSameDayAgainReplacesTheDaysRowsAndFiles() throws {
    #expect(daily("--offline").code == 0)
    sandbox.now = sandbox.now.addingTimeInterval(3600)
    let again = daily("--offline", "--formats", "md")
    #expect(again.code == 0, "\(again.err)")
    #expect(again.out.contains("wrote 3 file(s)"))
    #expect(
      try sandbox.sqlite(
        "SELECT count(*), max(saved_at) FROM portfolio_daily WHERE day = '2024-11-30'")
        == "2|2024-11-30T13:00:00Z\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM portfolio_daily") == "7\n")
  }

  @Test func portfolioNamesOneAndFormatsChooseTheFiles() throws {
    let result = sandbox.run(
      [
        "--portfolio", "cold", "daily", "--out-dir", reports, "--offline", "--formats",
        "json,text,json",
      ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.hasPrefix("daily 2024-11-30: cold $97,000.50 (no earlier day); "))
    #expect(listing(reports + "/2024-11-30") == ["cold.json", "cold.txt"])
    #expect(
      try sandbox.sqlite("SELECT portfolio_id FROM portfolio_daily WHERE day = '2024-11-30'")
        == "2\n")
    let unknown = sandbox.run(["--portfolio", "nope", "daily", "--out-dir", reports, "--offline"])
    #expect(unknown.code == 66)
    #expect(unknown.err.hasPrefix("folio: error: there is no portfolio named 'nope'"))
  }

  @Test func badOptionsAreUsageErrors() throws {
    for arguments in [["--formats", "pdf"], ["--formats", ""], ["--keep-days", "0"]] {
      let result = daily(arguments[0], arguments[1])
      #expect(result.code == 64, "\(arguments)")
      #expect(result.err.hasPrefix("folio: error: invalid value '\(arguments[1])' for --"))
    }
    #expect(!exists(reports))
  }

  @Test func theFolderDefaultsToTheXDGStateHomeThenHome() throws {
    let state = sandbox.file("state")
    let home = sandbox.file("home")
    var result = sandbox.run(
      "daily", "--offline", environment: ["XDG_STATE_HOME": state, "HOME": home])
    #expect(result.code == 0, "\(result.err)")
    #expect(exists(state + "/folio/reports/2024-11-30/main.html"))
    // A relative XDG_STATE_HOME is ignored, as the XDG specification says.
    result = sandbox.run(
      "daily", "--offline", environment: ["XDG_STATE_HOME": "rel", "HOME": home])
    #expect(result.code == 0, "\(result.err)")
    #expect(exists(home + "/.local/state/folio/reports/index.html"))
    result = sandbox.run("daily", "--offline")
    #expect(result.code == 64)
    #expect(result.err.hasPrefix("folio: error: HOME is not set: name the reports folder"))
  }

  @Test func withoutADatabaseNothingIsCreated() throws {
    let result = sandbox.run(
      ["daily", "--out-dir", reports, "--offline"],
      environment: ["FOLIO_DB": sandbox.file("missing.sqlite3")])
    #expect(result.code == 66)
    #expect(!exists(reports))
    #expect(!exists(sandbox.file("missing.sqlite3")))
  }

  // MARK: Refresh

  @Test func aFailedRefreshWarnsAndGoesOnWithTheCache() throws {
    let server = try LoopbackServer()
    server.route("/coins/markets", .json("{}", status: 503))
    let environment = [
      "FOLIO_COINGECKO_URL": server.baseURL, "FOLIO_HTTP_RETRIES": "1",
      "FOLIO_HTTP_RETRY_BASE_MS": "1", "FOLIO_HTTP_RETRY_MAX_WAIT_MS": "10",
    ]
    let result = daily(environment: environment)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.hasPrefix("folio: warning: CoinGecko"))
    #expect(result.err.hasSuffix("; going on with the cached prices\n"))
    #expect(result.out == Self.summary + reports + "; refresh failed (cached prices used)\n")
    #expect(exists(reports + "/2024-11-30/main.html"))

    // --strict: 69, nothing saved, no report filed.
    try FileManager.default.removeItem(atPath: reports)
    let before = try sandbox.dump()
    let strict = daily("--strict", environment: environment)
    #expect(strict.code == 69)
    #expect(strict.err.hasPrefix("folio: error: CoinGecko"))
    #expect(strict.out.isEmpty)
    #expect(try sandbox.dump() == before)
    #expect(listing(reports) == [".folio-daily.lock"])
  }

  @Test func aRefreshStoresASnapshotOncePerCurrency() throws {
    let server = try LoopbackServer()
    server.route(
      "/coins/markets",
      .json(
        sandbox.marketsPage(
          bitcoin: ("100000", "1"), ethereum: ("4000", "1"), solana: ("250", "1"))))
    server.route("/global", try .fixture("coingecko/global_usd.json"))
    let result = daily(environment: ["FOLIO_COINGECKO_URL": server.baseURL])
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out.contains(
        "cold $100,000.00 (no earlier day), main $54,500.00 (+$3,747.00, +6.46%); snapshot 0s old;")
    )
    #expect(result.out.hasSuffix("; refresh ok\n"))
    #expect(server.requests(to: "/coins/markets").count == 2)  // page 1, then the unpriced coin
    #expect(
      try sandbox.sqlite(
        "SELECT count(*) FROM market_snapshots WHERE fetched_at = '2024-11-30T12:00:00Z'")
        == "1\n")
  }

  // MARK: The index

  func theIndexListsTheDaysNewestFirstWithValueChangeAndChart()
    throws
  {
    // A folder left from an earlier day, and one that only looks dated.
    try FileManager.default.createDirectory(
      atPath: reports + "/2024-11-29", withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: reports + "/2024-11-29/main.html", contents: nil)
    try FileManager.default.createDirectory(
      atPath: reports + "/2024-11-31", withIntermediateDirectories: true)
    #expect(daily("--offline").code == 0)
    let page = read(reports + "/index.html")
    let check = try ExternalTool.python(
      """
      import sys, xml.etree.ElementTree as ET
      ns = {"h": "http://www.w3.org/1999/xhtml", "s": "http://www.w3.org/2000/svg"}
      root = ET.parse(sys.argv[1]).getroot()
      print(len(root.findall(".//s:svg", ns)))
      for row in root.findall(".//h:tbody/h:tr", ns):
          print("|".join("".join(cell.itertext()) for cell in row))
      print(" ".join(a.get("href") for a in root.findall(".//h:a", ns)))
      """, [reports + "/index.html"])
    #expect(check.code == 0, "\(check.err)")
    #expect(
      check.out == """
        1
        2024-11-30|$97,000.50html · md|$52,000.20+$1,247.20 (+2.15%)html · md
        2024-11-29||$58,000.00html
        2024-11-30/cold.html 2024-11-30/cold.md 2024-11-30/main.html 2024-11-30/main.md \
        2024-11-29/main.html

        """)
    #expect(!page.contains("<script") && !page.contains("src=") && !page.contains("url("))
  }

  /// A name no folio command gives (the database's CHECK forbids it; only a file edited with
  /// that check switched off holds one), for the tests of hostile names.
  static let hostileName = "<script>alert(\"x\")</script>'&\u{1}\u{1b}[2J"

  /// Renames the portfolio `cold` to `name` behind folio's back, its CHECK switched off.
  func renameColdBehindFoliosBack(_ name: String) throws {
    let quoted = name.replacingOccurrences(of: "'", with: "''")
    let edit = DatabaseProbe.run(
      sandbox.database,
      "PRAGMA ignore_check_constraints = 1; UPDATE portfolios SET name = '\(quoted)' WHERE name = 'cold'"
    )
    try #require(edit.error == nil, "\(edit.error ?? "")")
  }

  @Test func aPortfolioNameFolioWouldNotGiveIsRefusedBeforeAnythingIsWritten() throws {
    for name in ["../../escaped", Self.hostileName, "a/b"] {
      try renameColdBehindFoliosBack(name)
      let before = try sandbox.dump()
      let result = daily("--offline")
      #expect(result.code == 65, "\(name)")
      #expect(
        result.err.hasPrefix("folio: error: portfolio '")
          && result.err.hasSuffix(
            "' has a name folio does not allow, so it cannot name a report file (the database "
              + "was edited outside folio); rename it with 'folio portfolio rename'\n"),
        "\(name)")
      #expect(!result.err.contains("\u{1b}"))
      #expect(try sandbox.dump() == before)
      #expect(!exists(reports))
      #expect(listing(sandbox.path).allSatisfy { !$0.contains("escaped") })
      // Renamed with folio, the portfolio is filed again.
      let renamed = sandbox.run("portfolio", "rename", name, "cold")
      #expect(renamed.code == 0, "\(renamed.err)")
    }
    // The other portfolio alone is filed: only the portfolios of the run are checked.
    try renameColdBehindFoliosBack("a/b")
    let main = sandbox.run(["--portfolio", "main", "daily", "--out-dir", reports, "--offline"])
    #expect(main.code == 0, "\(main.err)")
  }

  func theIndexEscapesMarkupQuotesAndControlCharactersInNames()
    throws
  {
    // The page renders whatever names the database holds, escaped.
    try renameColdBehindFoliosBack(Self.hostileName)
    let store = try Store(StoreLocation(path: sandbox.database))
    let portfolio = try #require(
      try Portfolio.all(store.database).first { $0.name == Self.hostileName })
    let row = DailyRecord(
      portfolioID: portfolio.id, day: "2024-11-30", value: try ExactDecimal(parsing: "97000.5"),
      costBasis: nil, unrealized: nil, realized: nil, snapshotAt: nil,
      savedAt: "2024-11-30T12:00:00Z")
    let entry = DailyIndexEntry(
      portfolio: portfolio, value: row.value, change: nil, changePercent: nil,
      files: [Self.hostileName + ".html"])
    let page = ReportHTML.index(
      DailyIndex(days: [("2024-11-30", [entry])], history: [(portfolio, [row, row])]),
      generatedAt: "2024-11-30T12:00:00Z")
    #expect(!page.contains("<script") && !page.contains("\u{1}") && !page.contains("\u{1b}"))
    #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;"))
    let path = sandbox.write("index.html", page)
    let check = try ExternalTool.python(
      """
      import sys, xml.etree.ElementTree as ET
      ns = {"h": "http://www.w3.org/1999/xhtml"}
      root = ET.parse(sys.argv[1]).getroot()
      print(len(root.findall(".//h:script", ns)))
      print(root.find(".//h:section/h:h2", ns).text.startswith('<script>alert("x")</script>'))
      print(root.find(".//h:a", ns).get("href").startswith('2024-11-30/<script>'))
      """, [path])
    #expect(check.code == 0, "\(check.err)")
    #expect(check.out == "0\nTrue\nTrue\n")
  }

  // MARK: Keeping days

  @Test func keepDaysRemovesOnlyOldDatedFoldersFolioWrote() throws {
    let manager = FileManager.default
    func folder(_ name: String, _ files: [String] = ["main.html", "main.md"]) throws {
      try manager.createDirectory(
        atPath: reports + "/" + name, withIntermediateDirectories: true)
      for file in files { manager.createFile(atPath: reports + "/\(name)/\(file)", contents: nil) }
    }
    try folder("2024-11-20")
    try folder("2024-11-29")
    try folder("2024-11-10", ["main.html", "mine.pdf"])
    try folder("2024-11-01-notes")
    try folder("notes")
    let outside = sandbox.file("outside")
    try folder("../outside")
    try manager.createSymbolicLink(atPath: reports + "/2024-11-05", withDestinationPath: outside)

    // Without --keep-days nothing is removed.
    #expect(daily("--offline").code == 0)
    #expect(listing(reports).count == 9)

    let result = daily("--offline", "--keep-days", "2")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.err
        == "folio: warning: kept \(reports)/2024-11-10: it holds files folio did not write\n"
        + "folio: warning: kept \(reports)/2024-11-05: it is a link, and folio removes nothing "
        + "through one\n")
    #expect(
      listing(reports) == [
        ".folio-daily.lock", "2024-11-01-notes", "2024-11-05", "2024-11-10", "2024-11-29",
        "2024-11-30", "index.html", "notes",
      ])
    #expect(listing(reports + "/2024-11-10") == ["mine.pdf"])
    #expect(listing(outside) == ["main.html", "main.md"])
    #expect(listing(reports + "/notes") == ["main.html", "main.md"])

    #expect(daily("--offline", "--keep-days", "1").code == 0)
    #expect(!exists(reports + "/2024-11-29"))
    #expect(exists(reports + "/2024-11-30/main.html"))
  }

  // MARK: Safety

  @Test func keepDaysRemovesOnlyPortfolioFilesInFolioFormatsAndItsStaleTemporaryFiles() throws {
    let manager = FileManager.default
    func folder(_ name: String, _ files: [String]) throws {
      try manager.createDirectory(
        atPath: reports + "/" + name, withIntermediateDirectories: true)
      for file in files {
        manager.createFile(atPath: reports + "/\(name)/\(file)", contents: Data("x".utf8))
      }
    }
    // Folio's files, a stale temporary file of a killed write, and a user's files.
    try folder(
      "2024-11-01",
      [
        "main.html", "main.md", "cold.json", "cold.txt", "cold.csv", ".folio-123-456.tmp",
        "notes.md", "summary.html", "main.pdf", "main.html.bak", ".folio-x.tmp", "MAIN.md",
      ])
    try folder("2024-11-02", ["main.html", "cold.md", ".folio-9-1.tmp"])
    try folder("2024-11-03", ["notes.md"])
    try manager.createDirectory(
      atPath: reports + "/2024-11-04/main.md", withIntermediateDirectories: true)
    let target = sandbox.write("target.txt", "mine")
    try folder("2024-11-05", [])
    try manager.createSymbolicLink(
      atPath: reports + "/2024-11-05/main.html", withDestinationPath: target)
    try folder("2024-11-29", ["main.html", "notes.md"])
    let notes = reports + "/notes.md"
    sandbox.write("reports/notes.md", "mine")

    let result = daily("--offline", "--keep-days", "2")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.err.split(separator: "\n").map(String.init)
        == ["2024-11-05", "2024-11-04", "2024-11-03", "2024-11-01"].map {
          "folio: warning: kept \(reports)/\($0): it holds files folio did not write"
        })
    #expect(
      listing(reports + "/2024-11-01") == [
        ".folio-x.tmp", "MAIN.md", "main.html.bak", "main.pdf", "notes.md", "summary.html",
      ])
    #expect(!exists(reports + "/2024-11-02"))
    #expect(listing(reports + "/2024-11-03") == ["notes.md"])
    #expect(listing(reports + "/2024-11-04") == ["main.md"])
    #expect(listing(reports + "/2024-11-05") == ["main.html"])
    #expect(read(target) == "mine")
    // The days kept are untouched, and so is everything outside the dated folders.
    #expect(listing(reports + "/2024-11-29") == ["main.html", "notes.md"])
    #expect(read(notes) == "mine")
    #expect(
      listing(reports) == [
        ".folio-daily.lock", "2024-11-01", "2024-11-03", "2024-11-04", "2024-11-05",
        "2024-11-29", "2024-11-30", "index.html", "notes.md",
      ])
  }

  @Test func aSecondRunWhileOneHoldsTheFolderExits75AndWritesNothing() throws {
    let lock = try DailyArchive(path: reports).lock()
    let before = try sandbox.dump()
    let result = daily("--offline")
    close(lock)
    #expect(result.code == 75)
    #expect(
      result.err == "folio: error: another 'folio daily' is filing reports in \(reports); "
        + "nothing was done (run it again when that one has finished)\n")
    #expect(try sandbox.dump() == before)
    #expect(listing(reports) == [".folio-daily.lock"])
    #expect(daily("--offline").code == 0)
  }

  /// The figures are saved before any file is written: a report that cannot be written then
  /// exits 74 with the day saved (no file is ever left for a day whose figures were not saved),
  /// and what can be checked before saving is, so those failures save nothing.
  @Test func aReportThatCannotBeWrittenExits74AfterTheDayIsSaved() throws {
    try FileManager.default.createDirectory(
      atPath: reports + "/2024-11-30/cold.md", withIntermediateDirectories: true)
    let result = daily("--offline")
    #expect(result.code == 74)
    #expect(result.err.hasPrefix("folio: error: \(reports)/2024-11-30/cold.md: cannot be written"))
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM portfolio_daily WHERE day = '2024-11-30'") == "2\n")
    #expect(!exists(reports + "/index.html"))
    _ = try sandbox.sqlite("DELETE FROM portfolio_daily WHERE day = '2024-11-30'")
    let before = try sandbox.dump()

    // A day's folder that is a regular file is refused, named, and left as it is.
    try FileManager.default.removeItem(atPath: reports + "/2024-11-30")
    sandbox.write("reports/2024-11-30", "mine")
    let notAFolder = daily("--offline")
    #expect(notAFolder.code == 74)
    #expect(
      notAFolder.err
        == "folio: error: \(reports)/2024-11-30: cannot be written (it is not a folder; move it "
        + "away and run again); the file, if any, was left as it was\n")
    #expect(read(reports + "/2024-11-30") == "mine")
    #expect(try sandbox.dump() == before)

    // An index.html that cannot be replaced (here a folder) is found before anything is
    // written or saved.
    try FileManager.default.removeItem(atPath: reports + "/2024-11-30")
    try FileManager.default.createDirectory(
      atPath: reports + "/index.html", withIntermediateDirectories: true)
    let noIndex = daily("--offline")
    #expect(noIndex.code == 74)
    #expect(noIndex.err.hasPrefix("folio: error: \(reports)/index.html: cannot be written"))
    #expect(try sandbox.dump() == before)
    #expect(listing(reports + "/2024-11-30") == [])
    try FileManager.default.removeItem(atPath: reports + "/index.html")

    // An empty --out-dir is a usage error.
    let empty = sandbox.run(["daily", "--out-dir", "", "--offline"])
    #expect(empty.code == 64)
    #expect(empty.err.hasPrefix("folio: error: --out-dir is empty: name a folder\n"))

    // A reports folder that is a regular file is refused and left as it is.
    let plain = sandbox.write("plain", "x")
    let refused = sandbox.run(["daily", "--out-dir", plain, "--offline"])
    #expect(refused.code == 74)
    #expect(refused.err.hasPrefix("folio: error: \(plain): cannot be written ("))
    #expect(read(plain) == "x")
  }
}

extension DailyCommandTests {
  /// The tests that run python3: skipped, saying why, where it is not installed.
  @Suite(.requires(.python3)) struct NeedsPython3 {
    @Test func theIndexListsTheDaysNewestFirstWithValueChangeAndChart() throws {
      try DailyCommandTests().theIndexListsTheDaysNewestFirstWithValueChangeAndChart()
    }
    @Test func theIndexEscapesMarkupQuotesAndControlCharactersInNames() throws {
      try DailyCommandTests().theIndexEscapesMarkupQuotesAndControlCharactersInNames()
    }
  }
}
