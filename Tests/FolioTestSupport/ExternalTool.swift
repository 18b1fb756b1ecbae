import Foundation

#if canImport(Testing)
  import Testing
#endif

/// A program outside the Swift toolchain that some tests run: those tests are skipped, with
/// the reason, where it is missing, and `.ci/run` installs it so CI always runs them.
public struct ExternalTool: Sendable {
  /// The names it may have on PATH, the preferred first.
  public let names: [String]
  /// How to install it.
  public let install: String

  /// The sqlite3 shell, for tests of what users do with it.
  public static let sqlite3 = ExternalTool(names: ["sqlite3"], install: "apt-get install sqlite3")
  /// A headless Chromium, to render the HTML report.
  public static let chromium = ExternalTool(
    names: ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
    install: "apt-get install chromium")
  /// beancount's query tool, for the FIFO cross-check.
  public static let beanQuery = ExternalTool(
    names: ["bean-query"], install: "pip install beancount beanquery")
  /// hledger, for the holdings cross-check.
  public static let hledger = ExternalTool(names: ["hledger"], install: "apt-get install hledger")
  /// ldd, to list the shared libraries a binary loads.
  public static let ldd = ExternalTool(names: ["ldd"], install: "apt-get install libc-bin")
  /// systemd-analyze, to verify the unit files of docs/daily.md.
  public static let systemdAnalyze = ExternalTool(
    names: ["systemd-analyze"], install: "apt-get install systemd")
  /// bash, zsh and fish, whose completions ShellIntegrationTests and CompletionQuotingTests
  /// drive.
  public static let bash = ExternalTool(names: ["bash"], install: "apt-get install bash")
  public static let zsh = ExternalTool(names: ["zsh"], install: "apt-get install zsh")
  public static let fish = ExternalTool(names: ["fish"], install: "apt-get install fish")
  /// coreutils' `timeout`, which bounds how long a program may run.
  public static let timeout = ExternalTool(
    names: ["timeout"], install: "apt-get install coreutils")
  /// util-linux's `script`, which runs a command on a pseudo-terminal of a set size.
  public static let script = ExternalTool(names: ["script"], install: "apt-get install bsdutils")
  /// python3, for the checks written in it.
  public static let python3 = ExternalTool(names: ["python3"], install: "apt-get install python3")

  /// The program's path: the first of `names` on PATH or in the usual system folders.
  public var path: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders =
      path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"]
    for name in names {
      for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)")
      {
        return "\(folder)/\(name)"
      }
    }
    return nil
  }

  /// Why a test that needs it was skipped.
  public var missing: String {
    "\(names[0]) is not installed (\(install); .ci/run installs it)"
  }
}

// folio-gen links this module in release builds, where the Testing module is not available.
#if canImport(Testing)
  extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where `tool` is installed; elsewhere it is skipped, saying why.
    public static func requires(_ tool: ExternalTool) -> Self {
      .enabled(if: tool.path != nil, Comment(rawValue: tool.missing))
    }
  }
#endif
