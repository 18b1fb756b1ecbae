import Foundation
import Testing

@testable import FolioCLI

/// Issue 18, point 5: `--color auto|always|never`, NO_COLOR and TERM=dumb; `holdings` colours
/// gains and losses as `report` does.
@Suite struct ColorTests {
  let sandbox = Sandbox()
  let green = "\u{1B}[32m"
  let red = "\u{1B}[31m"

  init() throws { try sandbox.useReportScenario() }

  /// Runs `arguments` as on a terminal (or not) with `environment`.
  func run(_ arguments: [String], terminal: Bool, _ environment: [String: String] = [:])
    -> RunResult
  {
    let out = StringSink()
    let err = StringSink()
    var env = environment
    env["FOLIO_DB"] = sandbox.database
    let code = FolioCLI.run(
      arguments, out: out, err: err, environment: env, now: sandbox.now,
      stdoutIsTerminal: terminal)
    return RunResult(code: code, out: out.text, err: err.text)
  }

  @Test func holdingsColoursGainsGreenAndLossesRed() throws {
    // A loss: ethereum bought at 2500, sold after a fall.
    let page = sandbox.write(
      "fall.json",
      sandbox.marketsPage(bitcoin: ("97000.5", nil), ethereum: ("2000", nil), solana: ("240", nil)))
    #expect(sandbox.run("market", "import", page, "--at", "2024-11-30T11:30:00Z").code == 0)
    let out = run(["holdings"], terminal: true, Sandbox.wide).out
    let lines = out.split(separator: "\n")
    let bitcoin = try #require(lines.first { $0.hasPrefix("bitcoin") })
    let ethereum = try #require(lines.first { $0.hasPrefix("ethereum") })
    #expect(bitcoin.contains(green + "+$14,792.20"), "\(bitcoin)")  // 0.4 × 97000.5 − 24008
    #expect(ethereum.contains(red + "-$1,503.75"), "\(ethereum)")  // 3 × 2000 − 7503.75
    #expect(ethereum.contains(green + "+$495.75"), "\(ethereum)")  // realized
  }

  @Test func whenColourIsUsed() {
    let cases: [([String], Bool, [String: String], Bool)] = [
      ([], true, [:], true),
      ([], false, [:], false),
      ([], true, ["NO_COLOR": "1"], false),
      ([], true, ["NO_COLOR": ""], true),
      ([], true, ["TERM": "dumb"], false),
      (["--color", "auto"], true, ["TERM": "xterm-256color"], true),
      (["--color", "never"], true, [:], false),
      (["--color", "always"], false, [:], true),
      (["--color", "ALWAYS"], false, ["NO_COLOR": "1", "TERM": "dumb"], true),
      (["holdings", "--color=never"], true, [:], false),
    ]
    for (options, terminal, environment, colored) in cases {
      let arguments = options.first == "holdings" ? options : ["holdings"] + options
      let result = run(arguments, terminal: terminal, environment)
      #expect(result.code == 0, "\(options): \(result.err)")
      #expect(
        result.out.contains("\u{1B}[") == colored,
        "\(options) terminal: \(terminal) \(environment)")
    }
    // The report follows the same rule.
    #expect(run(["report", "--color", "always"], terminal: false).out.contains(green))
    #expect(!run(["report"], terminal: true, ["TERM": "dumb"]).out.contains("\u{1B}["))
  }

  @Test func aWrongChoiceIsAUsageError() {
    let result = run(["holdings", "--color", "sometimes"], terminal: true)
    #expect(result.code == 64)
    #expect(result.err.contains("'--color' takes auto, always or never, not 'sometimes'"))
    #expect(result.out.isEmpty)
  }
}
