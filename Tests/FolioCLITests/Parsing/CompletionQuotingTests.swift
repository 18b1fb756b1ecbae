import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

/// What the completions insert is one shell word, quoted: names that would run a command,
/// split into several words or match files if pasted as they are, typed into real interactive
/// bash, zsh and fish on a pseudo-terminal (`script`), TAB, Enter. The line the shell then runs
/// must give the name as one argument, and nothing in it may run.
@Suite struct CompletionQuotingTests {
  let sandbox = Sandbox()

  /// Location names as a places file someone sent could hold them.
  static let places: [(name: String, city: String)] = [
    ("Bitcoin ATM $(touch PWNED)", "Lisbon"),
    ("`touch PWNED2`", "Oslo"),
    ("it's \"x\" *", "Rome"),
    ("Eiffel Tower", "Paris"),
    ("Glob [a]?*", "Bern"),
    ("Bang!x; touch PWNED3", "Nice"),
    ("~tilde", "Tokyo"),
    ("back\\slash", "Cairo"),
  ]

  /// What is typed after `args buy bitcoin 1 --location ` before TAB, and the argument the
  /// completed line must give.
  static let typed: [(String, String)] = [
    ("Bit", "Bitcoin ATM $(touch PWNED), Lisbon"),
    ("\"Bit", "Bitcoin ATM $(touch PWNED), Lisbon"),
    ("'Bit", "Bitcoin ATM $(touch PWNED), Lisbon"),
    ("\\`", "`touch PWNED2`, Oslo"),
    ("it", "it's \"x\" *, Rome"),
    ("'it", "it's \"x\" *, Rome"),
    ("\"it", "it's \"x\" *, Rome"),
    ("Eif", "Eiffel Tower, Paris"),
    ("\"Eif", "Eiffel Tower, Paris"),
    ("Eiffel\\ T", "Eiffel Tower, Paris"),
    ("Gl", "Glob [a]?*, Bern"),
    ("Ban", "Bang!x; touch PWNED3, Nice"),
    ("\"Ban", "Bang!x; touch PWNED3, Nice"),
    ("'Ban", "Bang!x; touch PWNED3, Nice"),
    ("\"Bang\"\"", "Bang!x; touch PWNED3, Nice"),
    ("\\~", "~tilde, Tokyo"),
    ("ba", "back\\slash, Cairo"),
    ("\"ba", "back\\slash, Cairo"),
  ]

  init() throws {
    for (index, place) in Self.places.enumerated() {
      let added = sandbox.run(
        "locations", "add", place.name, "--city", place.city, "--lat", "1", "--lon", "\(index)")
      #expect(added.code == 0, "\(added.err)")
    }
    _ = sandbox.write("completion-target.sqlite3", "")
  }

