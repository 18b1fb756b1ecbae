import Foundation
import Testing

/// `folio db shell` through the built binary: it replaces itself with sqlite3, or says why not.
@Suite struct DBShellTests {
  let sandbox = Sandbox()

  @Test func execsSqlite3OnTheFileWithForeignKeysOn() throws {
    try sandbox.buildDemo()
    let result = try Binary.run(
      ["db", "shell", "--db", sandbox.database],
      stdin: "PRAGMA foreign_keys;\nSELECT count(*) FROM v_trades;\n")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "1\n8\n")
  }

  @Test func withoutSqlite3OnThePathItExits69() throws {
    try sandbox.buildDemo()
    let result = try Binary.run(
      ["db", "shell", "--db", sandbox.database], environment: ["PATH": ""])
    #expect(result.code == 69)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "folio: error: the sqlite3 shell is not installed (no 'sqlite3' on PATH); install it "
        + "(for example 'apt-get install sqlite3') or query with 'folio sql'\n")
  }

  @Test func aMissingDatabaseIsNotCreated() throws {
    let result = try Binary.run(["db", "shell", "--db", sandbox.database])
    #expect(result.code == 66)
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }
}
