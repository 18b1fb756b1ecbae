/// A named option of a command: a flag (no value) or an option with a value.
struct OptionSpec: Sendable {
  /// The long name without dashes, such as "db".
  var name: String
  /// A one-letter alias, such as "h".
  let short: Character?
  /// The placeholder shown in help for the value; nil for a flag.
  var valueName: String?
  /// One line for the help text.
  let help: String
  /// True when the option may be given more than once (each value is kept).
  let repeating: Bool
  /// The declaring property's name; nil for the global options, help and version.
  var key: String? = nil
  /// How a declared option's value is read; nil for a flag.
  var value: ValueSpec? = nil

  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help, repeating: false)
  }

  static func value(
    _ name: String, _ valueName: String, short: Character? = nil, repeating: Bool = false,
    help: String
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: valueName, help: help, repeating: repeating)
  }

  var isFlag: Bool { valueName == nil }

  /// How the option appears in help and usage lines: `--db <path>`.
  var synopsis: String {
    let long = "--\(name)" + (valueName.map { " <\($0)>" } ?? "")
    return short.map { "-\($0), \(long)" } ?? long
  }
}

/// A positional argument of a command.
struct ArgumentSpec: Sendable {
  var name: String
  let help: String
  var optional = false
  var repeating = false
  /// The declaring property's name.
  var key: String? = nil
  /// How the argument's words are read.
  var value: ValueSpec? = nil

  var synopsis: String {
    let base = "<\(name)>" + (repeating ? " ..." : "")
    return optional ? "[\(base)]" : base
  }
}

/// Everything the parser and the help text need to know about one command.
struct CommandSpec: Sendable {
  let name: String
  let abstract: String
  var discussion: String? = nil
  /// The help of the global `--portfolio` for this command, when it differs.
  var portfolioHelp: String? = nil
  var arguments: [ArgumentSpec] = []
  var options: [OptionSpec] = []
  /// The direct subcommands' types. Their specs are derived when asked for, so a command line
  /// derives only the specs on its path: each derivation reflects over a command's properties,
  /// and deriving the whole tree took half of a small command's time.
  var subcommandTypes: [any ParsableCommand.Type] = []
  /// Builds the command from parsed values; nil for a group that only holds subcommands.
  var make: (@Sendable (ParsedValues) throws -> any FolioCommand)? = nil

  var hasSubcommands: Bool { !subcommandTypes.isEmpty }

  /// The direct subcommands' names, in order.
  var subcommandNames: [String] { subcommandTypes.map { $0.configuration.name } }

  /// The direct subcommands' specs, in order.
  var subcommands: [CommandSpec] { subcommandTypes.map { $0.spec } }

  /// The direct subcommand called `name`.
  func subcommand(_ name: String) -> CommandSpec? {
    subcommandTypes.first { $0.configuration.name == name }?.spec
  }
}

/// The values found on the command line for one command.
struct ParsedValues {
  /// The command names from the root, such as ["folio", "db", "status"].
  var path: [String]
  /// Positional arguments in order.
  var arguments: [String] = []
  /// Option values by long name, in the order given.
  var options: [String: [String]] = [:]
  /// Flags that were given.
  var flags: Set<String> = []

}

/// A command line that does not fit the command's usage (exit 64).
struct UsageError: Error, Equatable {
  let message: String
  /// The command whose usage line and help the message points to.
  let commandPath: [String]

  init(_ message: String, commandPath: [String]) {
    self.message = message
    self.commandPath = commandPath
  }
}
