import FolioTestSupport
import Foundation
import Testing

/// All SQL lives in FolioStorage: no string literal in FolioService or FolioCLI starts with an
/// SQL statement or clause (`"SELECT …`, a `"""` block whose first line is `DELETE FROM …`).
/// Help and error texts that merely mention a statement do not start with one.
@Suite struct SQLPlacementTests {
  static let keywords = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "PRAGMA", "WITH", "VALUES", "FROM",
    "WHERE", "JOIN", "ORDER BY", "GROUP BY", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT",
    "RELEASE", "CREATE", "DROP", "ALTER", "VACUUM", "ATTACH", "DETACH", "AND", "LIMIT",
  ]

  /// Whether `text` (what follows an opening quote) starts with an SQL keyword and a space.
  static func startsWithSQL(_ text: Substring) -> Bool {
    let trimmed = text.drop { $0 == " " }
    return keywords.contains { keyword in
      trimmed.hasPrefix(keyword + " ") || trimmed.hasPrefix(keyword + "\n")
    }
  }

  /// `file:line: text` for each literal in `source` that starts with SQL.
  static func findings(in source: String, file: String) -> [String] {
    var found: [String] = []
    let lines = source.components(separatedBy: "\n")
    for (index, line) in lines.enumerated() {
      let code = line.trimmingCharacters(in: .whitespaces)
      if code.hasPrefix("//") { continue }
      var isSQL = false
      if code.hasSuffix("\"\"\""), index + 1 < lines.count {
        isSQL = startsWithSQL(Substring(lines[index + 1].trimmingCharacters(in: .whitespaces)))
      }
      for piece in line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst() {
        if startsWithSQL(piece) { isSQL = true }
      }
      if isSQL { found.append("\(file):\(index + 1): \(code)") }
    }
    return found
  }

  @Test func noSQLOutsideStorage() throws {
    let root = URL(fileURLWithPath: Fixtures.package).appendingPathComponent("Sources")
    var found: [String] = []
    for module in ["FolioService", "FolioCLI"] {
      let folder = root.appendingPathComponent(module)
      let files = try #require(FileManager.default.enumerator(atPath: folder.path))
      var count = 0
      for case let file as String in files where file.hasSuffix(".swift") {
        count += 1
        let text = try String(
          contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        found += Self.findings(in: text, file: "\(module)/\(file)")
      }
      #expect(count > 10, "too few files read in \(module)")
    }
    #expect(found.isEmpty, "SQL outside FolioStorage:\n\(found.joined(separator: "\n"))")
  }

  @Test func theScanSeesSQL() {
    #expect(!Self.findings(in: "try db.execute(\"DELETE FROM t\")", file: "a").isEmpty)
    #expect(!Self.findings(in: "x(\"\"\"\n  SELECT a FROM t\n  \"\"\")", file: "a").isEmpty)
    #expect(!Self.findings(in: "q + \" WHERE a = ?\"", file: "a").isEmpty)
    #expect(Self.findings(in: "help: \"Runs PRAGMA integrity_check\"", file: "a").isEmpty)
    #expect(Self.findings(in: "// \"SELECT a FROM t\"", file: "a").isEmpty)
  }
}
