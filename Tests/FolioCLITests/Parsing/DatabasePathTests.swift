import FolioTestSupport
import Foundation
import Testing

@testable import FolioStorage

/// Which commands may create a database, and what `--db` accepts: a reader given a mistyped
/// path says "no database at PATH" (66) and creates nothing; only commands that write create
/// a database; an empty `--db` and a global option given twice are usage errors (64).
@Suite struct DatabasePathTests {
  let sandbox = Sandbox()

  /// Every command that only reads the database.
  static let readers: [[String]] = [
    ["holdings"], ["tx", "list"], ["tx", "show", "1"], ["portfolio", "list"],
    ["portfolio", "show"], ["export", "trades"], ["coins", "list"], ["coins", "show", "bitcoin"],
    ["coins", "history", "bitcoin"], ["stats"], ["report"], ["report", "history"],
    ["locations", "list"], ["locations", "export"], ["locations", "show", "1"],
    ["locations", "near", "1", "2"], ["db", "status"], ["db", "check"],
    ["db", "rebuild"], ["sql", "SELECT 1"], ["tx", "delete", "1"],
  ]

  @Test func readersGivenAMistypedDatabaseSayNoDatabaseAndCreateNothing() throws {
    for typo in [sandbox.file("foilo.sqlite3"), sandbox.file("missing-folder/folio.sqlite3")] {
      for command in Self.readers {
        let result = sandbox.run(["--db", typo] + command)
        #expect(result.code == 66, "\(command): \(result.err)")
        #expect(
          result.err == "folio: error: no database at \(typo); record a trade or run "
            + "'folio db migrate' to create one\n", "\(command)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path).isEmpty)
      }
    }
  }

