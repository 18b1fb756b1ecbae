import Foundation
import Glibc
import Testing

/// Files folio only reads stay as they were; leftovers of killed copies are removed by the next
/// command; a device or FIFO is never used as a database; messages name the right file.
@Suite struct ReadOnlyFilesTests {
  let sandbox = Sandbox()

  /// Bytes and modification time of `path` (nil when it does not exist).
  func snapshot(_ path: String) -> (Data, Int, Int)? {
    var status = stat()
    guard stat(path, &status) == 0, let data = FileManager.default.contents(atPath: path) else {
      return nil
    }
    return (data, status.st_mtim.tv_sec, status.st_mtim.tv_nsec)
  }

  func same(_ a: (Data, Int, Int)?, _ b: (Data, Int, Int)?) -> Bool {
    a?.0 == b?.0 && a?.1 == b?.1 && a?.2 == b?.2
  }

  /// The built binary, stopped after 20 s (a FIFO opened as a database would block forever).
  func folio(_ arguments: [String], db: String) throws -> RunResult {
    try Binary.runTool(
      "/usr/bin/timeout", ["20", Binary.folioPath, "--db", db] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
  }

  /// A copy of a database taken with its WAL: `copy.sqlite3` plus a `copy.sqlite3-wal` that
  /// holds a committed transaction not yet in the main file.
  func copyWithWAL() throws -> String {
    try sandbox.buildDemo()
    let copy = sandbox.file("copy.sqlite3")
    try FileManager.default.copyItem(atPath: sandbox.database, toPath: copy)
    let shell = try Binary.runTool(
      "/usr/bin/sqlite3",
      [
        copy, ".dbconfig no_ckpt_on_close on",
        "INSERT INTO portfolios (name, created_at) VALUES ('in-wal', '2024-01-01T00:00:00Z')",
      ])
    try #require(shell.code == 0, "\(shell.err)")
    let wal = try #require(snapshot(copy + "-wal"))
    try #require(!wal.0.isEmpty)
    return copy
  }

  @Test func restoreCheckAndStatusLeaveTheFileAndItsWALAsTheyWere() throws {
    let copy = try copyWithWAL()
    let before = (snapshot(copy), snapshot(copy + "-wal"))
    usleep(20_000)  // so a write would show in the modification time
    for arguments in [
      ["--db", copy, "db", "status"], ["--db", copy, "db", "check"], ["db", "restore", copy],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.code == 0, "\(arguments): \(result.err)")
      #expect(same(snapshot(copy), before.0), "\(arguments) changed \(copy)")
      #expect(same(snapshot(copy + "-wal"), before.1), "\(arguments) changed \(copy)-wal")
    }
    // The transaction that was only in the WAL was read, and restored.
    #expect(try sandbox.sqlite("SELECT count(*) FROM portfolios WHERE name = 'in-wal'") == "1\n")
  }

  /// With a -wal beside the file (it was in use, or its writer was killed) the integrity
  /// check still evaluates the CHECK constraints: a row typed in with them off, committed only
  /// in the WAL, is the one finding, and the file and its WAL stay as they were.
  @Test func checkEvaluatesCheckConstraintsBesideAWAL() throws {
    let copy = try copyWithWAL()
    let shell = try Binary.runTool(
      "/usr/bin/sqlite3",
      [
        copy, ".dbconfig no_ckpt_on_close on", "PRAGMA ignore_check_constraints = ON",
        "UPDATE trades SET quantity = 'abc' WHERE id = 1",
      ])
    try #require(shell.code == 0, "\(shell.err)")
    let before = (snapshot(copy), snapshot(copy + "-wal"))
    usleep(20_000)  // so a write would show in the modification time
    let check = sandbox.run("--db", copy, "db", "check")
    #expect(check.code == 65, "\(check.err)")
    #expect(check.out == "CHECK constraint failed in trades\n")
    #expect(same(snapshot(copy), before.0))
    #expect(same(snapshot(copy + "-wal"), before.1))
  }

  @Test func theNextCommandRemovesLeftoversOfKilledCopies() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100").code == 0)
    // A process id that is not running (above the default pid_max of 4194304).
    let dead = 4_194_999
    #expect(kill(Int32(dead), 0) != 0)
    let live = getpid()
    let stale = [
      "folio.sqlite3.partial-\(dead)", "folio.sqlite3.restore-\(dead)",
      "folio.sqlite3.restore-\(dead)-journal",
      "folio.sqlite3.replaced-20240101T000000Z.partial-\(dead)",
      "folio.sqlite3.bak-v1-20240101T000000Z.partial-\(dead)",
    ]
    let kept = ["folio.sqlite3.restore-\(live)", "folio.sqlite3.replaced-20240101T000000Z"]
    for name in stale + kept { sandbox.write(name, "x") }
    let result = sandbox.run("holdings")
    #expect(result.code == 0, "\(result.err)")
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: sandbox.path))
    for name in stale { #expect(!names.contains(name), "\(name) was left") }
    for name in kept { #expect(names.contains(name), "\(name) was removed") }
    // A killed backup's partial copy beside its target goes with the next backup there.
    let target = sandbox.file("backup.sqlite3")
    sandbox.write("backup.sqlite3.partial-\(dead)", "x")
    #expect(sandbox.run("db", "backup", target).code == 0)
    #expect(!FileManager.default.fileExists(atPath: target + ".partial-\(dead)"))
  }

  @Test func aDeviceOrAFIFOIsNeverUsedAsADatabase() throws {
    let fifo = sandbox.file("fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    var paths = [fifo: "is a FIFO"]
    let device = sandbox.file("null-device")
    // 1,3 is /dev/null's number; making a device node needs root.
    if mknod(device, S_IFCHR | 0o666, dev_t(0x103)) == 0 { paths[device] = "is a character device" }
    for (path, kind) in paths {
      for arguments in [["holdings"], ["buy", "bitcoin", "1", "--price", "1"], ["db", "status"]] {
        let result = try folio(arguments, db: path)
        #expect(result.code == 74, "\(path) \(arguments): \(result.code) \(result.err)")
        #expect(
          result.err == "folio: error: \(path) \(kind), not a database file; "
            + "give the path of a regular file\n")
      }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted()
    #expect(names == paths.keys.map { ($0 as NSString).lastPathComponent }.sorted())
  }

  @Test func aRestoreFromAFIFONamesTheSource() throws {
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100").code == 0)
    let fifo = sandbox.file("backup-fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    let result = try folio(["db", "restore", fifo], db: sandbox.database)
    #expect(result.code == 74, "\(result.code) \(result.err)")
    #expect(result.err.hasPrefix("folio: error: \(fifo) is a FIFO"), "\(result.err)")
    #expect(!result.err.contains("the database at"), "\(result.err)")
  }

  @Test(.enabled(if: EnvironmentFaultTests.mountWorks)) func aBackupOntoAFullDiskNamesTheTarget()
    throws
  {
    var csv = "date,side,coin,quantity,price,fee,note\n"
    for row in 0..<3_000 { csv += "2024-01-01T00:00:00Z,buy,bitcoin,0.001,40000,0,trade \(row)\n" }
    #expect(sandbox.run("import", "trades", sandbox.write("seed.csv", csv)).code == 0)
    let disk = try sandbox.mountSmallDisk(size: "64k")
    defer { sandbox.unmount(disk) }
    let target = disk + "/copy.sqlite3"
    let result = sandbox.run("db", "backup", target)
    #expect(result.code == 74, "\(result.err)")
    #expect(
      result.err.hasPrefix(
        "folio: error: cannot write the copy at \(target): the disk holding it is full"),
      "\(result.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
  }
}
