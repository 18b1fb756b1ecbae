import Testing

@testable import FolioCLI

@Suite struct ParserTests {
  let sandbox = Sandbox()

  @Test func versionAndHelp() {
    let version = sandbox.run("--version")
    #expect(version.code == 0)
    #expect(version.out == "folio 0.1.0\n")
    let help = sandbox.run("--help")
    #expect(help.code == 0)
    for section in ["OVERVIEW:", "USAGE: folio <subcommand>", "OPTIONS:", "SUBCOMMANDS:"] {
      #expect(help.out.contains(section))
    }
    #expect(help.err.isEmpty)
  }

  @Test func helpForEveryCommandInEveryForm() {
    func walk(_ spec: CommandSpec, _ path: [String]) {
      let viaFlag = sandbox.run(path + ["--help"])
      let viaShort = sandbox.run(path + ["-h"])
      let viaHelp = sandbox.run(["help"] + path)
      #expect(viaFlag.code == 0, "\(path)")
      // Help is wrapped at 80 columns: the abstract may continue on the next line.
      let unwrapped = viaFlag.out.replacingOccurrences(
        of: #"\n +"#, with: " ", options: .regularExpression)
      #expect(unwrapped.hasPrefix("OVERVIEW: \(spec.abstract)"), "\(path)")
      #expect(viaShort.out == viaFlag.out, "\(path)")
      #expect(viaHelp.out == viaFlag.out, "\(path)")
      for sub in spec.subcommands { walk(sub, path + [sub.name]) }
    }
    for sub in Root.spec.subcommands { walk(sub, [sub.name]) }
  }

  @Test func unknownCommandSuggestsTheClosest() {
    let result = sandbox.run("db", "stauts")
    #expect(result.code == 64)
    #expect(result.out.isEmpty)
    #expect(
      result.err.hasPrefix("folio: error: unknown command 'stauts'; did you mean 'status'?\n"))
    #expect(result.err.contains("Usage: folio db <subcommand>"))
    #expect(result.err.contains("See 'folio db --help'"))
  }

  @Test func unknownOptionExits64() {
    let result = sandbox.run("db", "status", "--frmat", "json")
    #expect(result.code == 64)
    #expect(
      result.err.hasPrefix("folio: error: unknown option '--frmat'; did you mean '--format'?"))
  }

  @Test func missingValueAndBadValueAndExtraArgument() {
    #expect(sandbox.run("db", "status", "--format").err.contains("missing value for '--format'"))
    let bad = sandbox.run("db", "status", "--format", "xml")
    #expect(bad.code == 64)
    #expect(bad.err.contains("invalid value 'xml' for --format: expected text, json"))
    let extra = sandbox.run("db", "path", "extra")
    #expect(extra.code == 64)
    #expect(extra.err.contains("unexpected argument 'extra'"))
    #expect(sandbox.run("db", "backup").err.contains("missing argument <file>"))
    #expect(sandbox.run("db").err.contains("missing subcommand"))
  }

  @Test func repeatedSingleOptionIsRefused() {
    let result = sandbox.run("db", "status", "--format", "json", "--format", "text")
    #expect(result.code == 64)
    #expect(result.err.contains("'--format' was given more than once"))
  }

  @Test func globalOptionsBeforeOrAfterTheCommand() {
    let before = sandbox.run(["--db", "/tmp/x.sqlite3", "db", "path"])
    let after = sandbox.run(["db", "path", "--db=/tmp/x.sqlite3"])
    #expect(before.out == "/tmp/x.sqlite3\n")
    #expect(after.out == "/tmp/x.sqlite3\n")
  }

  @Test func doubleDashEndsOptions() throws {
    let result = sandbox.run("db", "backup", "--", "--weird-name")
    #expect(result.code == 66)  // the database does not exist yet, but the name parsed
  }

  @Test func suggestionsOnlyWhenClose() {
    let short = sandbox.run("db", "status", "-x")
    #expect(short.code == 64)
    #expect(short.err.hasPrefix("folio: error: unknown option '-x'\n"))
    let far = sandbox.run("zzzz")
    #expect(far.code == 64)
    #expect(far.err.hasPrefix("folio: error: unknown command 'zzzz'\n"))
    let prefix = sandbox.run("db", "stat")
    #expect(prefix.err.hasPrefix("folio: error: unknown command 'stat'; did you mean 'status'?\n"))
    #expect(
      Parser.unknownMessage("unknown option '--fromat'", "--fromat", candidates: ["--format"])
        == "unknown option '--fromat'; did you mean '--format'?")
    #expect(
      Parser.unknownMessage("unknown command 'zzz'", "zzz", candidates: ["db", "path"])
        == "unknown command 'zzz'")
  }

  @Test func helpInsideAGroupAndHelpForAnUnknownCommand() {
    let inGroup = sandbox.run("db", "help", "backup")
    #expect(inGroup.code == 0)
    #expect(inGroup.out == sandbox.run("db", "backup", "--help").out)
    let unknown = sandbox.run("help", "db", "stauts")
    #expect(unknown.code == 64)
    #expect(unknown.out.isEmpty)
    #expect(
      unknown.err.hasPrefix("folio: error: unknown command 'stauts'; did you mean 'status'?\n"))
  }

  @Test func wordsAfterTheTerminatorAreArgumentsEvenWhenTheyLookLikeOptions() throws {
    let invocation = try Parser.parse(["db", "backup", "--", "--db"], root: Root.spec)
    guard case .run(let command) = invocation.action else {
      Issue.record("expected a command to run")
      return
    }
    #expect((command as? DBBackup)?.destination == "--db")
    #expect(invocation.globals.database == nil)
    let before = try Parser.parse(["--db", "a.sqlite3", "db", "backup", "b"], root: Root.spec)
    #expect(before.globals.database == "a.sqlite3")
  }

  @Test func flagsRefuseAValueAndOptionsNeedOne() {
    let flag = sandbox.run("db", "path", "--help=yes")
    #expect(flag.code == 64)
    #expect(flag.err.hasPrefix("folio: error: '--help' takes no value\n"))
    let option = sandbox.run("db", "path", "--db")
    #expect(option.code == 64)
    #expect(option.err.hasPrefix("folio: error: missing value for '--db'\n"))
  }

  @Test func negativeNumbersAreArguments() {
    #expect(Parser.looksLikeNumber("-33.86"))
    #expect(!Parser.looksLikeNumber("--db"))
    #expect(!Parser.looksLikeNumber("-h"))
  }

  @Test func databasePathResolution() {
    let env = ["FOLIO_DB": ""]
    let xdg = sandbox.run(
      ["db", "path"], environment: env.merging(["XDG_DATA_HOME": "/data"]) { $1 })
    #expect(xdg.out == "/data/folio/folio.sqlite3\n")
    let home = sandbox.run(["db", "path"], environment: env.merging(["HOME": "/home/u"]) { $1 })
    #expect(home.out == "/home/u/.local/share/folio/folio.sqlite3\n")
    let fromEnv = sandbox.run(["db", "path"], environment: ["FOLIO_DB": "/e.sqlite3"])
    #expect(fromEnv.out == "/e.sqlite3\n")
  }

  @Test func badBusyTimeoutIsBadData() {
    let result = sandbox.run(["db", "path"], environment: ["FOLIO_BUSY_TIMEOUT_MS": "soon"])
    #expect(result.code == 65)
    #expect(result.err.contains("FOLIO_BUSY_TIMEOUT_MS is 'soon'"))
  }
}
