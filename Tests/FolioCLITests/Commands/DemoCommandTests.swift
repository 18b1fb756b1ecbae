import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct DemoCommandTests {
  let sandbox = Sandbox()

  @Test func refusesAnExistingFile() throws {
    let path = sandbox.write("taken.sqlite3", "my data")
    let result = sandbox.run("--db", path, "demo")
    #expect(result.code == 74)
    #expect(
      result.err
        == "folio: error: \(path) already exists; choose a new file name (nothing was overwritten)\n"
    )
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "my data")
  }

  @Test func theBuiltBinaryRunsTheDemoFromAnyFolderOffline() throws {
    // A copy of the binary in a folder far from the package: the fixtures must be built in.
    let folder = sandbox.file("elsewhere")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let binary = try Binary.copy(into: folder)
    let started = Date()
    let result = try Binary.run(
      ["demo"],
      environment: ["TMPDIR": folder + "/", "FOLIO_DB": sandbox.database].merging(Sandbox.wide) {
        $1
      },
      executable: binary, directory: folder)
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try #require(lines.first)
    #expect(first.hasPrefix("Demo database: \(folder)/folio-demo-"))
    let path = String(first.dropFirst("Demo database: ".count))
    #expect(result.out.contains("\nDaily report: portfolio main (USD, fifo), "))
    for section in ["STATISTICS", "HOLDINGS", "REALIZED PROFIT", "TOP MOVERS (24H)"] {
      #expect(result.out.contains("\n\(section)\n"))
    }
    #expect(result.out.contains("\nVALUE OVER THE LAST 30 DAYS\n"))
    // The copy is not on PATH: the lines name it by its path relative to the current folder,
    // as `.build/debug/folio` after `swift run folio demo`.
    #expect(binary == folder + "/folio")
    #expect(result.out.contains("  ./folio --db \(path) report --format html --out report.html\n"))
    // The file is the user's to remove, and the demo says how.
    #expect(
      result.out.hasSuffix("\nThe demo database is yours to remove when you are done: rm \(path)\n")
    )
    #expect(result.out.contains(" and their saved daily history: 91 days × 2 portfolios.\n"))
    // Demo data never goes to the user's own database.
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    func query(_ sql: String) throws -> String {
      DatabaseProbe.run(path, sql).out
    }
    #expect(
      try query("SELECT group_concat(name || ':' || method) FROM portfolios")
        == "main:fifo,savings:average\n")
    #expect(try query("SELECT count(*) FROM locations") == "5\n")
    #expect(try query("SELECT count(*) FROM market_snapshots") == "91\n")
    #expect(try query("SELECT count(*) FROM global_snapshots") == "91\n")
    #expect(try query("SELECT count(*) FROM portfolio_daily") == "182\n")
    #expect(try query("SELECT count(DISTINCT portfolio_id) FROM trades") == "2\n")
    // The other commands work on it.
    let savings = try Binary.run(
      ["--db", path, "--portfolio", "savings", "report", "--format", "md"], executable: binary,
      directory: folder)
    #expect(savings.code == 0, "\(savings.err)")
    #expect(savings.out.hasPrefix("# Folio daily report: savings, "))
    #expect(elapsed < 10, "the demo took \(elapsed) s")

    // Every "Try next" line works as printed, typed into a shell in the same folder.
    let tries =
      result.out.components(separatedBy: "\nTry next:\n").last?
      .components(separatedBy: "\n\n").first?
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
    #expect(tries.count == 7)
    for line in tries {
      let ran = try Binary.runTool(
        "/bin/sh", ["-c", line], environment: ["PATH": "/usr/bin:/bin", "HOME": folder],
        directory: folder)
      #expect(ran.code == 0, "\(line): \(ran.err)")
      #expect(!ran.out.isEmpty, "\(line)")
    }
    #expect(FileManager.default.fileExists(atPath: folder + "/report.html"))
  }

  @Test func tryNextSaysFolioWhenItIsOnThePath() throws {
    let folder = sandbox.file("bin")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let binary = try Binary.copy(into: folder)
    let result = try Binary.run(
      ["--db", sandbox.file("demo.sqlite3"), "demo"],
      environment: ["PATH": folder + ":/usr/bin:/bin"], executable: binary, directory: folder)
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("\n  folio --db \(sandbox.file("demo.sqlite3")) stats\n"))
  }
}
