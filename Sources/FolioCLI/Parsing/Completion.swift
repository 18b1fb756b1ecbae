import FolioService
import FolioStorage
import Foundation

/// Shell completion, worked out from the command declarations (`Root.spec`): the shells'
/// scripts (`folio completions bash|zsh|fish`) are thin wrappers that run
/// `folio __complete WORD...` with the words typed so far, the last being the word under the
/// cursor, and offer the lines it prints.
enum Completion {
  /// What the value of an option or argument can be completed from.
  enum Source: Equatable {
    case portfolios
    case coins
    case locations
    /// A fixed set of choices (`--format text|json`).
    case choices([String])
    /// Anything (a file name, a number): the shell's own completion.
    case none
  }

  /// The hidden first word that asks for candidates instead of running a command.
  static let command = "__complete"

  /// The candidates for the last of `words` (the words after `folio`), read from `root`;
  /// `lookup` gives the names a source holds in the database the words name (`--db`).
  static func candidates(
    _ words: [String], root: CommandSpec, lookup: (Source, _ database: String?) -> [String]
  ) -> [String] {
    let current = words.last ?? ""
    var spec = root
    var path = [root.name]
    var positional = 0
    var pending: OptionSpec?
    var database: String?
    var onlyArguments = false
    for word in words.dropLast() {
      if let option = pending {
        if option.name == "db" { database = word }
        pending = nil
        continue
      }
      if !onlyArguments && word == "--" {
        onlyArguments = true
        continue
      }
      if !onlyArguments && word.hasPrefix("-") && !Parser.looksLikeNumber(word) && word != "-" {
        let name = String(word.drop { $0 == "-" }.prefix { $0 != "=" })
        if let option = options(of: spec).first(where: { $0.name == name }), !option.isFlag,
          !word.contains("=")
        {
          pending = option
        }
        if name == "db", let equals = word.firstIndex(of: "=") {
          database = String(word[word.index(after: equals)...])
        }
        continue
      }
      if positional == 0, !onlyArguments, let sub = spec.subcommand(word) {
        spec = sub
        path.append(word)
        continue
      }
      positional += 1
    }
    let found: [String]
    if let option = pending {
      found = values(source(of: option, path: path), database: database, lookup: lookup)
    } else if current.hasPrefix("--") && !onlyArguments, let equals = current.firstIndex(of: "=") {
      // --option=VALUE: the option's values, after its name; none (the shell's file names) for
      // an option of no known values, such as --db.
      let name = String(current[current.index(current.startIndex, offsetBy: 2)..<equals])
      let head = String(current[...equals])
      if let option = options(of: spec).first(where: { $0.name == name }), !option.isFlag {
        found = values(source(of: option, path: path), database: database, lookup: lookup)
          .map { head + $0 }
      } else {
        found = []
      }
    } else if current.hasPrefix("-") && !onlyArguments {
      found = options(of: spec).map { "--" + $0.name }
    } else if positional == 0 && spec.hasSubcommands {
      found = spec.subcommandNames
    } else if let argument = argument(of: spec, at: positional) {
      found = values(source(of: argument, path: path), database: database, lookup: lookup)
    } else {
      found = []
    }
    return found.filter { $0.hasPrefix(current) && offerable($0) }
  }

  /// Whether a candidate can be offered: one line of text, holding no control character (a
  /// newline, a tab, an escape…). The shells read the candidates one a line, and such a name
  /// could be neither listed nor inserted as it is: whatever the database holds, it is never
  /// offered (type it quoted by hand).
  static func offerable(_ candidate: String) -> Bool {
    !candidate.isEmpty
      && !candidate.unicodeScalars.contains {
        switch $0.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
      }
  }

  /// Every option a command accepts: its own, the global ones and --help.
  static func options(of spec: CommandSpec) -> [OptionSpec] {
    spec.options + GlobalOptions.specs + [Parser.helpOption]
  }

  /// The argument at `index`; the last one when it takes every remaining word.
  static func argument(of spec: CommandSpec, at index: Int) -> ArgumentSpec? {
    if index < spec.arguments.count { return spec.arguments[index] }
    return spec.arguments.last?.repeating == true ? spec.arguments.last : nil
  }

  /// Where an option's values come from: its name says a portfolio, a coin or a location;
  /// else its placeholder lists the choices (`text|json`).
  static func source(of option: OptionSpec, path: [String]) -> Source {
    source(name: option.name, placeholder: option.valueName, path: path)
  }

  static func source(of argument: ArgumentSpec, path: [String]) -> Source {
    source(name: argument.name, placeholder: argument.value?.placeholder, path: path)
  }

  private static func source(name: String, placeholder: String?, path: [String]) -> Source {
    switch name {
    case "portfolio": return .portfolios
    case "coin", "from", "into": return .coins
    case "location": return .locations
    default: break
    }
    if ["name", "old"].contains(name) && path.count == 3 && path[1] == "portfolio" {
      return .portfolios
    }
    guard let placeholder, placeholder.contains("|"),
      placeholder.allSatisfy({ $0.isLetter || $0.isNumber || "|-_".contains($0) })
    else { return .none }
    return .choices(placeholder.split(separator: "|").map(String.init))
  }

  private static func values(
    _ source: Source, database: String?, lookup: (Source, String?) -> [String]
  ) -> [String] {
    if case .choices(let choices) = source { return choices }
    return source == .none ? [] : lookup(source, database)
  }

  /// The names `source` holds in the database at `database` (`--db`, else the environment's),
  /// read-only; none when there is no database or it cannot be read.
  static func names(
    _ source: Source, database: String?, environment: [String: String]
  ) -> [String] {
    guard let location = try? StoreLocation.resolve(option: database, environment: environment),
      let store = try? Store(readOnly: location)
    else { return [] }
    switch source {
    case .portfolios:
      return (try? PortfolioService(store).list().map(\.portfolio.name)) ?? []
    case .coins:
      return (try? CoinDirectory(store).idsAndSymbols()) ?? []
    case .locations:
      return (try? LocationBook(store).list().map { "\($0.name), \($0.city)" }) ?? []
    case .choices, .none:
      return []
    }
  }
}
