import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import FolioCLI

/// What one run of the CLI produced.
struct RunResult {
  let code: Int32
  let out: String
  let err: String
}

/// A fresh temporary folder with a database path in it, for one test.
final class Sandbox {
  let temporary = TemporaryFolder("folio-cli")
  var path: String { temporary.path }
  /// The database file this sandbox's commands use.
  var database: String { path + "/folio.sqlite3" }
  /// The environment of a run that checks what a wide table holds rather than how it fits
  /// 80 columns (`WidthTests` checks that).
  static let wide = ["COLUMNS": "200"]
  /// A fixed clock, so output with times is stable.
  var now = Date(timeIntervalSince1970: 1_732_968_000)  // 2024-11-30T12:00:00Z

  func file(_ name: String) -> String { temporary.file(name) }

  /// Runs `folio ARGS --db <sandbox db>` in-process: parse → run → captured output and code.
  @discardableResult
  func run(_ arguments: String..., environment: [String: String] = [:]) -> RunResult {
    run(arguments, environment: environment)
  }

  @discardableResult
  func run(_ arguments: [String], environment: [String: String] = [:]) -> RunResult {
    let out = StringSink()
    let err = StringSink()
    var env = environment
    if env["FOLIO_DB"] == nil { env["FOLIO_DB"] = database }
    let code = FolioCLI.run(arguments, out: out, err: err, environment: env, now: now)
    return RunResult(code: code, out: out.text, err: err.text)
  }

  /// Writes `text` to a file in the sandbox and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) -> String {
    let target = file(name)
    _ = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
    return target
  }

  /// The rows of `sql` as the sqlite3 shell prints them (pipe-separated), for state checks.
  func sqlite(_ sql: String) throws -> String {
    DatabaseProbe.run(database, sql).out
  }

  /// Mounts a tmpfs of `size` (such as "64k") at a new folder of the sandbox, for full-disk
  /// tests (`EnvironmentFaultTests.mountWorks` says whether this machine allows it); undo it
  /// with `unmount(_:)`.
  func mountSmallDisk(size: String) throws -> String {
    let disk = file("small")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mounted = try Binary.runTool(
      "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", disk])
    try #require(mounted.code == 0, "\(mounted.err)")
    return disk
  }

  /// Unmounts what `mountSmallDisk` mounted.
  func unmount(_ disk: String) {
    _ = try? Binary.runTool("/usr/bin/umount", ["-l", disk])
  }

  /// The schema and every row, to prove a refused command changed nothing.
  func dump() throws -> String {
    DatabaseProbe.dump(database)
  }
}

/// The built `folio` executable, run as a user would run it.
enum Binary {
  /// The `folio` binary next to the test bundle in the build folder, or `$FOLIO_TEST_BINARY`
  /// (to run the end-to-end tests against a release build).
  static var folioPath: String {
    if let path = ProcessInfo.processInfo.environment["FOLIO_TEST_BINARY"], !path.isEmpty {
      return path
    }
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL,
      Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    for folder in candidates {
      let path = folder.appendingPathComponent("folio").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return candidates[0].appendingPathComponent("folio").path
  }

  /// Copies the built binary into `folder` (as `folio`) and returns the copy's path, for tests
  /// that run it from somewhere else.
  ///
  /// The copy is written by `/bin/cp`, a child process that has exited before the copy is run.
  /// `FileManager.copyItem` would open the new file for writing in this test process (without
  /// O_CLOEXEC), where other tests start processes at the same moment: a child forked while
  /// that descriptor is open inherits it and keeps it until it closes its descriptors or
  /// execs, and running a file that any process still has open for writing fails with ETXTBSY
  /// ("Text file busy"). Written by `cp`, the copy is never open in a process forked from here.
  static func copy(into folder: String) throws -> String {
    let target = folder + "/folio"
    let result = try runTool("/bin/cp", [folioPath, target])
    guard result.code == 0 else {
      throw DemoError(message: "cp \(folioPath) \(target) failed (\(result.code)): \(result.err)")
    }
    return target
  }

  /// Runs the built binary with `arguments` and `environment` added to a minimal environment,
  /// in `directory` when given.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    executable: String? = nil, directory: String? = nil
  ) throws -> RunResult {
    var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    env.merge(environment) { $1 }
    return try runTool(
      executable ?? folioPath, arguments, environment: env, stdin: stdin, directory: directory)
  }

