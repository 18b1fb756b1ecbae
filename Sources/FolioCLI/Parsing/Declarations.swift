import FolioService
import FolioStorage
import Foundation

// Each option is declared once, as a property (swift-argument-parser's design): its name (the
// property's, in kebab-case, unless given), placeholder, default, help and the values it
// allows (its type's `ExpressibleByArgument` conformance). The command's `CommandSpec`, which
// the parser, the help and did-you-mean read, is derived from a default instance with
// `Mirror`, and the parsed values are filled into a new instance the same way, so a misspelt
// name is a compile error, not a silent nil.

/// A command or a group of commands, registered in its parent by type.
protocol ParsableCommand: SendableMetatype {
  static var configuration: CommandConfiguration { get }
  /// Adds the command's options, arguments and constructor to `spec`: nothing for a group
  /// that only holds subcommands, its declarations for a `FolioCommand`.
  static func declare(into spec: inout CommandSpec)
}

extension ParsableCommand {
  static func declare(into spec: inout CommandSpec) {}
}

/// A command's name, help and subcommands; its options are its declared properties.
struct CommandConfiguration: Sendable {
  var name: String
  var abstract: String
  var discussion: String? = nil
  var subcommands: [any ParsableCommand.Type] = []
  /// True for a command that writes records and so may create the database when there is
  /// none. Every other command needs an existing database: a mistyped `--db` gets
  /// "no database at PATH" (66) and nothing is created.
  var createsDatabase = false
  /// What the global `--portfolio` means for this command, when not the portfolio to work on
  /// (a command over every portfolio unless one is named).
  var portfolioHelp: String? = nil
}

/// Declared options and arguments: a command's, or a group several commands share
/// (`@OptionGroup`).
protocol ParsableArguments {
  init()
  /// Checks that span several options; a `ValidationError` is a usage error (exit 64).
  func validate() throws
}

extension ParsableArguments {
  func validate() throws {}
}

/// A command that runs: it maps its options into a service call and renders the result.
protocol FolioCommand: ParsableCommand, ParsableArguments {
  /// True when this invocation may create the database (its configuration's, by default).
  var createsDatabase: Bool { get }
  func run(_ context: Context) throws
}

extension FolioCommand {
  var createsDatabase: Bool { Self.configuration.createsDatabase }
}

/// A problem found by `validate()`; reported as a usage error of the command.
struct ValidationError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// A value read from one word of the command line.
protocol ExpressibleByArgument: Sendable {
  init?(argument: String)
  /// What a valid value looks like, for "invalid value 'x' for --name: expected …".
  static var expected: String { get }
  /// The placeholder in help (`<buy|sell>`); nil uses the option's name.
  static var placeholder: String? { get }
  /// The message for `text`, which is not a valid value of the option or argument `name`.
  static func invalid(_ text: String, for name: String) -> String
}

extension ExpressibleByArgument {
  static var placeholder: String? { nil }
  static func invalid(_ text: String, for name: String) -> String {
    "invalid value '\(text)' for \(name): expected \(expected)"
  }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable<String> {
  /// Any case of the letters: `--method FIFO` is `--method fifo`.
  init?(argument: String) {
    let typed = argument.lowercased()
    guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == typed }) else {
      return nil
    }
    self = value
  }
  static var expected: String { allCases.map(\.rawValue).joined(separator: ", ") }
  static var placeholder: String? { allCases.map(\.rawValue).joined(separator: "|") }
}

/// The formats a command offers with `--format`: each command has its own enum, so a `switch`
/// over it needs no `default:`. The first case is the default.
protocol OutputFormat: ExpressibleByArgument, CaseIterable, RawRepresentable<String> {}

extension String: ExpressibleByArgument {
  init?(argument: String) { self = argument }
  static var expected: String { "text" }
}

/// A duration such as 90m, 24h or 7d, in seconds.
extension TimeInterval: ExpressibleByArgument {
  init?(argument: String) {
    guard let seconds = MarketTime.parseDuration(argument) else { return nil }
    self = seconds
  }
  static var expected: String { "a duration such as 30m, 24h or 7d" }
  static var placeholder: String? { "duration" }
}

extension CalendarDay: ExpressibleByArgument {
  init?(argument: String) { self.init(argument) }
  static var expected: String { CalendarDay.expected(example: "2024-11-30") }
  static var placeholder: String? { "yyyy-mm-dd" }
}

extension CostMethod: ExpressibleByArgument {
  static var expected: String { "fifo, lifo, hifo or average" }
}

extension TradeSide: ExpressibleByArgument {
  static var expected: String { "buy or sell" }
}

extension CoinSort: ExpressibleByArgument {}

/// An IANA time zone name such as Europe/Berlin (or UTC).
extension TimeZone: ExpressibleByArgument {
  init?(argument: String) { self.init(identifier: argument) }
  static var expected: String { "an IANA time zone name such as Europe/Berlin or UTC" }
  static var placeholder: String? { "tz" }
}

// MARK: - Property wrappers

