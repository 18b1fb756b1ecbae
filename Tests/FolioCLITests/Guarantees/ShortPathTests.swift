import FolioTestSupport
import Foundation
import Testing

/// One-character paths (Foundation's path functions trap on them) work as any other.
@Suite struct ShortPathTests {
  let sandbox = Sandbox()

  @Test func oneCharacterDatabaseAndOutputPathsWork() throws {
    let runs: [[String]] = [
      ["--db", "a", "buy", "bitcoin", "1", "--price", "100"],
      ["--db", "a", "holdings"],
      ["--db", "a", "export", "trades", "--out", "b"],
      ["--db", "a", "report", "--format", "md", "--out", "-"],
      ["--db", "a", "db", "backup", "c"],
    ]
    for arguments in runs {
      let result = try Binary.run(arguments, directory: sandbox.path)
      #expect(result.code == 0, "\(arguments): \(result.code) \(result.err)")
    }
    #expect(DatabaseProbe.run(sandbox.file("a"), "SELECT count(*) FROM trades").out == "1\n")
    #expect(try String(contentsOfFile: sandbox.file("b"), encoding: .utf8).contains(",bitcoin,"))
    #expect(FileManager.default.fileExists(atPath: sandbox.file("-")))
    #expect(DatabaseProbe.run(sandbox.file("c"), "SELECT count(*) FROM trades").out == "1\n")
  }
}
