import FolioService
import FolioStorage
import Foundation
import Testing

@testable import FolioCLI

/// How `FolioCLI.describe` turns each kind of error into one line and a sysexits code.
@Suite struct CLITests {
  @Test func tooOldSQLiteLibraryIsUnavailable() {
    let (message, code) = FolioCLI.describe(
      DatabaseFileError.libraryTooOld(found: "3.31.1", required: "3.37.0"))
    #expect(code == 69)
    #expect(
      message
        == "the SQLite library on this system is version 3.31.1, but folio needs 3.37.0 or newer; "
        + "install a newer libsqlite3")
  }

  @Test func everyErrorKindMapsToItsExitCode() {
    let cases: [(any Error, Int32)] = [
      (DatabaseFileError.cannotCreate(path: "/x/y", reason: "permission denied"), 74),
      (DatabaseFileError.alreadyExists("/x"), 74),
      (StoreError.notADatabase("/x"), 65),
      (StoreError.missingDatabase("/x"), 66),
      (StoreError.checkFailed(["a"]), 65),
      (MigrationError.newerDatabase(path: "/x", version: 9, known: 2), 65),
      (MigrationError.inconsistentHistory(path: "/x", reason: "r"), 65),
      (SQLiteError(extendedCode: 2067, message: "UNIQUE constraint failed: t.x"), 65),
      (SQLiteError(extendedCode: 5, message: "database is locked"), 75),
      (SQLiteError(extendedCode: 10, message: "disk I/O error"), 74),
      (SQLiteError(extendedCode: 1, message: "no such table: t", sql: "SELECT 1"), 70),
      (SettingError.invalid(name: "N", value: "v", expected: "e"), 65),
      (CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/in.csv"]), 66),
    ]
    for (error, expected) in cases {
      let (message, code) = FolioCLI.describe(error)
      #expect(code == expected, "\(error)")
      #expect(!message.isEmpty && !message.contains("\n"), "\(error)")
    }
  }

  @Test func busyDatabaseSaysWhatToDo() {
    let (message, code) = FolioCLI.describe(
      SQLiteError(extendedCode: 5, message: "database is locked", sql: "BEGIN IMMEDIATE"))
    #expect(code == 75)
    #expect(
      message
        == "the database stayed locked by another process for longer than the busy timeout "
        + "(FOLIO_BUSY_TIMEOUT_MS); try again")
  }

  @Test func unexpectedSQLiteErrorNamesTheCodeAndTheStatement() {
    let (message, code) = FolioCLI.describe(
      SQLiteError(extendedCode: 1, message: "no such table: t", sql: "SELECT *\n FROM t"))
    #expect(code == 70)
    #expect(
      message
        == "SQLite error 1 (SQL logic error): no such table: t while executing `SELECT *  FROM t`")
  }

  @Test func unclassifiedErrorIsInternal() {
    struct Surprise: Error {}
    #expect(FolioCLI.describe(Surprise()).1 == 70)
  }
}