  /// An empty file (as `touch` leaves it) is no database yet: every reader says so (66), none
  /// writes the schema into it, and it is left as it was, empty and alone in its folder.
  @Test func readersLeaveAnEmptyFileEmpty() throws {
    let empty = sandbox.file("empty.sqlite3")
    try #require(FileManager.default.createFile(atPath: empty, contents: Data()))
    for command in Self.readers {
      let result = sandbox.run(["--db", empty] + command)
      #expect(
        try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0, "\(command)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path) == ["empty.sqlite3"])
      #expect(result.code == 66, "\(command): \(result.err)")
      #expect(
        result.err == "folio: error: \(empty) is an empty file, not a database yet; record a "
          + "trade or run 'folio db migrate' to make it one (the file was left untouched)\n")
    }
    // A command that writes makes it a database, as it makes a missing one.
    #expect(sandbox.run("--db", empty, "buy", "bitcoin", "1", "--price", "100").code == 0)
    #expect(sandbox.run("--db", empty, "tx", "list").out.contains("bitcoin"))
  }

  /// A refused import undoes only the database it made itself, and only while no one else
  /// uses it: a new file with the folders made for it goes, an empty file it found is emptied
  /// again, and a database another process made meanwhile (while this one waited on its
  /// input), or holds open, stays with what that process wrote.
  @Test func aRefusedImportUndoesOnlyTheDatabaseItMade() throws {
    let oversell = sandbox.write(
      "oversell.csv", "date,side,coin,quantity,price\n2024-01-01,sell,bitcoin,1,100\n")
    let nested = sandbox.file("made/deeper/folio.sqlite3")
    #expect(sandbox.run("--db", nested, "import", "trades", oversell).code == 65)
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("made")))

    let empty = sandbox.file("empty.sqlite3")
    try #require(FileManager.default.createFile(atPath: empty, contents: Data()))
    #expect(sandbox.run("--db", empty, "import", "trades", oversell).code == 65)
    #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
    #expect(!FileManager.default.fileExists(atPath: empty + "-wal"))

    // An import waits on a FIFO; meanwhile another process makes the database and sets the
    // method; then the import is refused.
    var running: [Process] = []
    defer { for process in running where process.isRunning { kill(process.processIdentifier, 9) } }
    func importWaiting(into database: String) throws -> (Process, String) {
      let fifo = sandbox.file("rows-\(UUID().uuidString).csv")
      try #require(mkfifo(fifo, 0o600) == 0)
      let importer = Process()
      importer.executableURL = URL(fileURLWithPath: Binary.folioPath)
      importer.arguments = ["--db", database, "import", "trades", fifo]
      importer.standardError = FileHandle.nullDevice
      try importer.run()
      running.append(importer)
      return (importer, fifo)
    }
    func refuse(_ importer: Process, _ writer: FileHandle) throws {
      try writer.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: oversell)))
      try writer.close()
      importer.waitUntilExit()
      #expect(importer.terminationStatus == 65)
    }
    let shared = sandbox.file("shared.sqlite3")
    let (first, firstInput) = try importWaiting(into: shared)
    let setter = try Binary.runTool(
      Binary.folioPath, ["--db", shared, "portfolio", "set", "main", "--method", "hifo"])
    #expect(setter.code == 0, "\(setter.err)")
    try refuse(first, try #require(FileHandle(forWritingAtPath: firstInput)))
    #expect(DatabaseProbe.run(shared, "SELECT method FROM portfolios").out == "hifo\n")

    // Into a new database, the import builds a file with no name, and names it only once
    // complete: a file another program put at the path meanwhile (without locking the folder,
    // as folio does) stays as it was, and the import is refused (75).
    let taken = sandbox.file("taken/folio.sqlite3")
    let (third, thirdInput) = try importWaiting(into: taken)
    let rows = try #require(FileHandle(forWritingAtPath: thirdInput))
    try rows.write(contentsOf: Data(repeating: UInt8(ascii: "\n"), count: 1 << 20))
    #expect(waitUntilCreating(taken))
    #expect(!FileManager.default.fileExists(atPath: taken))
    #expect(FileManager.default.createFile(atPath: taken, contents: Data("mine".utf8)))
    try rows.write(
      contentsOf: Data("date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,1,100\n".utf8))
    try rows.close()
    third.waitUntilExit()
    #expect(third.terminationStatus == 75)
    #expect(try String(contentsOfFile: taken, encoding: .utf8) == "mine")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.file("taken"))
        == ["folio.sqlite3"])
  }

  /// Waits until a command creates the database at `path`, holding its `CreationLock` (a
  /// `flock` on `<path>.creating`); false after 10 s.
  func waitUntilCreating(_ path: String) -> Bool {
    for _ in 0..<1000 {
      let descriptor = open(path + ".creating", O_RDONLY)
      if descriptor >= 0 {
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { return true }
      }
      usleep(10_000)
    }
    return false
  }

  /// An import into a new database builds it where no one sees it, and names it once complete:
  /// meanwhile a reader finds no database (66), a command that would create it waits for it
  /// (and, past its busy timeout, is refused with 75) while one creating another database in
  /// the same folder does not, and nothing is at the path, not even after the import is killed.
  /// A refused import removes the folders it made, and a command waiting to create the
  /// database makes them again.
  @Test func aNewDatabaseIsNamedOnlyOnceComplete() throws {
    let folder = sandbox.file("new")
    let path = folder + "/folio.sqlite3"
    var running: [Process] = []
    defer { for process in running where process.isRunning { kill(process.processIdentifier, 9) } }
    func folio(_ arguments: [String], timeout: String) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Binary.folioPath)
      process.arguments = ["--db", path] + arguments
      process.environment = ["FOLIO_BUSY_TIMEOUT_MS": timeout]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      running.append(process)
      return process
    }
    func importWaiting() throws -> (Process, FileHandle) {
      let fifo = sandbox.file("rows-\(UUID().uuidString).csv")
      try #require(mkfifo(fifo, 0o600) == 0)
      let importer = try folio(["import", "trades", fifo], timeout: "5000")
      let writer = try #require(FileHandle(forWritingAtPath: fifo))
      // Blank lines, which an import skips: its first chunk of input, after which it opens
      // the database and waits for the rest.
      try writer.write(contentsOf: Data(repeating: UInt8(ascii: "\n"), count: 1 << 20))
      try #require(waitUntilCreating(path))
      return (importer, writer)
    }

    // Killed while it builds: nothing at the path, and the next import works.
    let (killed, _) = try importWaiting()
    kill(killed.processIdentifier, 9)
    killed.waitUntilExit()
    // Its lock file, which holds no lock now: the next command creating the database takes
    // it over and removes it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder) == ["folio.sqlite3.creating"])
    try FileManager.default.removeItem(atPath: folder)

    // Refused while a buy waits to create the database: the folder goes, and comes back.
    let (refusedImport, badRows) = try importWaiting()
    let first = try folio(["buy", "litecoin", "3", "--price", "70"], timeout: "20000")
    usleep(300_000)  // until it waits for the lock
    try badRows.write(contentsOf: Data("date,side,coin,quantity,price\n2024-01-01,buy,\n".utf8))
    try badRows.close()
    refusedImport.waitUntilExit()
    #expect(refusedImport.terminationStatus == 65)
    first.waitUntilExit()
    #expect(first.terminationStatus == 0)
    #expect(DatabaseProbe.run(path, "SELECT coin_id FROM trades").out == "litecoin\n")
    try FileManager.default.removeItem(atPath: folder)

    let (importer, writer) = try importWaiting()
    #expect(!FileManager.default.fileExists(atPath: path))
    let read = sandbox.run("--db", path, "holdings")
    #expect(read.code == 66, "\(read.err)")
    let waiting = try folio(
      ["buy", "ethereum", "2", "--price", "50", "--date", "2024-01-03"], timeout: "20000")
    // A demo asked for the same path waits too, then finds a database there and leaves it.
    let demo = try folio(["demo"], timeout: "20000")
    let refused = sandbox.run(
      ["--db", path, "buy", "bitcoin", "1", "--price", "100"],
      environment: ["FOLIO_BUSY_TIMEOUT_MS": "200"])
    #expect(refused.code == 75)
    #expect(
      refused.err
        == "folio: error: cannot create the database at \(path): another folio command is "
        + "still creating it; try again once it ends\n")
    let beside = folder + "/other.sqlite3"
    let other = sandbox.run(
      ["--db", beside, "buy", "bitcoin", "1", "--price", "100"],
      environment: ["FOLIO_BUSY_TIMEOUT_MS": "200"])
    #expect(other.code == 0, "\(other.err)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        == ["folio.sqlite3.creating", "other.sqlite3", "other.sqlite3-shm", "other.sqlite3-wal"])
    try writer.write(
      contentsOf: Data(
        "date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,1,100\n2024-01-02,sell,bitcoin,0.5,120\n"
          .utf8))
    try writer.close()
    importer.waitUntilExit()
    #expect(importer.terminationStatus == 0)
    waiting.waitUntilExit()
    #expect(waiting.terminationStatus == 0)
    demo.waitUntilExit()
    #expect(demo.terminationStatus == 65)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter {
        !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
      } == ["folio.sqlite3", "other.sqlite3"])
    #expect(
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    #expect(
      DatabaseProbe.run(
        path,
        "PRAGMA journal_mode; PRAGMA integrity_check; "
          + "SELECT coin_id, side, quantity FROM trades ORDER BY executed_at; "
          + "SELECT realized_pnl FROM disposals"
      ).out == "wal\nok\nbitcoin|buy|1\nbitcoin|sell|0.5\nethereum|buy|2\n10\n")
  }

  /// An import opens the database, and takes its write lock, only once its input has begun:
  /// a `buy` while the program at the other end of the pipe is still working is not held up.
  @Test func anImportWaitingForItsInputHoldsNoLock() throws {
    #expect(sandbox.run("db", "migrate").code == 0)
    let fifo = sandbox.file("rows.csv")
    try #require(mkfifo(fifo, 0o600) == 0)
    let importer = Process()
    importer.executableURL = URL(fileURLWithPath: Binary.folioPath)
    importer.arguments = ["--db", sandbox.database, "import", "trades", fifo]
    importer.standardOutput = FileHandle.nullDevice
    try importer.run()
    defer { if importer.isRunning { kill(importer.processIdentifier, 9) } }
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    try writer.write(contentsOf: Data("date,side,coin,quantity,price\n".utf8))
    usleep(200_000)
    let bought = sandbox.run(
      ["buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-02"],
      environment: ["FOLIO_BUSY_TIMEOUT_MS": "300"])
    #expect(bought.code == 0, "\(bought.err)")
    try writer.write(contentsOf: Data("2024-01-01,buy,ethereum,2,50\n".utf8))
    try writer.close()
    importer.waitUntilExit()
    #expect(importer.terminationStatus == 0)
    #expect(
      try sandbox.sqlite("SELECT coin_id, quantity FROM trades ORDER BY coin_id")
        == "bitcoin|1\nethereum|2\n")
  }

  /// A WAL or rollback journal beside no database (the database moved or removed without it)
  /// is kept: SQLite would delete it when making a new database there, so a command that would
  /// make one is refused (74), naming it.
  @Test func aJournalBesideNoDatabaseIsKept() throws {
    let trades = sandbox.write(
      "t.csv", "date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,1,1\n")
    for suffix in ["-wal", "-journal"] {
      let path = sandbox.file("moved\(suffix).sqlite3")
      let journal = Data((0..<100).map { UInt8($0) })
      try journal.write(to: URL(fileURLWithPath: path + suffix))
      #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100").code == 0)
      for command in [
        ["buy", "bitcoin", "1", "--price", "100"], ["import", "trades", trades], ["demo"],
        ["--db", sandbox.database, "db", "backup", path],
      ] {
        let result = sandbox.run((command.first == "--db" ? [] : ["--db", path]) + command)
        #expect(result.code == 74, "\(command): \(result.err)")
        #expect(
          result.err
            == "folio: error: cannot create the database at \(path): \(path + suffix) is there "
            + "without its database (moved or removed without it?); put it back beside its "
            + "database, or remove it if it holds nothing you need\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + suffix)) == journal)
        #expect(!FileManager.default.fileExists(atPath: path))
      }
    }
  }

  /// A file at `<db>.creating` that folio did not make (here a backup named so) is neither
  /// locked nor removed by the commands creating `<db>`, which go on without the lock.
  @Test func aFileAtTheLockNameIsKept() throws {
    let trades = sandbox.write(
      "t.csv", "date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,1,1\n")
    #expect(sandbox.run("buy", "bitcoin", "1", "--price", "100").code == 0)
    for (name, command) in [
      ("bought", ["buy", "bitcoin", "2", "--price", "200"]),
      ("imported", ["import", "trades", trades]),
      ("refused", ["import", "trades", sandbox.write("bad.csv", "date,side\n2024-01-01,buy\n")]),
    ] {
      let path = sandbox.file("\(name).sqlite3")
      let backup = sandbox.run("db", "backup", path + ".creating")
      #expect(backup.code == 0, "\(backup.err)")
      let before = try Data(contentsOf: URL(fileURLWithPath: path + ".creating"))
      _ = sandbox.run(["--db", path] + command)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path + ".creating")) == before, "\(name)")
    }
    #expect(FileManager.default.fileExists(atPath: sandbox.file("bought.sqlite3")))
    #expect(FileManager.default.fileExists(atPath: sandbox.file("imported.sqlite3")))
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("refused.sqlite3")))
  }

  /// A command killed between making the lock file and writing in it leaves it empty: the next
  /// command creating the database takes it over and removes it with the rest of its work.
  @Test func anEmptyLockFileIsTakenOverAndRemoved() throws {
    let trades = sandbox.write(
      "t.csv", "date,side,coin,quantity,price\n2024-01-01,buy,bitcoin,1,1\n")
    for (name, command) in [
      ("imported", ["import", "trades", trades]),
      ("bought", ["buy", "bitcoin", "1", "--price", "1"]),
    ] {
      let folder = sandbox.file(name)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      let path = folder + "/folio.sqlite3"
      #expect(FileManager.default.createFile(atPath: path + ".creating", contents: nil))
      let result = sandbox.run(["--db", path] + command)
      #expect(result.code == 0, "\(name): \(result.err)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder).filter {
          !$0.hasPrefix("folio.sqlite3-")
        } == ["folio.sqlite3"], "\(name)")
    }
  }

  /// A command killed just after naming a new database leaves its lock file: the next command
  /// opening the database removes it, unless another command holds it or it is not folio's.
  @Test func aLockFileLeftBesideADatabaseIsRemovedWhenNoOneHoldsIt() throws {
    let path = sandbox.file("left.sqlite3")
    #expect(sandbox.run("--db", path, "buy", "bitcoin", "1", "--price", "100").code == 0)
    let lock = path + ".creating"
    func leave(_ text: String) {
      FileManager.default.createFile(atPath: lock, contents: Data(text.utf8))
    }
    let marker = String(decoding: CreationLock.marker, as: UTF8.self)
    leave(marker)
    let holder = open(lock, O_RDWR)
    #expect(flock(holder, LOCK_EX) == 0)
    #expect(sandbox.run("--db", path, "tx", "list").code == 0)
    #expect(FileManager.default.fileExists(atPath: lock), "held by another command")
    close(holder)
    leave(marker + "x")
    #expect(sandbox.run("--db", path, "tx", "list").code == 0)
    #expect(FileManager.default.fileExists(atPath: lock), "not folio's")
    leave(marker)
    #expect(sandbox.run("--db", path, "tx", "list").code == 0)
    #expect(!FileManager.default.fileExists(atPath: lock))
    // A FIFO at the name is not opened, beside a database or a new one, nor removed.
    try #require(mkfifo(lock, 0o600) == 0)
    #expect(sandbox.run("--db", path, "tx", "list").code == 0)
    let fresh = sandbox.file("fresh.sqlite3")
    try #require(mkfifo(fresh + ".creating", 0o600) == 0)
    #expect(sandbox.run("--db", fresh, "buy", "bitcoin", "1", "--price", "100").code == 0)
    for fifo in [lock, fresh + ".creating"] {
      var status = stat()
      #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
  }

  @Test func commandsThatWriteCreateTheDatabase() throws {
    let path = sandbox.file("new/folio.sqlite3")
    let bought = sandbox.run("--db", path, "buy", "bitcoin", "1", "--price", "100")
    #expect(bought.code == 0, "\(bought.err)")
    #expect(sandbox.run("--db", path, "tx", "list").out.contains("bitcoin"))
  }

  /// A symbolic link to a file that does not exist is not followed to create it: the message
  /// names the link's target and what to do; an empty file there is then made a database.
  @Test func aLinkToNoFileSaysSoAndCreatesNothing() throws {
    let link = sandbox.file("link.sqlite3")
    #expect(symlink("target.sqlite3", link) == 0)
    let refused = sandbox.run("--db", link, "buy", "bitcoin", "1", "--price", "100")
    #expect(refused.code == 74)
    #expect(
      refused.err
        == "folio: error: cannot open the database at \(link): it is a symbolic link to "
        + "\(sandbox.file("target.sqlite3")), which names no file, and folio creates no file "
        + "through a link; create that file first (an empty one will do) or give its path\n")
    let loop = sandbox.file("loop.sqlite3")
    #expect(symlink("loop.sqlite3", loop) == 0)
    let looped = sandbox.run("--db", loop, "buy", "bitcoin", "1", "--price", "100")
    #expect(looped.code == 74)
    #expect(
      looped.err.hasSuffix(
        "it is a symbolic link that leads back to itself or through more than 40 links (the "
          + "first to loop.sqlite3)\n"), "\(looped.err)")
    // A command that only reads names the link too, not what would create a database (66).
    // A chain of links is named by its last name.
    let chain = sandbox.file("chain.sqlite3")
    #expect(symlink("link.sqlite3", chain) == 0)
    for (path, link) in [
      (link, "a symbolic link to \(sandbox.file("target.sqlite3")), which names no file"),
      (chain, "a symbolic link to \(sandbox.file("target.sqlite3")), which names no file"),
      (
        loop,
        "a symbolic link that leads back to itself or through more than 40 links (the first to "
          + "loop.sqlite3)"
      ),
    ] {
      let read = sandbox.run("--db", path, "holdings")
      #expect(read.code == 66)
      #expect(
        read.err == "folio: error: no database at \(path): it is \(link); give the path of a "
          + "database\n")
    }
    // A folder on the way that is a link to nothing is named too.
    #expect(symlink("gone", sandbox.file("dir")) == 0)
    let inside = sandbox.run("--db", sandbox.file("dir/folio.sqlite3"), "holdings")
    #expect(inside.code == 66)
    #expect(
      inside.err
        == "folio: error: no database at \(sandbox.file("dir/folio.sqlite3")): its folder "
        + "\(sandbox.file("dir")) is a symbolic link to \(sandbox.file("gone")), which names no "
        + "file; give the path of a database\n")
    let write = sandbox.run(
      "--db", sandbox.file("dir/folio.sqlite3"), "buy", "bitcoin", "1", "--price", "100")
    #expect(write.code == 74)
    #expect(
      write.err.hasSuffix(
        "\(sandbox.file("dir")) is a symbolic link to gone, which names no folder\n"),
      "\(write.err)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("gone")))
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("target.sqlite3")))
    #expect(FileManager.default.createFile(atPath: sandbox.file("target.sqlite3"), contents: nil))
    #expect(sandbox.run("--db", link, "buy", "bitcoin", "1", "--price", "100").code == 0)
    #expect(
      sandbox.run("--db", sandbox.file("target.sqlite3"), "tx", "list").out.contains("bitcoin"))
  }

  @Test func anEmptyDatabasePathIsAUsageError() throws {
    for arguments in [
      ["--db", "", "holdings"], ["holdings", "--db="], ["--portfolio", "", "tx", "list"],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.code == 64, "\(arguments): \(result.err)")
      #expect(result.err.hasPrefix("folio: error: '--"), "\(result.err)")
      #expect(result.err.contains("needs a value, not an empty string"), "\(result.err)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path).isEmpty)
  }

  @Test func aGlobalOptionGivenTwiceIsAUsageError() throws {
    let other = sandbox.file("other.sqlite3")
    for arguments in [
      ["--db", sandbox.database, "--db", other, "buy", "bitcoin", "1", "--price", "1"],
      ["--db", other, "buy", "bitcoin", "1", "--price", "1", "--db", sandbox.database],
      ["--portfolio", "main", "holdings", "--portfolio", "cold"],
    ] {
      let result = sandbox.run(arguments)
      #expect(result.code == 64, "\(arguments): \(result.err)")
      #expect(result.err.contains("was given more than once"), "\(result.err)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path).isEmpty)
  }
}