  /// Starts `count` copies of the built binary back to back, so they run at the same moment,
  /// then waits for all of them; results come in start order. Their output must be small
  /// (it is read after they exit).
  static func runConcurrently(_ count: Int, _ arguments: [String]) throws -> [RunResult] {
    let started = try (0..<count).map { _ in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: folioPath)
      process.arguments = arguments
      process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
      let out = Pipe()
      let err = Pipe()
      process.standardOutput = out
      process.standardError = err
      try process.run()
      return (process, out, err)
    }
    return started.map { process, out, err in
      process.waitUntilExit()
      return RunResult(
        code: process.terminationStatus,
        out: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
        err: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
  }

  /// The sqlite3 shell, for the tests of what users do with it (marked `.requires(.sqlite3)`).
  static var sqlite3: String { ExternalTool.sqlite3.path ?? "sqlite3" }

  /// Runs any program and captures its output and exit status.
  static func runTool(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil,
    stdin: String? = nil, directory: String? = nil
  ) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = errPipe.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let code =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus
      : process.terminationStatus
    return RunResult(
      code: code, out: String(decoding: outData, as: UTF8.self),
      err: String(decoding: errData, as: UTF8.self))
  }
}

extension Sandbox {
  /// A database built through the CLI as a user would: two portfolios (main, fifo; cold, lifo),
  /// two locations, buys and sells (one coin sold out), and two daily history rows; with
  /// `withMarketData`, also the market data of `importMarketDemo()`.
  func buildDemo(withMarketData: Bool = false) throws {
    let steps: [[String]] = [
      [
        "locations", "add", "Colosseum", "--city", "Rome", "--lat", "41.8902", "--lon", "12.4922",
        "--image", "rome-colosseum-1", "--image", "rome-colosseum-2",
      ],
      [
        "locations", "add", "Eiffel Tower", "--city", "Paris", "--lat", "48.8584", "--lon",
        "2.2945",
      ],
      ["portfolio", "add", "cold", "--method", "lifo"],
      [
        "buy", "bitcoin", "0.5", "--price", "30000", "--fee", "10", "--date", "2023-01-05",
        "--location", "1",
      ],
      ["buy", "bitcoin", "0.25", "--price", "40000", "--date", "2023-06-01"],
      ["buy", "ethereum", "2", "--price", "1800.5", "--fee", "2.5", "--date", "2023-03-01"],
      [
        "sell", "bitcoin", "0.3", "--price", "45000", "--fee", "5", "--date", "2024-02-01",
        "--location", "Colosseum, Rome",
      ],
      ["buy", "solana", "10", "--price", "20", "--date", "2023-02-01"],
      ["sell", "solana", "10", "--price", "25.5", "--date", "2024-01-10"],
      ["buy", "bitcoin", "1", "--price", "20000", "--date", "2022-12-01", "--portfolio", "cold"],
      [
        "sell", "bitcoin", "0.4", "--price", "60000", "--date", "2024-03-01", "--portfolio", "cold",
      ],
    ]
    for step in steps {
      let result = run(step)
      guard result.code == 0 else {
        throw DemoError(message: "\(step.joined(separator: " ")): \(result.err)")
      }
    }
    _ = try sqlite(
      """
      INSERT INTO portfolio_daily (portfolio_id, day, value, cost_basis, unrealized_pnl,
        realized_pnl, snapshot_at, saved_at) VALUES
        (1, '2024-03-01', '23851', '19607.5', '4243.5', '4544', NULL, '2024-03-01T23:00:00Z'),
        (1, '2024-03-02', '24000.5', '19607.5', '4393', '4544', NULL, '2024-03-02T23:00:00Z');
      """)
    if withMarketData { try importMarketDemo() }
  }

  /// Market data imported with `folio market import` as a user would: the USD fixtures (20
  /// coins at 2024-01-24T00:28:58Z, /global, bitcoin and ethereum details); a later USD snapshot
  /// of bitcoin and ethereum only (2024-01-25, so the other coins keep their older quotes); an
  /// older USD snapshot of bitcoin imported last (2024-01-20, which must not count as the
  /// newest); the EUR capture of 100 coins; and two older /global captures (May 2021).
  func importMarketDemo() throws {
    let later = write(
      "markets_later.json",
      """
      [{"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 42150.25,
        "market_cap": 826500000000, "market_cap_rank": 1, "price_change_24h": 2214.95,
        "price_change_percentage_24h": 5.54},
       {"id": "ethereum", "symbol": "eth", "name": "Ethereum", "current_price": 2315.5,
        "market_cap": 278300000000, "market_cap_rank": 2, "price_change_24h": 74.53,
        "price_change_percentage_24h": 3.33}]
      """)
    let older = write(
      "markets_older.json",
      """
      [{"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 41000,
        "market_cap_rank": 1}]
      """)
    let steps: [[String]] = [
      ["market", "import"]
        + [
          "coingecko/markets_usd.json", "coingecko/global_usd.json",
          "coingecko/coin_bitcoin.json", "coingecko/coin_ethereum.json",
          "coingecko/captured/global_2021-05-18.json",
          "coingecko/captured/global_2021-05-10_from_swiftful_comment.json",
        ].map(Fixtures.path),
      ["market", "import", later, "--at", "2024-01-25T00:00:00Z"],
      ["market", "import", older, "--at", "2024-01-20T00:00:00Z"],
      [
        "market", "import", "--vs", "eur",
        Fixtures.path("coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json"),
      ],
    ]
    for step in steps {
      let result = run(step)
      guard result.code == 0 else {
        throw DemoError(message: "\(step.joined(separator: " ")): \(result.err)")
      }
    }
  }

