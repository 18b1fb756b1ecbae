import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

/// Finding the sqlite3 shell on PATH and the command line `folio db shell` hands it.
@Suite struct SQLiteShellTests {
  let temporary = TemporaryFolder("folio-shell")
  var folder: String { temporary.path }

  init() throws {
    try FileManager.default.createDirectory(
      atPath: folder + "/bin", withIntermediateDirectories: true)
  }

  @Test func locatesTheFirstExecutableOnThePath() throws {
    #expect(SQLiteShell.locate(searchPath: folder + "/bin") == nil)
    let fake = folder + "/bin/sqlite3"
    #expect(FileManager.default.createFile(atPath: fake, contents: Data("#!/bin/sh\n".utf8)))
    #expect(SQLiteShell.locate(searchPath: folder + "/bin") == nil)  // not executable yet
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
    #expect(SQLiteShell.locate(searchPath: "/nonexistent::\(folder)/bin/:/usr/bin") == fake)
    #expect(SQLiteShell.locate(searchPath: "/usr/bin:\(folder)/bin") == "/usr/bin/sqlite3")
    #expect(SQLiteShell.locate(searchPath: "") == nil)
    #expect(SQLiteShell.locate(searchPath: nil) == nil)
  }

  @Test func turnsForeignKeysOnAndWaitsLikeFolio() {
    let arguments = SQLiteShell.arguments(
      for: StoreLocation(path: "/x/f.sqlite3", busyTimeout: 250))
    #expect(
      arguments == [
        "sqlite3", "-cmd", "PRAGMA foreign_keys = ON", "-cmd", ".timeout 250", "/x/f.sqlite3",
      ])
  }

  /// A relative path beginning with '-' reaches sqlite3 as a file, not one of its options.
  @Test func aPathLikeAnOptionIsPassedAsAFile() {
    #expect(SQLiteShell.arguments(for: StoreLocation(path: "-bail")).last == "./-bail")
  }
}
