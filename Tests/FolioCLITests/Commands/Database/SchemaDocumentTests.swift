import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// docs/schema.md cannot rot: every query in it runs with the real sqlite3 on a database built
/// by the CLI, and every table, view and column of that database is documented in it.
@Suite(.requires(.sqlite3)) struct SchemaDocumentTests {
  let sandbox = Sandbox()

  static let document = URL(fileURLWithPath: Fixtures.package + "/docs/schema.md")

  /// The ```sql blocks of the document, in order.
  static func queries() throws -> [String] {
    let text = try String(contentsOf: document, encoding: .utf8)
    var queries: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```sql" {
        current = []
      } else if let lines = current, line == "```" {
        queries.append(lines.joined(separator: "\n"))
        current = nil
      } else if current != nil {
        current?.append(line)
      }
    }
    return queries
  }

  @Test func everyQueryRunsInSqlite3AndReturnsRows() throws {
    try sandbox.buildDemo(withMarketData: true)
    let queries = try Self.queries()
    #expect(queries.count >= 12)
    for query in queries {
      let rows = try sandbox.sqliteJSON(query)
      #expect(!rows.isEmpty, "no rows from:\n\(query)")
    }
  }

  @Test func everyQueryWithoutTheShellsDecimalFunctionsRunsInFolioSQLWithTheSameRows() throws {
    try sandbox.buildDemo(withMarketData: true)
    let queries = try Self.queries().filter { !$0.contains("decimal_") }
    #expect(queries.count >= 12)
    for query in queries {
      let result = sandbox.run("sql", query, "--format", "json")
      #expect(result.code == 0, "\(result.err) from:\n\(query)")
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]])
      let expected = try sandbox.sqliteJSON(query)
      #expect(rows.count == expected.count, "\(query)")
      #expect(rows.map { Set($0.keys) } == expected.map { Set($0.keys) }, "\(query)")
    }
  }

  @Test func everyTableViewAndColumnIsDocumented() throws {
    try sandbox.buildDemo(withMarketData: true)
    let text = try String(contentsOf: Self.document, encoding: .utf8)
    let objects = try sandbox.sqliteJSON(
      "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"
    ).compactMap { $0["name"] as? String }
    #expect(objects.contains("v_holdings") && objects.contains("portfolio_daily"))
    for object in objects {
      #expect(text.contains("`\(object)`"), "\(object) is not documented")
      let columns = try sandbox.sqliteJSON("SELECT name FROM pragma_table_info('\(object)')")
        .compactMap { $0["name"] as? String }
      #expect(!columns.isEmpty)
      for column in columns {
        let twin = column.hasSuffix("_real") ? String(column.dropLast(5)) : nil
        let documented =
          text.contains("`\(column)`") || twin.map { text.contains("`\($0)`/`_real`") } == true
        #expect(documented, "\(object).\(column) is not documented")
      }
    }
  }
}
