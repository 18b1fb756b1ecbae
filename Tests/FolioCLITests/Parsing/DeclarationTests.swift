import FolioStorage
import Foundation
import Testing

@testable import FolioCLI

/// Options declared once, as properties: the spec the parser and the help read is derived from
/// the declarations, and the parsed values are decoded into them.
@Suite struct DeclarationTests {
  /// Every command type of the tree, with its path from the root.
  func commands(
    _ type: any ParsableCommand.Type = Root.self, path: [String] = ["folio"]
  ) -> [(path: [String], type: any ParsableCommand.Type)] {
    [(path, type)]
      + type.configuration.subcommands.flatMap {
        commands($0, path: path + [$0.configuration.name])
      }
  }

  @Test func noCommandDeclaresANameTwice() {
    for (path, type) in commands() {
      let spec = type.spec
      let options = spec.options + GlobalOptions.specs + [Parser.helpOption, Parser.versionOption]
      let names = options.map(\.name)
      #expect(Set(names).count == names.count, "\(path): \(names)")
      let shorts = options.compactMap(\.short)
      #expect(Set(shorts).count == shorts.count, "\(path)")
      let arguments = spec.arguments.map(\.name)
      #expect(Set(arguments).count == arguments.count, "\(path)")
      let keys = (spec.options.compactMap(\.key) + spec.arguments.compactMap(\.key))
      #expect(Set(keys).count == keys.count, "\(path): \(keys)")
      let subcommands = spec.subcommands.map(\.name)
      #expect(Set(subcommands).count == subcommands.count, "\(path)")
    }
  }

  /// The rows of `section` ("OPTIONS", "ARGUMENTS") of a help text: the text before the help.
  func rows(_ section: String, of help: String) -> [String] {
    guard let body = help.components(separatedBy: "\n\(section):\n").dropFirst().first else {
      return []
    }
    return body.components(separatedBy: "\n\n")[0].split(separator: "\n")
      .filter { $0.hasPrefix("  ") && !$0.hasPrefix("     ") }
      .map { String($0.dropFirst(2).prefix { $0 != " " }) }
  }