/// How the parser turns the words given for one option or argument into its value.
struct ValueSpec: Sendable {
  /// The value when none is given; nil when one must be given.
  var initial: (any Sendable)?
  /// True when every word given is kept (the value is an array).
  var repeating = false
  let placeholder: String?
  let parse: @Sendable (String) -> (any Sendable)?
  let invalid: @Sendable (_ text: String, _ name: String) -> String

  init<T: ExpressibleByArgument>(_ type: T.Type, initial: (any Sendable)?, repeating: Bool = false)
  {
    self.initial = initial
    self.repeating = repeating
    placeholder = T.placeholder
    parse = { T(argument: $0) }
    invalid = { T.invalid($0, for: $1) }
  }

  /// The value of `words` (all given for it), or the default; throws a usage error naming
  /// `name` for a bad word, or `missing` when a required value is not given.
  func value(of words: [String], name: String, missing: String, path: [String]) throws
    -> any Sendable
  {
    let converted = try words.suffix(repeating ? words.count : 1).map { word in
      guard let value = parse(word) else {
        throw UsageError(invalid(word, name), commandPath: path)
      }
      return value
    }
    if repeating { return converted }
    guard let value = converted.first ?? initial else {
      throw UsageError(missing, commandPath: path)
    }
    return value
  }
}

/// A property wrapper that declares an option, a flag, an argument or a group of them.
protocol Declaration {
  /// Adds the declaration of the property `key` to `spec`.
  func declare(key: String, into spec: inout CommandSpec)
  /// Sets the property `key` to its value in `values`, which the parser converted.
  func fill(key: String, from values: [String: any Sendable]) throws
}

extension ParsableArguments {
  /// Calls `body` with each declaring property's name and wrapper, in order.
  func forEachDeclaration(_ body: (String, any Declaration) throws -> Void) rethrows {
    for child in Mirror(reflecting: self).children {
      guard let label = child.label, let declaration = child.value as? any Declaration else {
        continue
      }
      try body(String(label.dropFirst()), declaration)
    }
  }
}

/// Where a declared property's value is kept. A reference, so the parser can fill in the
/// wrappers of a new instance, which it reaches through `Mirror`.
final class Slot<Value> {
  var value: Value?
  init(_ value: Value?) { self.value = value }

  /// The value; reading a required one before the parser filled it in is a programming
  /// error (the parser fills in every required value or refuses the command line).
  func get(_ name: String?) -> Value {
    guard let value else { preconditionFailure("'\(name ?? "")' was read before parsing") }
    return value
  }

  /// Takes the value the parser converted for the property.
  func fill(_ value: (any Sendable)?) {
    if let value, let value = value as? Value { self.value = value }
  }
}

/// "maxAge" as an option name: "max-age".
private func kebab(_ name: String) -> String {
  name.reduce(into: "") { text, letter in
    if letter.isUppercase { text += "-" }
    text += letter.lowercased()
  }
}

/// `--name <value>`: an option with a value. Its type says what is allowed; a non-optional
/// option without a default is required.
@propertyWrapper struct Option<Value: Sendable>: Declaration {
  private let slot: Slot<Value>
  private let spec: OptionSpec

  var wrappedValue: Value { slot.get(spec.name) }

  private init(
    _ value: Value?, _ name: String, _ valueName: String?, _ help: String, _ spec: ValueSpec
  ) {
    slot = Slot(value)
    self.spec = OptionSpec(
      name: name, short: nil, valueName: valueName ?? spec.placeholder, help: help,
      repeating: spec.repeating, value: spec)
  }

  func declare(key: String, into spec: inout CommandSpec) {
    var option = self.spec
    if option.name.isEmpty { option.name = kebab(key) }
    option.valueName = option.valueName ?? option.name
    option.key = key
    spec.options.append(option)
  }

  func fill(key: String, from values: [String: any Sendable]) { slot.fill(values[key]) }
}

extension Option where Value: ExpressibleByArgument {
  /// An option with a default: `@Option(help: "…") var pages = 1`.
  init(wrappedValue: Value, name: String = "", valueName: String? = nil, help: String) {
    self.init(wrappedValue, name, valueName, help, ValueSpec(Value.self, initial: wrappedValue))
  }

  /// A required option.
  init(name: String = "", valueName: String? = nil, help: String) {
    self.init(nil, name, valueName, help, ValueSpec(Value.self, initial: nil))
  }
}

extension Option where Value: OutputFormat {
  /// `--format`, offering the cases of the command's `Format` enum.
  init(wrappedValue: Value) {
    self.init(
      wrappedValue: wrappedValue, help: "Output format (default: \(wrappedValue.rawValue)).")
  }
}

extension Option {
  /// An option that may be left out (nil).
  init<Wrapped: ExpressibleByArgument>(name: String = "", valueName: String? = nil, help: String)
  where Value == Wrapped? {
    self.init(
      nil, name, valueName, help, ValueSpec(Wrapped.self, initial: Wrapped?.none as any Sendable))
  }