  /// Runs `shell` interactively on a pseudo-terminal in the sandbox: sources `setup`, which
  /// defines `args` (it records its arguments) with folio's completion, then types each of
  /// `lines`, a TAB and Enter. Returns the arguments of each run of `args`.
  func type(_ shell: String, setup: String, lines: [String]) throws -> [[String]] {
    guard let script = ExternalTool.script.path, let timeout = ExternalTool.timeout.path else {
      return []
    }
    let rc = sandbox.write("rc", setup)
    let keys = "source \(rc)\n" + lines.map { $0 + "\t\n" }.joined() + "exit\n"
    let folder = URL(fileURLWithPath: Binary.folioPath).deletingLastPathComponent().path
    let result = try Binary.runTool(
      timeout, ["60", script, "-qec", shell, "/dev/null"],
      environment: [
        "PATH": folder + ":/usr/bin:/bin", "FOLIO_DB": sandbox.database, "HOME": sandbox.path,
        "TERM": "xterm",
      ], stdin: keys, directory: sandbox.path)
    #expect(result.code == 0, "\(result.out)")
    let recorded = (try? String(contentsOfFile: sandbox.file("args.out"), encoding: .utf8)) ?? ""
    var runs: [[String]] = []
    var run: [String] = []
    for line in recorded.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      if line == "<end>" {
        runs.append(run)
        run = []
      } else {
        run.append(String(line))
      }
    }
    return runs
  }

  /// Types every line of `typed` (and `extra`) into `shell`; checks each run of `args` got the
  /// intended words and that no name ran.
  func check(_ shell: String, setup: String, extra: [(String, [String])] = []) throws {
    let cases =
      Self.typed.map {
        ("args buy bitcoin 1 --location " + $0.0, ["buy", "bitcoin", "1", "--location", $0.1])
      }
      + extra
    let runs = try type(shell, setup: setup, lines: cases.map(\.0))
    #expect(runs.count == cases.count, "\(runs)")
    for (run, (line, expected)) in zip(runs, cases) {
      #expect(run == expected, "\(shell): \(line)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path)
    #expect(!files.contains { $0.hasPrefix("PWNED") }, "\(shell) ran a name: \(files)")
  }

  /// Lines every shell completes the same way beyond location names.
  static let common: [(String, [String])] = [
    // A coin's symbol completes as well as its id; --option=VALUE completes as one word.
    ("args buy btc", ["buy", "btc"]),
    (
      "args buy bitcoin 1 --location=Eif",
      ["buy", "bitcoin", "1", "--location=Eiffel Tower, Paris"]
    ),
  ]

  /// Lines bash and zsh complete alike: a backquote escaped inside "…" (fish reads no
  /// backslash there), and a file name after --db= (fish offers no file names).
  static let posix: [(String, [String])] = [
    (
      "args buy bitcoin 1 --location \"\\`",
      ["buy", "bitcoin", "1", "--location", "`touch PWNED2`, Oslo"]
    ),
    ("args --db=completion-t", ["--db=completion-target.sqlite3"]),
  ]

  /// zsh completes no word whose open quote follows a closed one and a backslash.
  static let bashOnly: [(String, [String])] = [
    (
      "args buy bitcoin 1 --location 'it'\\''",
      ["buy", "bitcoin", "1", "--location", "it's \"x\" *, Rome"]
    )
  ]

  @Test(.requires(.bash), .requires(.script), .requires(.timeout))
  func bashInsertsOneQuotedWord() throws {
    try check(
      "bash --norc --noprofile -i",
      setup: """
        PS1='$ '
        source <(folio completions bash)
        args() { printf '%s\\n' "$@" '<end>' >> args.out; }
        complete -o default -F _folio args

        """,
      extra: Self.common + Self.posix + Self.bashOnly)
  }

  @Test(.requires(.zsh), .requires(.script), .requires(.timeout))
  func zshInsertsOneQuotedWord() throws {
    try check(
      "zsh -f -i",
      setup: """
        PS1='$ '
        autoload -Uz compinit && compinit -u -D
        source <(folio completions zsh)
        args() { printf '%s\\n' "$@" '<end>' >> args.out }
        compdef _folio args

        """,
      extra: Self.common + Self.posix)
  }

  @Test(.requires(.fish), .requires(.script), .requires(.timeout))
  func fishInsertsOneQuotedWord() throws {
    try check(
      "fish --no-config -i",
      setup: """
        folio completions fish | source
        function args; printf '%s\\n' $argv '<end>' >> args.out; end
        complete -c args -w folio

        """,
      extra: Self.common)
  }

  /// What `folio __complete-bash` replies, as bash's completion function reads it.
  @Test func bashRepliesAreQuotedForTheWordUnderTheCursor() {
    func replies(_ text: String, _ line: String) -> [String] {
      let result = sandbox.run(BashCompletion.command, text, line)
      return result.out.split(separator: "\n").map(String.init)
    }
    let prefix = "folio buy bitcoin 1 --location "
    #expect(replies("Bit", prefix + "Bit") == ["Bitcoin\\ ATM\\ \\$\\(touch\\ PWNED\\),\\ Lisbon"])
    #expect(replies("Bit", prefix + "\"Bit") == ["Bitcoin ATM \\$(touch PWNED), Lisbon\""])
    #expect(replies("it", prefix + "'it") == ["it'\\''s \"x\" *, Rome'"])
    #expect(replies("Ban", prefix + "\"Ban") == ["Bang\"\\!\"x; touch PWNED3, Nice\""])
    #expect(replies("Eif", "folio buy bitcoin 1 --location=Eif") == ["Eiffel\\ Tower,\\ Paris"])
    #expect(replies("", prefix + "'it'\\''") == ["s \"x\" *, Rome'"])
    // readline drops a first character that is the quote just opened: it gets one to drop.
    #expect(replies("", prefix + "\"Bang\"\"") == ["\"\"\\!\"x; touch PWNED3, Nice\""])
    // Several replies: no closing quote (readline inserts what they share, and lists them).
    #expect(replies("", prefix + "\"").count == Self.places.count)
    #expect(replies("", prefix + "\"").allSatisfy { !$0.hasSuffix("\"") })
    // A word holding an expansion is not completed (its value is known only when it runs).
    #expect(replies("$HOME", prefix + "\"$HOME").isEmpty)
    #expect(replies("B", prefix + "$(x)B").isEmpty)
  }

  @Test func bashReadsTheLineAsBashDoes() {
    let line = BashCompletion.read("folio 'a b'\\ c \"d\\\"e\" --x=\"f")
    #expect(line.words == ["folio", "a b c", "d\"e"])
    #expect(line.raw == "--x=\"f")
    #expect(line.value == "--x=f")
    #expect(line.quote == .double)
    #expect(BashCompletion.read("folio ab\\").pendingEscape)
    #expect(BashCompletion.read("folio a ").value == "")
    #expect(BashCompletion.read("folio a ").words == ["folio", "a"])
    #expect(BashCompletion.read("folio ''").words == ["folio"])
    #expect(BashCompletion.read("folio '' ").words == ["folio", ""])
  }

  /// A name holding a newline or another control character is never offered: a shell reads
  /// the candidates one a line.
  @Test func noCandidateHoldsAControlCharacter() {
    let found = Completion.candidates(["locations", "show", ""], root: Root.spec) { _, _ in
      ["Line\nbreak, Kyiv", "Tab\there, Riga", "Esc\u{1B}[31m, Red", "Fine, Oslo", ""]
    }
    #expect(found == ["Fine, Oslo"])
  }
}
