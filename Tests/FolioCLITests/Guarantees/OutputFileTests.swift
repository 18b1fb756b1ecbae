import Foundation
import Glibc
import Testing

/// Every `--out` (export trades, report, locations export) goes through one writer: a regular
/// file is replaced atomically and keeps its mode, a new file is 0600, a symlink is followed,
/// anything else is refused with 74 and left untouched, and nothing temporary stays behind.
@Suite struct OutputFileTests {
  let sandbox = Sandbox()

  /// The three commands that take `--out`, each writing to `path`.
  static func commands(_ path: String) -> [[String]] {
    [
      ["export", "trades", "--out", path],
      ["report", "--date", "2024-03-05", "--out", path],
      ["locations", "export", "--out", path],
    ]
  }

  init() throws {
    try sandbox.buildDemo()
  }

  func mode(_ path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode : 0
  }

  func text(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names in the sandbox other than the database's files and the expected ones.
  func leftovers(in folder: String, except expected: Set<String>) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      !$0.hasPrefix("folio.sqlite3") && !expected.contains($0)
    }
  }

  @Test func exportTwiceReplacesTheFile() throws {
    let path = sandbox.file("trades.csv")
    for _ in 0..<2 {
      let result = sandbox.run("export", "trades", "--out", path)
      #expect(result.code == 0, "\(result.err)")
      #expect(text(path)?.hasPrefix("date,side,coin,quantity,price,fee,note,id,location\n") == true)
      #expect(text(path)?.contains("bitcoin") == true)
    }
    #expect(try leftovers(in: sandbox.path, except: ["trades.csv"]).isEmpty)
  }

  @Test func everyOutCreatesANewFile0600AndKeepsAnExistingMode() throws {
    for (index, command) in Self.commands("").enumerated() {
      let path = sandbox.file("new-\(index)")
      let arguments = command.dropLast() + [path]
      let created = sandbox.run(Array(arguments))
      #expect(created.code == 0, "\(created.err)")
      #expect(mode(path) & 0o777 == 0o600, "\(command)")
      #expect(chmod(path, 0o640) == 0)
      let replaced = sandbox.run(Array(arguments))
      #expect(replaced.code == 0, "\(replaced.err)")
      #expect(mode(path) & 0o777 == 0o640, "\(command)")
      #expect(mode(path) & S_IFMT == S_IFREG)
    }
    #expect(
      try leftovers(in: sandbox.path, except: ["new-0", "new-1", "new-2"]).isEmpty)
  }

  @Test func directoryIsRefused() throws {
    let folder = sandbox.file("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    sandbox.write("folder/keep.txt", "precious\n")
    for command in Self.commands(folder) {
      let result = sandbox.run(command)
      #expect(result.code == 74, "\(command): \(result.err)")
      #expect(
        result.err.contains("\(folder): cannot be written (it is a directory, not a regular"),
        "\(result.err)")
      #expect(mode(folder) & S_IFMT == S_IFDIR)
      #expect(text(folder + "/keep.txt") == "precious\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep.txt"])
    }
  }

  @Test func fifoIsRefusedAndLeftAsItIs() throws {
    let fifo = sandbox.file("pipe")
    try #require(mkfifo(fifo, 0o600) == 0)
    for command in Self.commands(fifo) {
      let result = sandbox.run(command)
      #expect(result.code == 74, "\(command): \(result.err)")
      #expect(result.err.contains("is a FIFO"), "\(result.err)")
      #expect(mode(fifo) & S_IFMT == S_IFIFO)
    }
    #expect(try leftovers(in: sandbox.path, except: ["pipe"]).isEmpty)
  }

  /// A device node made in the sandbox (as root), never one in /dev.
  @Test func deviceIsRefusedAndLeftAsItIs() throws {
    let device = sandbox.file("null-device")
    // 1,3 is /dev/null's number; making a device node needs root.
    guard mknod(device, S_IFCHR | 0o600, dev_t(0x103)) == 0 else { return }
    for command in Self.commands(device) {
      let result = sandbox.run(command)
      #expect(result.code == 74, "\(command): \(result.err)")
      #expect(result.err.contains("is a character device"), "\(result.err)")
      #expect(mode(device) & S_IFMT == S_IFCHR)
    }
  }

  @Test func symlinkIsFollowedAndKept() throws {
    let target = sandbox.write("target.csv", "old\n")
    let link = sandbox.file("link.csv")
    try #require(symlink("target.csv", link) == 0)
    let result = sandbox.run("export", "trades", "--out", link)
    #expect(result.code == 0, "\(result.err)")
    #expect(mode(link) & S_IFMT == S_IFLNK)
    #expect(text(target)?.hasPrefix("date,side,coin") == true)
    // A dangling link creates the file it names, as a shell's `>` does.
    let dangling = sandbox.file("dangling.json")
    try #require(symlink(sandbox.file("made.json"), dangling) == 0)
    #expect(sandbox.run("locations", "export", "--out", dangling).code == 0)
    #expect(mode(dangling) & S_IFMT == S_IFLNK)
    #expect(text(sandbox.file("made.json"))?.contains("Colosseum") == true)
    #expect(
      try leftovers(
        in: sandbox.path, except: ["target.csv", "link.csv", "dangling.json", "made.json"]
      ).isEmpty)
  }

  /// A write that fails (a full disk) leaves the old file as it was and no temporary file.
  @Test(.enabled(if: EnvironmentFaultTests.mountWorks)) func fullDiskLeavesNoTemporaryFile()
    throws
  {
    let disk = try sandbox.mountSmallDisk(size: "64k")
    defer { sandbox.unmount(disk) }
    let path = disk + "/report.html"
    FileManager.default.createFile(atPath: path, contents: Data("old\n".utf8))
    _ = try Binary.runTool("/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=4k", "count=100"])
    let result = sandbox.run("report", "--date", "2024-03-05", "--format", "html", "--out", path)
    #expect(result.code == 74, "\(result.err)")
    #expect(result.err.contains("no space left on device"), "\(result.err)")
    #expect(text(path) == "old\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: disk).sorted() == [
        "filler", "report.html",
      ])
  }
}

