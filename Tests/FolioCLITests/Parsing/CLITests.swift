import FolioService
import FolioStorage
import Foundation
import Testing

@testable import FolioCLI

/// How `FolioCLI.describe` turns each kind of error into one line and a sysexits code.
@Suite struct CLITests {
  @Test func tooOldSQLiteLibraryIsUnavailable() {
    let (message, code) = FolioCLI.describe(
      FileError.libraryTooOld(found: "3.31.1", required: "3.37.0"))
    #expect(code == 69)
    #expect(
      message
        == "the SQLite library on this system is version 3.31.1, but folio needs 3.37.0 or newer; "
        + "install a newer libsqlite3")
  }

  @Test func everyErrorKindMapsToItsExitCode() {
    let cases: [(any Error, Int32)] = [
      (FileError.cannotCreate(path: "/x/y", reason: "permission denied"), 74),
      (FileError.alreadyExists("/x"), 74),
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

  @Test func fileProblemsNameTheDatabaseAndWhatToDo() {
    let database = "/data/folio.sqlite3"
    let cases: [(Int32, Int32, String)] = [
      (
        8, 74,
        "cannot write to the database at /data/folio.sqlite3: the file or its folder is read-only"
      ),
      (1032, 74, "is read-only (SQLite error 1032: "),
      (13, 74, "the disk holding the database at /data/folio.sqlite3 is full"),
      (10, 74, "reading or writing the database at /data/folio.sqlite3 failed"),
      (14, 74, "cannot open the database at /data/folio.sqlite3, or a file SQLite keeps beside"),
      (11, 65, "the database at /data/folio.sqlite3 is damaged"),
      (26, 65, "'folio db restore BACKUP'"),
    ]
    for (extended, code, fragment) in cases {
      let error = SQLiteError(extendedCode: extended, message: "boom", sql: "COMMIT")
      let (message, exit) = FolioCLI.describe(error, database: database)
      #expect(exit == code, "\(extended)")
      #expect(message.contains(fragment), "\(message)")
      #expect(message.contains("rolled back"), "\(message)")
      #expect(!message.contains("COMMIT"), "\(message)")  // the statement is not shown
    }
  }

  @Test func messagesShowControlCharactersAndShortenHugeWords() {
    #expect(
      FolioCLI.oneLine("bad '\u{1B}[31m' and\ttab\r\nnext") == "bad '\\u{1B}[31m' and tab next")
    #expect(
      FolioCLI.oneLine("nul '\u{0}' bom '\u{FEFF}' rlo '\u{202E}' c1 '\u{85}x'")
        == "nul '\\u{0}' bom '\\u{FEFF}' rlo '\\u{202E}' c1 ' x'")
    #expect(FolioCLI.oneLine("café ₿ 😀 ١٢") == "café ₿ 😀 ١٢")
    let huge = String(repeating: "7", count: 10_000)
    let shown = FolioCLI.oneLine("'\(huge)' is too large")
    #expect(shown.count < 200)
    #expect(shown.hasSuffix("7' (10002 characters) is too large"))
    let long = Array(repeating: "word", count: 2_000).joined(separator: " ")
    #expect(FolioCLI.oneLine(long).hasSuffix("… (message cut)"))
  }
}
