import FolioService

/// The result of parsing a command line: a command ready to run, or a request for help or
/// the version, plus the global options.
struct Invocation {
  enum Action {
    case run(any FolioCommand)
    case help(path: [String], spec: CommandSpec)
    /// A bare `folio`: the short overview of the commands.
    case overview
    case version
  }

  let action: Action
  let globals: GlobalOptions
  /// The command names from the root, such as ["folio", "tx", "list"].
  var path = ["folio"]
}

/// Options accepted before or after any command name.
struct GlobalOptions: Equatable {
  var database: String?
  var portfolio: String?
  /// `--color`: nil when not given (auto).
  var color: ColorChoice?

  /// When text output is coloured.
  enum ColorChoice: String, CaseIterable {
    /// On a terminal, unless NO_COLOR is set or TERM is dumb.
    case auto
    case always
    case never
  }

  static let specs: [OptionSpec] = [
    .value("db", "path", help: "The database file (default: $FOLIO_DB, else the XDG data folder)."),
    .value(
      "portfolio", "name",
      help: "The portfolio to work on (default: $FOLIO_PORTFOLIO, else 'main')."),
    .value(
      "color", "auto|always|never",
      help:
        "Colour gains and losses: auto (a terminal without NO_COLOR or TERM=dumb), always, never."),
  ]

  /// Sets global option `name`; given twice, or given an empty value, it is a usage error
  /// (an empty `--db` would otherwise fall back silently to the default database).
  mutating func set(_ name: String, _ value: String, path: [String]) throws {
    guard !value.isEmpty else {
      throw UsageError("'--\(name)' needs a value, not an empty string", commandPath: path)
    }
    let previous: String?
    switch name {
    case "db": (previous, database) = (database, value)
    case "portfolio": (previous, portfolio) = (portfolio, value)
    case "color":
      guard let choice = ColorChoice(rawValue: value.lowercased()) else {
        throw UsageError(
          "'--color' takes auto, always or never, not '\(FolioCLI.visible(value))'",
          commandPath: path)
      }
      (previous, color) = (color?.rawValue, choice)
    default: previous = nil
    }
    guard previous == nil else {
      throw UsageError("'--\(name)' was given more than once", commandPath: path)
    }
  }
}

/// Parses command lines against the command tree. A pure function of its input: it reads no
/// environment and writes nothing, so every usage error can be tested in-process.
enum Parser {
  static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")
  static let versionOption = OptionSpec.flag("version", help: "Show the version.")

  /// Parses `arguments` (without the program name) starting at `root`.
  static func parse(_ arguments: [String], root: CommandSpec) throws -> Invocation {
    var spec = root
    var values = ParsedValues(path: [root.name])
    var globals = GlobalOptions()
    var wantsHelp = false
    var wantsVersion = false
    var onlyArguments = false
    var index = 0

    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if onlyArguments || word == "-" || !word.hasPrefix("-") || looksLikeNumber(word)
        || looksLikeComment(word)
      {
        // A word in a group command names a subcommand, or `help`.
        if !onlyArguments && spec.hasSubcommands && values.arguments.isEmpty {
          if word == "help" && spec.subcommand("help") == nil {
            return try helpInvocation(
              for: Array(arguments[index...]), from: spec, path: values.path, globals: globals)
          }
          guard let sub = spec.subcommand(word) else {
            throw UsageError(
              unknownMessage(
                "unknown command '\(word)'", word, candidates: spec.subcommandNames),
              commandPath: values.path)
          }
          spec = sub
          values.path.append(word)
          continue
        }
        values.arguments.append(word)
        continue
      }
      if word == "--" {
        onlyArguments = true
        continue
      }
      let (name, inline) = split(word)
      let all = spec.options + GlobalOptions.specs + [helpOption, versionOption]
      let option: OptionSpec?
      if word.hasPrefix("--") {
        option = all.first { $0.name == name }
      } else {
        option = name.count == 1 ? all.first { $0.short.map(String.init) == name } : nil
      }
      guard let option else {
        let candidates = all.map { "--" + $0.name }
        throw UsageError(
          unknownMessage("unknown option '\(word)'", "--" + name, candidates: candidates),
          commandPath: values.path)
      }
      if option.isFlag {
        guard inline == nil else {
          throw UsageError("'--\(option.name)' takes no value", commandPath: values.path)
        }
        switch option.name {
        case "help": wantsHelp = true
        case "version": wantsVersion = true
        default: values.flags.insert(option.name)
        }
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard index < arguments.count else {
          throw UsageError("missing value for '--\(option.name)'", commandPath: values.path)
        }
        value = arguments[index]
        index += 1
      }
      if GlobalOptions.specs.contains(where: { $0.name == option.name }) {
        try globals.set(option.name, value, path: values.path)
      } else {
        values.options[option.name, default: []].append(value)
      }
    }

