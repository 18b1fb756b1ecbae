import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct StoreTests {
  let scratch = TemporaryFolder("folio-store")

  func location(_ name: String = "folio.sqlite3") -> StoreLocation {
    StoreLocation(path: scratch.path + "/" + name)
  }

  @Test func newStoreIsCreatedAndMigrated() throws {
    let store = try Store(location())
    #expect(store.migration.applied == Migration.embedded)
    #expect(store.migration.backupPath == nil)
    #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migration.embedded.count))
  }

  @Test func missingFileIsAnErrorWhenItMustExist() {
    #expect(throws: StoreError.missingDatabase(location().path)) {
      try Store(location(), mustExist: true)
    }
    #expect(throws: StoreError.missingDatabase(location().path)) {
      try Store(readOnly: location())
    }
    #expect(!FileManager.default.fileExists(atPath: location().path))
  }

  @Test func fileThatIsNotADatabaseIsRefusedUnchanged() throws {
    let junk = Data(repeating: 0x41, count: 2048)
    #expect(FileManager.default.createFile(atPath: location().path, contents: junk))
    let error = try #require(throws: StoreError.self) { try Store(location()) }
    #expect(error == .notADatabase(location().path))
    #expect(error.kind == .badData)
    #expect(FileManager.default.contents(atPath: location().path) == junk)
  }

  @Test func readOnlyStoreEitherRequiresTheCurrentSchemaOrTakesTheFileAsItIs() throws {
    guard Migration.embedded.count >= 2 else { return }
    do {
      let db = try Database(path: location().path)
      try Migrator(migrations: [Migration.embedded[0]]).migrate(db)
    }
    let error = try #require(throws: StoreError.self) { try Store(readOnly: location()) }
    guard case .cannotOpen(_, let reason) = error else {
      Issue.record("expected cannotOpen, got \(error)")
      return
    }
    #expect(reason.contains("run 'folio db migrate' first"))
    let inspected = try Store(readOnly: location(), requireCurrentSchema: false)
    #expect(try inspected.database.scalarInt("PRAGMA user_version") == 1)
    #expect(throws: SQLiteError.self) {
      try inspected.database.execute("INSERT INTO settings (key, value) VALUES ('a', 'b')")
    }
  }

  @Test func busyTimeoutComesFromTheEnvironment() throws {
    let location = try StoreLocation.resolve(
      option: "/x.sqlite3", environment: ["FOLIO_BUSY_TIMEOUT_MS": "250"])
    #expect(location == StoreLocation(path: "/x.sqlite3", busyTimeout: 250))
    #expect(throws: SettingError.self) {
      try StoreLocation.resolve(option: nil, environment: ["FOLIO_BUSY_TIMEOUT_MS": "-1"])
    }
  }

  /// An empty or missing HOME is no folder: without --db, FOLIO_DB or XDG_DATA_HOME there is
  /// no default database (64), never one under the root folder.
  @Test func anEmptyHomeIsNoDefaultPlace() throws {
    for environment in [["HOME": ""], [:]] {
      #expect(throws: SettingError.noHome) {
        try StoreLocation.resolve(option: nil, environment: environment)
      }
    }
    #expect(
      try StoreLocation.resolve(option: nil, environment: ["HOME": "", "XDG_DATA_HOME": "/d"]).path
        == "/d/folio/folio.sqlite3")
    #expect(
      try StoreLocation.resolve(option: nil, environment: ["HOME": "/h"]).path
        == "/h/.local/share/folio/folio.sqlite3")
  }
}