  @Test func helpListsExactlyWhatEachCommandDeclares() throws {
    let sandbox = Sandbox()
    for (path, type) in commands() {
      var declared: [String] = []
      if let command = type as? any FolioCommand.Type {
        declared = properties(of: command.init())
      }
      let spec = type.spec
      let keys = spec.options.compactMap(\.key) + spec.arguments.compactMap(\.key)
      #expect(keys.sorted() == declared.sorted(), "\(path)")
      let help = sandbox.run(Array(path.dropFirst()) + ["--help"]).out
      let globals =
        ["--db", "--portfolio", "--color", "-h,"] + (path.count == 1 ? ["--version"] : [])
      #expect(
        rows("OPTIONS", of: help) == spec.options.map { "--\($0.name)" } + globals, "\(path)")
      #expect(rows("ARGUMENTS", of: help) == spec.arguments.map { "<\($0.name)>" }, "\(path)")
    }
  }

  /// The names of the properties declared with `@Option`, `@Flag` or `@Argument`, also inside
  /// `@OptionGroup`s, found by the wrappers' type names.
  func properties(of value: Any) -> [String] {
    Mirror(reflecting: value).children.flatMap { child -> [String] in
      let wrapper = String(describing: type(of: child.value))
      guard let label = child.label else { return [] }
      if wrapper.hasPrefix("OptionGroup<"),
        let group = Mirror(reflecting: child.value).children.first?.value
      {
        return properties(of: group)
      }
      let declared = ["Option<", "Flag", "Argument<"].contains { wrapper.hasPrefix($0) }
      return declared ? [String(label.dropFirst())] : []
    }
  }

  // MARK: - The mechanism, on a command of its own

  struct Shared: ParsableArguments {
    @Option(help: "Shared.") var maxAge: TimeInterval = 60
    @Flag(help: "A flag.") var strict: Bool
  }

  struct Sample: FolioCommand {
    static let configuration = CommandConfiguration(name: "sample", abstract: "A sample.")

    enum Format: String, OutputFormat { case text, json }

    @Argument(help: "Required.") var first: String
    @Argument(help: "Optional.") var second: Limit?
    @Option(name: "vs", valueName: "code", help: "Renamed.") var currency = "usd"
    @Option(help: "Optional.") var limit: Limit?
    @Option(help: "Required.") var method: CostMethod
    @Option(help: "Repeats.") var image: [String]
    @Option var format = Format.text
    @OptionGroup var shared: Shared

    func validate() throws {
      if first == second.map({ String($0.value) }) { throw ValidationError("first equals second") }
    }

    func run(_ context: Context) throws {}
  }

  func parse(_ words: String...) throws -> Sample {
    let invocation = try Parser.parse(words, root: Sample.spec)
    guard case .run(let command) = invocation.action, let sample = command as? Sample else {
      throw UsageError("not a sample", commandPath: [])
    }
    return sample
  }

  func usageError(_ words: String...) -> String? {
    do {
      _ = try Parser.parse(words, root: Sample.spec)
      return nil
    } catch {
      return (error as? UsageError)?.message
    }
  }

  @Test func namesPlaceholdersAndDefaultsComeFromTheDeclarations() {
    let spec = Sample.spec
    #expect(
      spec.options.map(\.synopsis) == [
        "--vs <code>", "--limit <n>", "--method <fifo|lifo|hifo|average>", "--image <image>",
        "--format <text|json>", "--max-age <duration>", "--strict",
      ])
    #expect(spec.arguments.map(\.synopsis) == ["<first>", "[<second>]"])
    #expect(spec.options.first { $0.name == "image" }?.repeating == true)
    #expect(spec.options.first { $0.name == "format" }?.help == "Output format (default: text).")
  }

  @Test func valuesAreDecodedIntoTheDeclaredProperties() throws {
    let defaults = try parse("a", "--method", "lifo")
    #expect(defaults.first == "a")
    #expect(defaults.second == nil)
    #expect(defaults.currency == "usd")
    #expect(defaults.limit == nil)
    #expect(defaults.method == .lifo)
    #expect(defaults.image == [])
    #expect(defaults.format == .text)
    #expect(defaults.shared.maxAge == 60)
    #expect(!defaults.shared.strict)
    let given = try parse(
      "a", "7", "--vs", "eur", "--limit", "3", "--method=hifo", "--image", "x", "--image", "y",
      "--format", "json", "--max-age", "2h", "--strict")
    #expect(given.second?.value == 7)
    #expect(given.currency == "eur")
    #expect(given.limit?.value == 3)
    #expect(given.method == .hifo)
    #expect(given.image == ["x", "y"])
    #expect(given.format == .json)
    #expect(given.shared.maxAge == 7_200)
    #expect(given.shared.strict)
  }

  @Test func badMissingAndInvalidValuesAreUsageErrors() {
    #expect(usageError("a") == "missing option '--method <fifo|lifo|hifo|average>'")
    #expect(
      usageError("a", "--method", "x")
        == "invalid value 'x' for --method: expected fifo, lifo, hifo or average")
    #expect(
      usageError("a", "--method", "fifo", "--limit", "0")
        == "invalid value '0' for --limit: expected a whole number of at least 1")
    #expect(
      usageError("a", "b", "--method", "fifo")
        == "invalid value 'b' for <second>: expected a whole number of at least 1")
    #expect(
      usageError("a", "--method", "fifo", "--max-age", "soon")
        == "invalid value 'soon' for --max-age: expected a duration such as 30m, 24h or 7d")
    #expect(usageError("1", "1", "--method", "fifo") == "first equals second")
    #expect(usageError("a", "--method", "fifo", "--vs", "a", "--vs", "b") != nil)
  }
}