  /// The rows of `sql` as the real sqlite3 prints them with `-json`, or the failure.
  func sqliteJSON(_ sql: String) throws -> [[String: Any]] {
    let result = try Binary.runTool(Binary.sqlite3, ["-bail", "-json", database, sql])
    guard result.code == 0, result.err.isEmpty else {
      throw DemoError(message: "sqlite3 failed (\(result.code)): \(result.err) for \(sql)")
    }
    // sqlite3 prints nothing at all for an empty result.
    guard !result.out.isEmpty else { return [] }
    return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]] ?? []
  }
}

/// A step of a test's setup failed.
struct DemoError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// How hard the reliability tests push: the quick default keeps `swift test` fast; CI sets
/// `FOLIO_RELIABILITY_FULL=1` for a second run at the sizes issue 8 asks for.
enum ReliabilityScale {
  static var full: Bool { ProcessInfo.processInfo.environment["FOLIO_RELIABILITY_FULL"] == "1" }

  /// `quick` normally, `full` with FOLIO_RELIABILITY_FULL=1; `variable` overrides both.
  static func pick(_ quick: Int, full: Int, variable: String) -> Int {
    if let text = ProcessInfo.processInfo.environment[variable], let value = Int(text) {
      return value
    }
    return self.full ? full : quick
  }
}

/// A program started in the background. Its output goes to files in `folder`, so it can never
/// block on a full pipe however long it runs; stdin is a pipe the test may write to.
final class Spawned {
  let process = Process()
  let outPath: String
  let errPath: String
  private let input = Pipe()

  init(
    _ executable: String, _ arguments: [String], environment: [String: String],
    folder: String, name: String = UUID().uuidString
  ) throws {
    outPath = folder + "/\(name).out"
    errPath = folder + "/\(name).err"
    FileManager.default.createFile(atPath: outPath, contents: nil)
    FileManager.default.createFile(atPath: errPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: outPath)
    process.standardError = FileHandle(forWritingAtPath: errPath)
    process.standardInput = input
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }

  /// Writes `text` to the program's stdin.
  func send(_ text: String) {
    input.fileHandleForWriting.write(Data(text.utf8))
  }

  /// What the program wrote to stdout so far.
  var output: String {
    String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
  }

  /// Waits until stdout holds `lines` lines (or `timeout` seconds pass); returns stdout.
  @discardableResult
  func waitForOutput(lines: Int, timeout: TimeInterval = 10) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while output.filter({ $0 == "\n" }).count < lines && Date() < deadline {
      usleep(5_000)
    }
    return output
  }

  /// Sends `signal` (SIGKILL by default) to the program.
  func kill(_ signal: Int32 = SIGKILL) {
    _ = Glibc.kill(pid, signal)
  }

  /// Closes stdin, waits for the program to end and returns its output; a program ended by
  /// a signal gets 128 + the signal as its code, as a shell reports it.
  @discardableResult
  func wait() -> RunResult {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    let code =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    let err = String(
      decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
    return RunResult(code: code, out: output, err: err)
  }
}

extension Binary {
  /// The environment spawned programs get: a minimal PATH and HOME, `$FOLIO` naming the built
  /// binary (for shell scripts), plus `extra`.
  static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "FOLIO": folioPath]
    env.merge(extra) { $1 }
    return env
  }

  /// Starts the built binary in the background.
  static func spawn(
    _ arguments: [String], environment: [String: String] = [:], folder: String,
    name: String = UUID().uuidString
  ) throws -> Spawned {
    try Spawned(
      folioPath, arguments, environment: Self.environment(environment), folder: folder,
      name: name)
  }

  /// Starts `/bin/sh -c script` in the background; the script runs folio as `"$FOLIO"`.
  static func spawnShell(
    _ script: String, environment: [String: String] = [:], folder: String,
    name: String = UUID().uuidString
  ) throws -> Spawned {
    try Spawned(
      "/bin/sh", ["-c", script], environment: Self.environment(environment), folder: folder,
      name: name)
  }
}