    if wantsHelp {
      return Invocation(action: .help(path: values.path, spec: spec), globals: globals)
    }
    if wantsVersion { return Invocation(action: .version, globals: globals) }
    if values.path.count == 1 && spec.make == nil && values.arguments.isEmpty {
      return Invocation(action: .overview, globals: globals)
    }
    guard let make = spec.make else {
      throw UsageError(
        "missing subcommand; choose one of: "
          + spec.subcommandNames.joined(separator: ", "),
        commandPath: values.path)
    }
    try checkArguments(values, spec: spec, given: values.options)
    for option in spec.options
    where !option.repeating && (values.options[option.name]?.count ?? 0) > 1 {
      throw UsageError("'--\(option.name)' was given more than once", commandPath: values.path)
    }
    return Invocation(action: .run(try make(values)), globals: globals, path: values.path)
  }

  /// `help [<command> ...]` at `path`: the help of the command the words name.
  private static func helpInvocation(
    for words: [String], from group: CommandSpec, path groupPath: [String],
    globals: GlobalOptions
  ) throws -> Invocation {
    var spec = group
    var path = groupPath
    for word in words {
      guard let sub = spec.subcommand(word) else {
        throw UsageError(
          unknownMessage(
            "unknown command '\(word)'", word, candidates: spec.subcommandNames),
          commandPath: path)
      }
      spec = sub
      path.append(word)
    }
    return Invocation(action: .help(path: path, spec: spec), globals: globals)
  }

  private static func checkArguments(
    _ values: ParsedValues, spec: CommandSpec, given: [String: [String]]
  ) throws {
    let required = spec.arguments.filter { !$0.optional }.count
    let unlimited = spec.arguments.last?.repeating == true
    if values.arguments.count < required {
      let missing = spec.arguments[values.arguments.count]
      throw UsageError("missing argument <\(missing.name)>", commandPath: values.path)
    }
    if !unlimited && values.arguments.count > spec.arguments.count {
      let extra = values.arguments[spec.arguments.count]
      var message = "unexpected argument '\(extra)'"
      // `buy bitcoin 0.5 40000`: the word is likely the value of a required option left out.
      let missing = spec.options.filter {
        !$0.isFlag && !$0.repeating && $0.value != nil && $0.value?.initial == nil
          && given[$0.name] == nil
      }
      if values.arguments.count == spec.arguments.count + 1, missing.count == 1,
        let option = missing.first, option.value?.parse(extra) != nil
      {
        message += "; did you mean '--\(option.name) \(extra)'?"
      }
      throw UsageError(message, commandPath: values.path)
    }
  }

  /// Splits `--name=value` into its parts; other words have no inline value.
  private static func split(_ word: String) -> (String, String?) {
    let body = word.drop { $0 == "-" }
    if word.hasPrefix("--"), let equals = body.firstIndex(of: "=") {
      return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }
    return (String(body), nil)
  }

  /// A word such as "-- note\nSELECT 1" is an argument (a statement that begins with an SQL
  /// comment), not an option: it starts with "--" and its would-be option name, up to the
  /// first "=", holds white space, which no option name does. A bare "--" still ends options.
  static func looksLikeComment(_ word: String) -> Bool {
    guard word.count > 2, word.hasPrefix("--") else { return false }
    return word.dropFirst(2).prefix { $0 != "=" }.contains { $0.isWhitespace }
  }

  /// A word such as "-33.86" is a negative number argument, not an option.
  static func looksLikeNumber(_ word: String) -> Bool {
    guard word.count > 1, word.hasPrefix("-") else { return false }
    return word.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
  }

  /// `message`, plus "did you mean …" when one candidate is close to `word`: at most one edit
  /// per three letters (at least one), or `word` is the start of it. Leading dashes do not
  /// count, so `-x` is not "close" to `--db`.
  static func unknownMessage(_ message: String, _ word: String, candidates: [String])
    -> String
  {
    func bare(_ text: String) -> String { String(text.drop { $0 == "-" }) }
    let typed = bare(word)
    guard !typed.isEmpty else { return message }
    let ranked = candidates.map { ($0, EditDistance.between(bare($0), typed)) }.min { $0.1 < $1.1 }
    let prefixed = candidates.filter { bare($0).hasPrefix(typed) }
    if let ranked, EditDistance.isTypo(ranked.1, length: typed.count) {
      return message + "; did you mean '\(ranked.0)'?"
    }
    if typed.count >= 2, prefixed.count == 1, let only = prefixed.first {
      return message + "; did you mean '\(only)'?"
    }
    return message
  }
}