  /// An option that may be given several times; every value is kept, in order.
  init<Element: ExpressibleByArgument>(
    name: String = "", valueName: String? = nil, help: String
  ) where Value == [Element] {
    self.init([], name, valueName, help, ValueSpec(Element.self, initial: nil, repeating: true))
  }
}

/// `--name`: a flag, true when given.
@propertyWrapper struct Flag: Declaration {
  private let slot = Slot(false)
  private let spec: OptionSpec

  var wrappedValue: Bool { slot.get(spec.name) }

  init(name: String = "", help: String) { spec = .flag(name, help: help) }

  func declare(key: String, into spec: inout CommandSpec) {
    var flag = self.spec
    if flag.name.isEmpty { flag.name = kebab(key) }
    flag.key = key
    spec.options.append(flag)
  }

  func fill(key: String, from values: [String: any Sendable]) { slot.fill(values[key]) }
}

/// `<name>`: a positional argument. Optional when its type is, and a last array argument
/// takes every remaining word.
@propertyWrapper struct Argument<Value: Sendable>: Declaration {
  private let slot = Slot<Value>(nil)
  private let spec: ArgumentSpec

  var wrappedValue: Value { slot.get(spec.name) }

  private init(_ name: String, _ help: String, optional: Bool = false, _ spec: ValueSpec) {
    self.spec = ArgumentSpec(
      name: name, help: help, optional: optional, repeating: spec.repeating, value: spec)
  }

  func declare(key: String, into spec: inout CommandSpec) {
    var argument = self.spec
    if argument.name.isEmpty { argument.name = kebab(key) }
    argument.key = key
    spec.arguments.append(argument)
  }

  func fill(key: String, from values: [String: any Sendable]) { slot.fill(values[key]) }
}

extension Argument where Value: ExpressibleByArgument {
  /// A required argument.
  init(name: String = "", help: String) {
    self.init(name, help, ValueSpec(Value.self, initial: nil))
  }
}

extension Argument {
  /// An argument that may be left out (nil).
  init<Wrapped: ExpressibleByArgument>(name: String = "", help: String) where Value == Wrapped? {
    self.init(
      name, help, optional: true, ValueSpec(Wrapped.self, initial: Wrapped?.none as any Sendable))
  }

  /// The last argument, taking one word or more.
  init<Element: ExpressibleByArgument>(name: String = "", help: String) where Value == [Element] {
    self.init(name, help, ValueSpec(Element.self, initial: nil, repeating: true))
  }
}

/// Options several commands share, declared once in a `ParsableArguments` type.
@propertyWrapper struct OptionGroup<Value: ParsableArguments>: Declaration {
  let wrappedValue = Value()

  init() {}

  func declare(key: String, into spec: inout CommandSpec) {
    wrappedValue.forEachDeclaration { $1.declare(key: $0, into: &spec) }
  }

  func fill(key: String, from values: [String: any Sendable]) throws {
    try wrappedValue.forEachDeclaration { try $1.fill(key: $0, from: values) }
    try wrappedValue.validate()
  }
}

// MARK: - Deriving the spec and filling in the values

extension ParsableCommand {
  /// The command's spec for the parser and the help, derived from its declarations.
  static var spec: CommandSpec {
    var spec = CommandSpec(
      name: configuration.name, abstract: configuration.abstract,
      discussion: configuration.discussion, portfolioHelp: configuration.portfolioHelp,
      subcommandTypes: configuration.subcommands)
    declare(into: &spec)
    return spec
  }
}

extension FolioCommand {
  static func declare(into spec: inout CommandSpec) {
    Self().forEachDeclaration { $1.declare(key: $0, into: &spec) }
    let (options, arguments) = (spec.options, spec.arguments)
    spec.make = { try Self.make(options: options, arguments: arguments, $0) }
  }

  /// A new command holding the values of `parsed`, converted as `options` and `arguments`
  /// declare.
  private static func make(
    options: [OptionSpec], arguments: [ArgumentSpec], _ parsed: ParsedValues
  ) throws -> Self {
    var values: [String: any Sendable] = [:]
    for option in options {
      guard let key = option.key else { continue }
      values[key] =
        try option.value?.value(
          of: parsed.options[option.name] ?? [], name: "--\(option.name)",
          missing: "missing option '\(option.synopsis)'", path: parsed.path)
        ?? parsed.flags.contains(option.name)
    }
    var words = parsed.arguments[...]
    for argument in arguments {
      guard let key = argument.key, let value = argument.value else { continue }
      let taken = value.repeating ? words : words.prefix(1)
      words = words.dropFirst(taken.count)
      values[key] = try value.value(
        of: Array(taken), name: "<\(argument.name)>",
        missing: "missing argument <\(argument.name)>", path: parsed.path)
    }
    let command = Self()
    do {
      try command.forEachDeclaration { try $1.fill(key: $0, from: values) }
      try command.validate()
    } catch let error as ValidationError {
      throw UsageError(error.message, commandPath: parsed.path)
    }
    return command
  }
}
