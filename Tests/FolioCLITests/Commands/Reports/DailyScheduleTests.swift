import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// The crontab line and the systemd units of docs/daily.md work as written (issue 19).
@Suite struct DailyScheduleTests {
  let sandbox = Sandbox()
  /// The HOME the scheduled command runs with; folio is installed at ~/.local/bin/folio.
  var home: String { sandbox.file("home") }

  init() throws {
    try FileManager.default.createDirectory(
      atPath: home + "/.local/bin", withIntermediateDirectories: true)
    _ = try Binary.copy(into: home + "/.local/bin")
  }

  /// The fenced blocks of docs/daily.md with `language`, in order.
  static func blocks(_ language: String) throws -> [String] {
    let text = try String(contentsOfFile: Fixtures.package + "/docs/daily.md", encoding: .utf8)
    return text.components(separatedBy: "```" + language + "\n").dropFirst().compactMap {
      $0.components(separatedBy: "```").first
    }
  }

  @Test func theCrontabLinesCommandRunsWithCronsMinimalEnvironment() throws {
    let lines = try Self.blocks("crontab").joined().split(separator: "\n")
    try #require(lines.count == 1)
    // Five time fields, then the command cron hands to /bin/sh.
    let fields = lines[0].split(separator: " ", maxSplits: 5)
    #expect(fields.prefix(5) == ["30", "6", "*", "*", "*"])
    let command = String(fields[5])
    #expect(!command.contains("%"))  // cron turns % into newlines
    let bought = try Binary.run(
      ["buy", "bitcoin", "1", "--price", "50000", "--date", "2024-01-01"],
      environment: ["HOME": home], executable: home + "/.local/bin/folio")
    try #require(bought.code == 0, "\(bought.err)")

    // As cron runs it: `env -i` empties the environment (no TERM, no XDG_*, no FOLIO_*),
    // then only HOME, LOGNAME, SHELL and a bare PATH, and /bin/sh runs the command. folio-fetch
    // is not installed beside the copy, so the refresh fails and the job goes on with the cache.
    let ran = try Binary.runTool(
      "/usr/bin/env",
      [
        "-i", "HOME=" + home, "LOGNAME=folio", "SHELL=/bin/sh", "PATH=/usr/bin:/bin", "/bin/sh",
        "-c", command,
      ], environment: [:])
    #expect(ran.code == 0, "\(ran.err)")
    #expect(ran.out.isEmpty && ran.err.isEmpty)
    let state = home + "/.local/state/folio"
    let log = try String(contentsOfFile: state + "/daily.log", encoding: .utf8)
    let days = try FileManager.default.contentsOfDirectory(atPath: state + "/reports")
      .filter { $0.hasPrefix("20") }
    try #require(days.count == 1)
    // The summary on stdout and the warning on stderr, both in the log.
    let logged = log.split(separator: "\n").map(String.init)
    #expect(logged.count == 2)
    #expect(
      logged.contains(
        "daily \(days[0]): main n/a (no earlier day); no snapshot; wrote 3 file(s) in "
          + "\(state)/reports; refresh failed (cached prices used)"))
    #expect(
      logged.contains {
        $0.hasPrefix("folio: warning: folio-fetch, folio's network helper, was not found at ")
          && $0.hasSuffix("; going on with the cached prices")
      })
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: state + "/reports/" + days[0]).sorted()
        == ["main.html", "main.md"])
  }

  func theSystemdUnitsPassVerify() throws {
    let units = try Self.blocks("ini")
    try #require(units.count == 2)
    #expect(units[0].contains("ExecStart=%h/.local/bin/folio daily"))
    #expect(units[1].contains("[Timer]"))
    let folder = sandbox.file("units")
    let runtime = sandbox.file("runtime")
    for path in [folder, runtime] {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    for (name, text) in zip(["folio-daily.service", "folio-daily.timer"], units) {
      sandbox.write("units/" + name, text)
    }
    let verify = try Binary.runTool(
      ExternalTool.systemdAnalyze.path ?? "systemd-analyze",
      ["verify", "--user", folder + "/folio-daily.timer", folder + "/folio-daily.service"],
      environment: ["HOME": home, "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
    #expect(verify.code == 0, "\(verify.err)")
    #expect(verify.err.isEmpty)
  }
}

extension DailyScheduleTests {
  /// The tests that run systemd-analyze: skipped, saying why, where it is not installed.
  @Suite(.requires(.systemdAnalyze)) struct NeedsSystemdAnalyze {
    @Test func theSystemdUnitsPassVerify() throws {
      try DailyScheduleTests().theSystemdUnitsPassVerify()
    }
  }
}