/// stdout and stderr are written with write(2): a failed write exits 74 with one line on
/// stderr, never a trap, after the command's own work is done (a trade is stored once).
@Suite struct StandardOutputFailureTests {
  let sandbox = Sandbox()

  /// Runs the built binary with its stdout on /dev/full (or closed, with `closed`).
  func folio(_ arguments: [String], closed: Bool = false) throws -> RunResult {
    let environment = [
      "FOLIO_DB": sandbox.database, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
    ]
    if closed {
      return try Binary.runTool(
        "/bin/sh", ["-c", "exec \"$0\" \"$@\" >&-", Binary.folioPath] + arguments,
        environment: environment)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Binary.folioPath)
    process.arguments = arguments
    process.environment = environment
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    process.standardOutput = full
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let code =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return RunResult(code: code, out: "", err: String(decoding: err, as: UTF8.self))
  }

  func expectIOError(_ result: RunResult, _ arguments: [String]) {
    #expect(result.code == 74, "\(arguments): \(result.code) \(result.err)")
    #expect(
      result.err.hasPrefix("folio: error: cannot write to standard output"),
      "\(arguments): \(result.err)")
    #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
  }

  @Test func buyToAFullDiskStoresTheTradeOnceAndExits74() throws {
    let arguments = ["buy", "bitcoin", "0.5", "--price", "30000", "--date", "2024-01-05"]
    expectIOError(try folio(arguments), arguments)
    #expect(try sandbox.sqlite("SELECT count(*) FROM trades") == "1\n")
  }

  @Test func readersToAFullDiskExit74() throws {
    try sandbox.buildDemo()
    for arguments in [
      ["tx", "list"], ["export", "trades"], ["report", "--date", "2024-03-05"],
      ["sql", "SELECT * FROM trades"], ["holdings"],
    ] {
      expectIOError(try folio(arguments), arguments)
    }
  }

  @Test func closedStdoutExits74() throws {
    try sandbox.buildDemo()
    for arguments in [["holdings"], ["tx", "list"]] {
      expectIOError(try folio(arguments, closed: true), arguments)
    }
    // Nothing went into the database through descriptor 1.
    #expect(try sandbox.sqlite("PRAGMA integrity_check") == "ok\n")
  }
}
