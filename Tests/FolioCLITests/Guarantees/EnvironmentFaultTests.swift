import FolioTestSupport
import Foundation
import Testing

/// The environment failing under folio: a database path in a missing or unwritable folder, a
/// read-only database file, a file that is not a database, a truncated or corrupted database,
/// a full disk. Each gives a clear message and the right exit code, and leaves nothing
/// half-done.
///
/// The tests run as root, where permission bits do not stop writes; "read-only" is made with
/// the immutable attribute (`chattr +i`) instead, and a full disk with a small tmpfs. Where
/// the machine allows neither (no attributes, no mount rights), those tests are skipped.
@Suite struct EnvironmentFaultTests {
  let sandbox = Sandbox()

  // MARK: - Helpers

  func folio(_ arguments: String..., db: String? = nil) throws -> RunResult {
    try Binary.run(arguments, environment: ["FOLIO_DB": db ?? sandbox.database])
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// A database with `rows` trades (and so many pages), closed cleanly.
  func database(rows: Int, at path: String? = nil) throws -> String {
    let target = path ?? sandbox.database
    var csv = "date,side,coin,quantity,price,fee,note\n"
    for row in 0..<rows {
      csv += "2024-01-01T00:00:00Z,buy,bitcoin,0.001,40000,0,trade number \(row)\n"
    }
    let imported = try folio("import", "trades", sandbox.write("seed.csv", csv), db: target)
    try #require(imported.code == 0, "\(imported.err)")
    try #require(DatabaseProbe.walIsEmpty(beside: target))
    return target
  }

  /// Turns the immutable attribute on `path` on or off.
  static func immutable(_ path: String, _ on: Bool) throws {
    let result = try Binary.runTool("/usr/bin/chattr", [on ? "+i" : "-i", path])
    try #require(result.code == 0, "chattr: \(result.err)")
  }

  /// True when `chattr +i` works here (root, on a file system with attributes).
  static let attributesWork: Bool = {
    let folder = TemporaryFolder("folio-chattr")
    let probe = folder.file("probe")
    FileManager.default.createFile(atPath: probe, contents: Data())
    guard (try? Binary.runTool("/usr/bin/chattr", ["+i", probe]))?.code == 0 else { return false }
    _ = try? Binary.runTool("/usr/bin/chattr", ["-i", probe])
    return true
  }()

  /// True when a tmpfs can be mounted here (root with mount rights).
  static let mountWorks: Bool = {
    let folder = TemporaryFolder("folio-mount")
    let probe = folder.path
    let mounted = try? Binary.runTool(
      "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe])
    guard mounted?.code == 0 else { return false }
    _ = try? Binary.runTool("/usr/bin/umount", [probe])
    return true
  }()

  /// The one error line of a failed command.
  func expectOneError(_ result: RunResult, code: Int32, _ fragment: String) {
    #expect(result.code == code, "\(result.err)")
    #expect(
      result.err.hasPrefix("folio: error: ") && result.err.contains(fragment), "\(result.err)")
    #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    #expect(result.out.isEmpty)
  }

  // MARK: - Folders

  @Test func databaseUnderARegularFileIsAnIOError() throws {
    sandbox.write("plain", "not a folder")
    let target = sandbox.file("plain/sub/folio.sqlite3")
    let result = try folio("buy", "bitcoin", "1", "--price", "1", db: target)
    expectOneError(result, code: 74, "cannot create the database at \(target): ")
    #expect(try String(contentsOfFile: sandbox.file("plain"), encoding: .utf8) == "not a folder")
  }

  @Test(.enabled(if: attributesWork)) func unwritableFolderIsAnIOErrorAndCreatesNothing() throws {
    let folder = sandbox.file("locked")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Self.immutable(folder, true)
    defer { try? Self.immutable(folder, false) }

    let direct = try folio("buy", "bitcoin", "1", "--price", "1", db: folder + "/folio.sqlite3")
    expectOneError(direct, code: 74, "cannot create the database at \(folder)/folio.sqlite3")
    let nested = try folio("db", "migrate", db: folder + "/new/folio.sqlite3")
    expectOneError(nested, code: 74, "cannot create the folder \(folder)/new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test(.enabled(if: attributesWork)) func databaseInAnUnwritableFolderSaysWhy() throws {
    let folder = sandbox.file("shelf")
    let path = try database(rows: 10, at: folder + "/folio.sqlite3")
    let before = bytes(path)
    // Without its (empty) -wal and -shm, as a sqlite3 shell closing it last leaves it.
    for side in [path + "-wal", path + "-shm"] { unlink(side) }
    try Self.immutable(folder, true)
    defer { try? Self.immutable(folder, false) }

    // SQLite needs to create the -wal and -shm files beside a WAL database, even to read it.
    for command in [["buy", "bitcoin", "1", "--price", "1"], ["tx", "list"]] {
      let result = try Binary.run(command, environment: ["FOLIO_DB": path])
      expectOneError(result, code: 74, "its folder is not writable, and SQLite needs to create")
    }
    #expect(bytes(path) == before)
  }

  // MARK: - Read-only file

  @Test(.enabled(if: attributesWork)) func readOnlyDatabaseRefusesWritesAndStillReads() throws {
    let path = try database(rows: 10)
    let dump = try sandbox.dump()
    try Self.immutable(path, true)
    defer { try? Self.immutable(path, false) }

    let buy = try folio("buy", "bitcoin", "1", "--price", "1")
    expectOneError(
      buy, code: 74, "cannot write to the database at \(path): the file or its folder is read-only")
    let imported = try folio(
      "import", "trades",
      sandbox.write("more.csv", "date,side,coin,quantity,price\n2024-02-01,buy,bitcoin,1,1\n"))
    expectOneError(imported, code: 74, "is read-only")
    let list = try folio("tx", "list", "--format", "csv")
    #expect(list.code == 0, "\(list.err)")
    #expect(list.out.split(separator: "\n").count == 11)
    #expect(try folio("db", "check").out == "ok\n")
    try Self.immutable(path, false)
    #expect(try sandbox.dump() == dump)
  }

  // MARK: - Not a database, truncated, corrupted

  @Test func fileThatIsNotADatabaseIsRefusedUntouched() throws {
    var noise = [UInt8](repeating: 0, count: 8192)
    for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ 13) }
    for (name, content) in [
      ("text", Data("hello, I am a shopping list\n".utf8)), ("noise", Data(noise)),
    ] {
      let path = sandbox.file(name)
      FileManager.default.createFile(atPath: path, contents: content)
      for command in [
        ["buy", "bitcoin", "1", "--price", "1"], ["tx", "list"], ["holdings"], ["db", "migrate"],
        ["db", "check"], ["db", "backup", sandbox.file(name + ".copy")],
        [
          "import", "trades",
          sandbox.write("one.csv", "date,side,coin,quantity,price\n2024-02-01,buy,bitcoin,1,1\n"),
        ],
      ] {
        let result = try Binary.run(command, environment: ["FOLIO_DB": path])
        expectOneError(result, code: 65, "\(path) is not an SQLite database or it is damaged")
      }
      #expect(bytes(path) == content)
      #expect(
        !exists(path + "-wal") && !exists(path + "-shm") && !exists(sandbox.file(name + ".copy")))
    }
  }

  @Test func truncatedDatabaseIsRefusedAndRestoredFromABackup() throws {
    let path = try database(rows: 3_000)
    #expect(try folio("db", "backup", sandbox.file("backup.sqlite3")).code == 0)
    let size = try #require(bytes(path)).count
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(size / 2))
    try handle.close()
    let truncated = bytes(path)

    for command in [["tx", "list"], ["buy", "bitcoin", "1", "--price", "1"], ["db", "check"]] {
      let result = try Binary.run(command, environment: ["FOLIO_DB": path])
      #expect(result.code == 65, "\(command): \(result.err)")
      #expect(
        result.err.hasPrefix("folio: error: ") && result.err.split(separator: "\n").count == 1)
    }
    #expect(bytes(path) == truncated)

    let restored = try folio("db", "restore", sandbox.file("backup.sqlite3"))
    #expect(restored.code == 0, "\(restored.err)")
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "3000\n")
    #expect(try folio("db", "check").out == "ok\n")
    let aside = try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
      .filter { $0.hasPrefix("folio.sqlite3.replaced-") && !$0.hasSuffix("-wal") }
    #expect(aside.count == 1)
  }

  @Test func corruptedDatabaseSaysItIsDamagedAndChangesNothing() throws {
    let path = try database(rows: 3_000)
    #expect(try folio("db", "backup", sandbox.file("backup.sqlite3")).code == 0)
    // Overwrite the pages of the trades table (SQLite's dbstat names them) with a pattern.
    let pageSize = try #require(Int(DatabaseProbe.run(path, "PRAGMA page_size").out.dropLast()))
    let pages = DatabaseProbe.run(path, "SELECT pageno FROM dbstat WHERE name = 'trades'").out
      .split(separator: "\n").compactMap { UInt64($0) }
    #expect(pages.count > 2)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    for page in pages {
      try handle.seek(toOffset: (page - 1) * UInt64(pageSize))
      try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
    }
    try handle.close()
    let corrupted = bytes(path)

    let list = try folio("tx", "list")
    expectOneError(list, code: 65, "the database at \(path) is damaged (SQLite error 11")
    #expect(list.err.contains("'folio db restore BACKUP'"))
    // A change that has to read damaged pages (deleting the first trade recomputes the
    // position from there) is refused and rolled back. SQLite finds damage only in the pages
    // a command reads, so folio does not promise to notice it before: `db check` does.
    let delete = try folio("tx", "delete", "1")
    expectOneError(delete, code: 65, "is damaged")
    let check = try folio("db", "check")
    #expect(check.code == 65)
    #expect(check.err.hasPrefix("folio: error: the database check found"))
    #expect(check.err.split(separator: "\n").count == 1, "\(check.err)")
    #expect(!check.out.isEmpty)  // every finding, one per line
    #expect(bytes(path) == corrupted)
    #expect(try folio("db", "restore", sandbox.file("backup.sqlite3")).code == 0)
    #expect(try folio("tx", "list", "--format", "csv").out.split(separator: "\n").count == 3_001)
  }

  // MARK: - Full disk

  /// A dry run without a database previews against a temporary one in TMPDIR: when that disk
  /// is full, the message names the temporary database, not the path given to --db.
  @Test(.enabled(if: mountWorks)) func aFullTemporaryFolderIsNamedInADryRun() throws {
    let disk = try sandbox.mountSmallDisk(size: "600k")
    defer { sandbox.unmount(disk) }
    let csv = try sandbox.write(
      "one.csv", "date,side,coin,quantity,price,fee,note\n2024-01-01T00:00:00Z,buy,bitcoin,1,5,0,\n"
    )
    let result = try Binary.run(
      ["import", "trades", csv, "--dry-run"],
      environment: ["FOLIO_DB": sandbox.database, "TMPDIR": disk])
    expectOneError(result, code: 74, "the disk holding the database at \(disk)/folio-scratch-")
    #expect(!result.err.contains(sandbox.database), "\(result.err)")
    #expect(!exists(sandbox.database))
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
  }

  /// A file size limit (`ulimit -f`) the database would pass: the write fails instead of
  /// SIGXFSZ killing folio half-way, the message names the limit, and nothing is committed.
  @Test func aFileSizeLimitFailsTheWriteAndSaysSo() throws {
    #expect(try folio("buy", "bitcoin", "1", "--price", "40000").code == 0)
    var csv = "date,side,coin,quantity,price,fee,note\n"
    for row in 0..<20_000 { csv += "2024-01-01T00:00:00Z,buy,ethereum,0.01,2000,0,row \(row)\n" }
    let file = try sandbox.write("big.csv", csv)
    let limited = try Binary.runTool(
      "/bin/sh",
      ["-c", "ulimit -f 1500 && exec \"$0\" import trades \"$1\"", Binary.folioPath, file],
      environment: ["FOLIO_DB": sandbox.database])
    // 1500 blocks, which sh counts in 512 or 1024 bytes.
    expectOneError(
      limited, code: 74,
      "the command's changes were rolled back. This process may write files of at most ")
    #expect(
      ["768000", "1536000"].contains {
        limited.err.hasSuffix(
          " \($0) bytes (ulimit -f): raise that limit and run the command again\n")
      }, "\(limited.err)")
    #expect(DatabaseProbe.run(sandbox.database, "PRAGMA integrity_check").out == "ok\n")
    #expect(DatabaseProbe.run(sandbox.database, "SELECT count(*) FROM trades").out == "1\n")
  }

  @Test(.enabled(if: mountWorks)) func fullDiskWhileImportingWritesNothing() throws {
    let disk = try sandbox.mountSmallDisk(size: "2m")
    defer { sandbox.unmount(disk) }
    let path = disk + "/folio.sqlite3"
    #expect(try folio("buy", "bitcoin", "1", "--price", "40000", db: path).code == 0)

    var csv = "date,side,coin,quantity,price,fee,note\n"
    for row in 0..<20_000 { csv += "2024-01-01T00:00:00Z,buy,ethereum,0.01,2000,0,row \(row)\n" }
    let result = try folio("import", "trades", sandbox.write("big.csv", csv), db: path)
    expectOneError(result, code: 74, "the disk holding the database at \(path) is full")
    #expect(DatabaseProbe.run(path, "PRAGMA integrity_check").out == "ok\n")
    #expect(
      DatabaseProbe.run(path, "SELECT count(*) FROM trades").out == "1\n")
    #expect(try folio("tx", "list", db: path).code == 0)
    // A backup onto the full disk fails without leaving a file that looks like a backup.
    let filler = try Binary.runTool(
      "/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=64k", "count=100"])
    #expect(filler.code != 0)  // dd stops at the end of the space
    let backup = try folio("db", "backup", disk + "/copy.sqlite3", db: path)
    #expect(backup.code == 74, "\(backup.err)")
    let left = try FileManager.default.contentsOfDirectory(atPath: disk).filter {
      $0.hasPrefix("copy")
    }
    #expect(left.isEmpty, "\(left)")
  }
}
