import FolioTestSupport
import Foundation
import Testing

/// What a hostile or careless user found in `--out` and the standard streams: the database as
/// the output file, closed streams nothing is written to, a reader that closed its pipe, a
/// file name near the longest allowed.
@Suite struct OutputEdgeTests {
  let sandbox = Sandbox()

  func folio(_ arguments: [String], shell: String = "") throws -> RunResult {
    try Binary.runTool(
      "/bin/bash", ["-c", "\"$0\" \"$@\" \(shell)", Binary.folioPath] + arguments,
      environment: ["FOLIO_DB": sandbox.database, "PATH": "/usr/bin:/bin", "HOME": sandbox.path])
  }

  @Test func theDatabaseIsNeverAnOutputFile() throws {
    try sandbox.buildDemo()
    let before = try sandbox.dump()
    for arguments in [
      ["export", "trades", "--out", sandbox.database],
      ["report", "--format", "html", "--out", sandbox.database],
      ["locations", "export", "--out", sandbox.database],
    ] {
      let result = try folio(arguments)
      #expect(result.code == 74, "\(arguments): \(result.code) \(result.err)")
      #expect(result.err.contains("is the database folio is using"), "\(result.err)")
    }
    // Through a symlink too.
    let link = sandbox.file("link.csv")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.database)
    #expect(try folio(["export", "trades", "--out", link]).code == 74)
    #expect(try sandbox.dump() == before)
    #expect(try sandbox.sqlite("PRAGMA integrity_check") == "ok\n")
  }

  /// A journal file SQLite has not made (a WAL database has no `-journal`; a closed one no
  /// `-wal`) is the database's all the same: a file written there was taken for a journal and
  /// removed by the next command that opened the database, a backup included.
  @Test func aJournalFileNotMadeYetIsNeverAnOutputFileNorABackup() throws {
    try sandbox.buildDemo()
    let before = try sandbox.dump()
    for suffix in ["-journal", "-wal"] {
      // Without its (empty) -wal and -shm, as a sqlite3 shell closing it last leaves it.
      for kept in [sandbox.database + "-wal", sandbox.database + "-shm"] { unlink(kept) }
      let side = sandbox.database + suffix
      try #require(!FileManager.default.fileExists(atPath: side))
      for arguments in [
        ["db", "backup", side],
        ["export", "trades", "--out", side],
        ["report", "--format", "csv", "--out", side],
      ] {
        let result = try folio(arguments)
        #expect(result.code == 74, "\(arguments): \(result.code) \(result.err)")
        #expect(result.err.contains("one of its journal files"), "\(result.err)")
        // The database's own -wal, which the command's connection made, holds nothing.
        #expect(
          suffix == "-wal"
            ? DatabaseProbe.walIsEmpty(beside: sandbox.database)
            : !FileManager.default.fileExists(atPath: side), "\(arguments)")
      }
    }
    // Named through a symbolic link to the database's folder, too.
    let folder = sandbox.file("here")
    try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: sandbox.path)
    let name = (sandbox.database as NSString).lastPathComponent
    #expect(try folio(["db", "backup", folder + "/" + name + "-journal"]).code == 74)
    #expect(try sandbox.dump() == before)
    let empty = try folio(["db", "backup", ""])
    #expect(empty.code == 74)
    #expect(empty.err.contains("the path is empty"), "\(empty.err)")
    // Another name beside it is a backup as before.
    #expect(try folio(["db", "backup", sandbox.database + "-copy"]).code == 0)
  }

  /// A closed stream fails a command only when the command writes to it.
  @Test func aClosedStreamNothingIsWrittenToIsNoFailure() throws {
    let bought = try folio(["buy", "bitcoin", "1", "--price", "100"], shell: "2>&-")
    #expect(bought.code == 0, "\(bought.err)")
    #expect(bought.out == "1\n")
    let exported = try folio(["export", "trades", "--out", sandbox.file("e.csv")], shell: ">&-")
    #expect(exported.code == 0, "\(exported.err)")
    #expect(FileManager.default.fileExists(atPath: sandbox.file("e.csv")))
    // A message that cannot be written is still a failure.
    let refused = try folio(["buy", "bitcoin", "1"], shell: "2>&-")
    #expect(refused.code == 64)
  }

  /// A writer whose reader has gone stores its work once and exits 74, quietly, instead of
  /// dying by SIGPIPE after the commit (which invites a retry and a duplicate).
  @Test func aWriterWithAClosedPipeStoresOnceAndExits74() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Binary.folioPath)
    process.arguments = ["buy", "bitcoin", "1", "--price", "100"]
    process.environment = ["FOLIO_DB": sandbox.database, "PATH": "/usr/bin:/bin"]
    let pipe = Pipe()
    process.standardOutput = pipe
    let errors = Pipe()
    process.standardError = errors
    try pipe.fileHandleForReading.close()  // the reader is gone before folio writes
    try process.run()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
    #expect(process.terminationStatus == 74)
    #expect(err.isEmpty, "\(String(decoding: err, as: UTF8.self))")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "1\n")
  }

  @Test func aNameNearTheLongestAllowedIsWritten() throws {
    #expect(try folio(["buy", "bitcoin", "1", "--price", "100"]).code == 0)
    let name = String(repeating: "r", count: 250) + ".csv"
    let result = try folio(["export", "trades", "--out", sandbox.file(name)])
    #expect(result.code == 0, "\(result.err)")
    #expect(FileManager.default.fileExists(atPath: sandbox.file(name)))
    let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
      .filter { $0.hasPrefix(".") }
    #expect(left.isEmpty, "\(left)")
  }

  @Test func anEmptyOutputPathIsRefused() throws {
    #expect(try folio(["buy", "bitcoin", "1", "--price", "100"]).code == 0)
    let result = try folio(["export", "trades", "--out", ""])
    #expect(result.code == 74)
    #expect(result.err.contains("the path is empty"), "\(result.err)")
  }
}
