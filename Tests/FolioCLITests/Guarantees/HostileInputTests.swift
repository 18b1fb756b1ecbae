import FolioTestSupport
import Foundation
import Testing

/// The hostile-input corpus in `Tests/HostileInput`: CSV and JSON files, dates, command lines
/// and SQL-looking names, each run through the built binary against a copy of one seeded
/// database. `cases.json` lists, for every case, the command, the exit code and a fragment of
/// the one-line message (with `file:line` for files); `generate.py` wrote the files.
///
/// Every case: no signal or trap (exit code below 128), the expected exit code, a single
/// `folio: error: …` line naming the problem (a usage error adds its usage lines), nothing on
/// stdout, and the database dump exactly as before. A case with `stored` is accepted on
/// purpose: its text is stored verbatim (never executed) and the schema is unchanged.
@Suite struct HostileInputTests {
  /// One line of `cases.json`.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    let exit: Int32
    let message: String
    /// The whole stdout expected of an accepted command, when it matters.
    let output: String?
    /// A query and the value it must return after an accepted command.
    let stored: (sql: String, value: String)?

    var testDescription: String { name }
  }

  /// The seeded database every case starts from, and its dump.
  struct Template: Sendable {
    let path: String
    let dump: String
    let schema: String
  }

  static let corpus = Fixtures.package + "/Tests/HostileInput"

  static let cases: [Case] = {
    guard let data = FileManager.default.contents(atPath: corpus + "/cases.json"),
      let items = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
    else { return [] }
    return items.map { item in
      let stored = item["stored"] as? [String: String]
      return Case(
        name: item["name"] as? String ?? "?",
        arguments: (item["args"] as? [String] ?? []).map {
          $0.replacingOccurrences(of: "{corpus}", with: corpus)
        },
        exit: Int32((item["exit"] as? NSNumber)?.intValue ?? -1),
        message: item["message"] as? String ?? "",
        output: item["output"] as? String,
        stored: stored.flatMap { dictionary in
          dictionary["sql"].flatMap { sql in dictionary["value"].map { (sql, $0) } }
        })
    }
  }()

  static let schemaQuery = "SELECT type, name, sql FROM sqlite_schema ORDER BY name"

  /// A database holding a trade, the bundled market data and a location; built once.
  static let template: Template? = {
    let path = TemporaryFolder.forTheRun("folio-hostile").file("template.sqlite3")
    let environment = ["FOLIO_DB": path]
    let coingecko = Fixtures.path("coingecko")
    let steps = [
      ["buy", "bitcoin", "1", "--price", "40000", "--date", "2024-01-01"],
      ["market", "import", coingecko + "/markets_usd.json", coingecko + "/global_usd.json"],
      ["locations", "add", "Colosseum", "--city", "Rome", "--lat", "41.8902", "--lon", "12.4922"],
    ]
    for step in steps {
      guard (try? Binary.run(step, environment: environment))?.code == 0 else { return nil }
    }
    guard let dump = Optional(DatabaseProbe.dump(path)),
      let schema = Optional(DatabaseProbe.run(path, schemaQuery).out),
      DatabaseProbe.walIsEmpty(beside: path)
    else { return nil }
    return Template(path: path, dump: dump, schema: schema)
  }()

  @Test func theCorpusIsThere() throws {
    #expect(Self.cases.count >= 150)
    for folder in ["csv", "json"] {
      let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus + "/" + folder)
      let used = Set(
        Self.cases.flatMap(\.arguments).filter { $0.hasPrefix(Self.corpus + "/" + folder + "/") })
      for file in files {
        #expect(used.contains(Self.corpus + "/" + folder + "/" + file), "\(file) has no case")
      }
    }
  }

  @Test(arguments: HostileInputTests.cases)
  func hostileInputIsRefusedCleanly(_ item: Case) throws {
    let template = try #require(Self.template)
    let sandbox = Sandbox()
    try FileManager.default.copyItem(atPath: template.path, toPath: sandbox.database)
    let result = try Binary.run(item.arguments, environment: ["FOLIO_DB": sandbox.database])

    #expect(result.code < 128, "ended by a signal or a trap: \(result.err)")
    #expect(result.code == item.exit, "\(result.err)")
    if item.exit == 0 {
      if let output = item.output { #expect(result.out == output) }
    } else {
      let lines = result.err.split(separator: "\n").map(String.init)
      let first = lines.first ?? ""
      #expect(first.hasPrefix("folio: error: "), "\(result.err)")
      if item.exit == 64 {
        #expect(first.contains(item.message), "\(first)")
        #expect(lines.count == 3 && lines[1].hasPrefix("Usage: "), "\(result.err)")
      } else if first.hasSuffix(" problems found") {
        // An import refused for several problems lists them one a line.
        #expect(lines.dropFirst().contains { $0.contains(item.message) }, "\(result.err)")
      } else {
        #expect(first.contains(item.message), "\(first)")
        #expect(lines.count == 1, "\(result.err)")
      }
      #expect(result.out.isEmpty)
    }
    if let stored = item.stored {
      #expect(try sandbox.sqlite(stored.sql) == stored.value + "\n")
      #expect(try sandbox.sqlite(Self.schemaQuery) == template.schema)
    } else {
      #expect(try sandbox.dump() == template.dump)
    }
  }
}
