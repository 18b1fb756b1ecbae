import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// `folio completions` and the man page: generated from the declarations, and driven here
/// through the real completion functions of bash and zsh.
@Suite struct ShellIntegrationTests {
  let sandbox = Sandbox()

  init() {
    _ = sandbox.run("portfolio", "add", "savings")
    _ = sandbox.run(
      "locations", "add", "Colosseum", "--city", "Rome", "--lat", "41.89", "--lon", "12.49")
  }

  func candidates(_ words: String...) -> [String] {
    let result = sandbox.run([Completion.command] + words)
    return result.out.split(separator: "\n").map(String.init)
  }

  @Test func completesFromTheDeclarationsAndTheDatabase() {
    #expect(candidates("hol") == ["holdings"])
    #expect(candidates("tx", "") == ["list", "show", "edit", "delete"])
    #expect(candidates("holdings", "--me") == ["--method"])
    #expect(candidates("holdings", "--method", "") == ["fifo", "lifo", "hifo", "average"])
    #expect(candidates("tx", "list", "--format", "") == ["text", "json", "csv"])
    #expect(candidates("--portfolio", "") == ["main", "savings"])
    #expect(candidates("portfolio", "show", "sa") == ["savings"])
    #expect(candidates("locations", "show", "Col") == ["Colosseum, Rome"])
    #expect(candidates("buy", "bitc").contains("bitcoin"))
    // A coin's symbol as well as its id; --option=VALUE; none (file names) after --db=.
    #expect(candidates("buy", "btc") == ["btc"])
    #expect(candidates("buy", "eth").starts(with: ["ethereum"]))
    #expect(candidates("buy", "eth").contains("eth"))
    #expect(candidates("holdings", "--method=l") == ["--method=lifo"])
    #expect(candidates("buy", "bitcoin", "1", "--location=C") == ["--location=Colosseum, Rome"])
    #expect(candidates("--db=").isEmpty)
    #expect(candidates("buy", "bitcoin", "1", "--location", "") == ["Colosseum, Rome"])
    // The database named on the line is the one read.
    let other = sandbox.file("other.sqlite3")
    _ = sandbox.run("--db", other, "portfolio", "add", "elsewhere")
    #expect(candidates("--db", other, "--portfolio", "") == ["elsewhere", "main"])
    // Nothing to offer for a number; no database is created by completing.
    #expect(candidates("buy", "bitcoin", "").isEmpty)
    #expect(candidates("--db", sandbox.file("none.sqlite3"), "--portfolio", "").isEmpty)
    #expect(!FileManager.default.fileExists(atPath: sandbox.file("none.sqlite3")))
  }

  @Test func completionsPrintsAScriptForEachShell() {
    for shell in ["bash", "zsh", "fish"] {
      let script = sandbox.run("completions", shell)
      #expect(script.code == 0)
      #expect(script.out.contains("folio __complete"), "\(shell)")
    }
    #expect(sandbox.run("completions", "tcsh").code == 64)
  }

  /// Runs `script` in `shell` with the built folio first on PATH and the sandbox's database.
  func shell(_ path: String, _ script: String) throws -> [String] {
    let folder = URL(fileURLWithPath: Binary.folioPath).deletingLastPathComponent().path
    let result = try Binary.runTool(
      path, ["-c", script],
      environment: [
        "PATH": folder + ":/usr/bin:/bin", "FOLIO_DB": sandbox.database, "HOME": sandbox.path,
      ])
    #expect(result.code == 0, "\(result.err)")
    return result.out.split(separator: "\n").map(String.init)
  }

  @Test(.requires(.bash)) func bashCompletesThroughItsFunction() throws {
    // The line up to the cursor and the text readline replaces, as bash hands them over.
    func complete(_ words: String...) throws -> [String] {
      let line = (["folio"] + words).joined(separator: " ")
      return try shell(
        ExternalTool.bash.path ?? "bash",
        """
        source <(folio completions bash)
        COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
        _folio folio '\(words.last ?? "")' ''
        printf '%s\\n' "${COMPREPLY[@]}"
        """)
    }
    #expect(try complete("coins", "li") == ["list"])
    #expect(try complete("holdings", "--method", "") == ["fifo", "lifo", "hifo", "average"])
    #expect(try complete("--portfolio", "s") == ["savings"])
    #expect(try complete("locations", "show", "") == ["Colosseum,\\ Rome"])
  }

  @Test(.requires(.zsh)) func zshCompletesThroughItsFunction() throws {
    func complete(_ words: String...) throws -> [String] {
      let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
      // compadd and compdef stand in for the completion system: they print what is offered.
      return try shell(
        ExternalTool.zsh.path ?? "zsh",
        """
        compdef() { : }
        compadd() { print -l -- "${(@P)${@[-1]}}" }
        _files() { print -- '<files>' }
        source <(folio completions zsh)
        words=(folio \(quoted)); CURRENT=\(words.count + 1); PREFIX=${words[CURRENT]}
        _folio
        """)
    }
    #expect(try complete("coins", "li") == ["list"])
    #expect(try complete("tx", "list", "--format", "") == ["text", "json", "csv"])
    #expect(try complete("--portfolio", "") == ["main", "savings"])
    #expect(try complete("import", "trades", "") == ["<files>"])
  }

  @Test func theManPageIsUpToDate() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("docs/man/folio.1").path
    let checkedIn = try String(contentsOfFile: file, encoding: .utf8)
    let rendered = ManPage.render(Root.spec)
    #expect(
      checkedIn == rendered,
      "docs/man/folio.1 is out of date: run 'swift run folio __man > docs/man/folio.1'")
    for name in Root.spec.subcommands.map(\.name) {
      #expect(rendered.contains(".SS \"folio \(name)"), "\(name) is not in the man page")
    }
    #expect(sandbox.run(ManPage.command).out == rendered)
  }
}
