import FolioStorage
import Foundation

/// A JSON value (RFC 8259): what Folio reads (`parse`) and what it writes (`rendered`).
///
/// Number literals are kept exactly as written, so `0.10` stays `"0.10"` and
/// `1.52899720736006e+15` keeps all its digits: Foundation's `JSONSerialization` turns numbers
/// into binary floating point, and money must not pass through that. A parsed value also knows
/// the line and column where it starts, so an import can name the line of a bad element.
public struct JSONValue: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number literal as written, such as `-12.5e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the type for messages: "an object", "a number", ...
    public var name: String {
      switch self {
      case .null: return "null"
      case .bool: return "a boolean"
      case .number: return "a number"
      case .string: return "a string"
      case .array: return "an array"
      case .object: return "an object"
      }
    }
  }

  public let kind: Kind
  private let storedLine: UInt32
  private let storedColumn: UInt32

  public init(_ kind: Kind, line: Int = 0, column: Int = 0) {
    self.kind = kind
    storedLine = UInt32(clamping: line)
    storedColumn = UInt32(clamping: column)
  }

  /// The 1-based line where a parsed value starts; 0 for a value built in code.
  public var line: Int { Int(storedLine) }
  /// The 1-based column (in characters) where a parsed value starts; 0 for a built value.
  public var column: Int { Int(storedColumn) }

  /// Values are equal when their contents are; where they were written does not count.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.kind == rhs.kind }

  public static let null = JSONValue(.null)
  public static func bool(_ value: Bool) -> JSONValue { JSONValue(.bool(value)) }
  public static func number(_ literal: String) -> JSONValue { JSONValue(.number(literal)) }
  public static func string(_ text: String) -> JSONValue { JSONValue(.string(text)) }
  public static func array(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items)) }
  /// An object with these members in this order (written as given, even a repeated key).
  public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
    JSONValue(.object(JSONObject(pairs)))
  }
  /// A decimal as a JSON string (Folio writes exact decimals as strings), or null.
  public static func decimal(_ value: ExactDecimal?) -> JSONValue {
    value.map { .string($0.description) } ?? .null
  }
  public static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
  public static func int<T: BinaryInteger>(_ value: T?) -> JSONValue {
    value.map { .number(String($0)) } ?? .null
  }

  /// This object with `pairs` added at the end, as given; any other value unchanged.
  public func appending(_ pairs: [(String, JSONValue)]) -> JSONValue {
    guard case .object(var object) = kind else { return self }
    object.append(pairs)
    return JSONValue(.object(object))
  }

  /// The member `key` of an object; nil for a missing key or a value that is not an object.
  public subscript(key: String) -> JSONValue? { objectValue?[key] }

  public var isNull: Bool { kind == .null }

  public var stringValue: String? {
    guard case .string(let text) = kind else { return nil }
    return text
  }

  public var numberText: String? {
    guard case .number(let text) = kind else { return nil }
    return text
  }

  public var arrayValue: [JSONValue]? {
    guard case .array(let items) = kind else { return nil }
    return items
  }

  public var objectValue: JSONObject? {
    guard case .object(let object) = kind else { return nil }
    return object
  }

  /// A short name of the value's type for messages: "an object", "a number", ...
  public var kindName: String { kind.name }

  // MARK: - Writing

  /// The value as pretty-printed JSON text with two-space indentation.
  public func rendered(indent: String = "") -> String {
    switch kind {
    case .string(let text): return JSONValue.quote(text)
    case .number(let text): return text
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      let inner = indent + "  "
      return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n")
        + "\n" + indent + "]"
    case .object(let object):
      guard object.count > 0 else { return "{}" }
      let inner = indent + "  "
      return "{\n"
        + object.members.map {
          inner + JSONValue.quote($0.key) + ": " + $0.value.rendered(indent: inner)
        }.joined(separator: ",\n") + "\n" + indent + "}"
    }
  }

  /// `text` as a JSON string literal (RFC 8259 escaping).
  public static func quote(_ text: String) -> String {
    let plain = !text.utf8.contains {
      $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20
    }
    if plain { return "\"" + text + "\"" }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  // MARK: - Reading

  /// The default limit on nested arrays and objects.
  public static let defaultMaximumDepth = 512

  /// Parses one JSON text from UTF-8 bytes. Strict RFC 8259: it never traps, and any other
  /// input throws a `JSONParseError` naming the line and column. Nesting is limited
  /// (`maximumDepth`) and handled with an explicit stack, so deep input cannot exhaust the
  /// thread's stack. A leading byte order mark is skipped; invalid UTF-8, a lone UTF-16
  /// surrogate in a `\u` escape and an object that repeats a key are errors (RFC 8259 leaves
  /// duplicate keys to the implementation, and a price written twice is ambiguous). Time and
  /// memory grow linearly with the input.
  public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth)
    throws(JSONParseError) -> JSONValue
  {
    var parser = JSONTextParser(bytes: bytes, maximumDepth: max(1, maximumDepth))
    return try parser.parseDocument()
  }

  /// Parses one JSON text from UTF-8 bytes as `parse` does, except that when it is an array,
  /// each element goes to `element` as soon as it is complete, in order, instead of into the
  /// array, which is returned empty (with its line and column). A large array of objects is then
  /// never held whole: only the element being parsed is. `element` may see elements before a
  /// syntax error later in the text is thrown; the same errors are thrown as by `parse`.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth,
    eachElement element: (JSONValue) -> Void
  ) throws(JSONParseError) -> JSONValue {
    var parser = JSONTextParser(bytes: bytes, maximumDepth: max(1, maximumDepth))
    return try parser.parseDocument(streaming: true, element: element)
  }

  /// Parses one JSON text from UTF-8 data.
  public static func parse(_ data: Data, maximumDepth: Int = defaultMaximumDepth)
    throws(JSONParseError) -> JSONValue
  {
    try parse([UInt8](data), maximumDepth: maximumDepth)
  }

  /// Parses one JSON text from a string.
  public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth)
    throws(JSONParseError) -> JSONValue
  {
    try parse(Array(text.utf8), maximumDepth: maximumDepth)
  }
}

/// The members of a JSON object in the order they were written.
public struct JSONObject: Equatable, Sendable {
  /// One `"key": value` pair.
  public struct Member: Equatable, Sendable {
    public let key: String
    public let value: JSONValue
  }

  /// The members in written order.
  public private(set) var members: [Member] = []
  /// The position of each key (the first, for an object built with a repeated key), once the
  /// object has more than `smallCount` members; a smaller one is searched in order. A page of
  /// coins is thousands of objects of about thirty keys: a dictionary grown key by key
  /// rehashed each of them five times, and the small ones (`roi`, a sparkline) need none.
  private var positions: [String: Int] = [:]
  private static let smallCount = 8

  public init() {}

  /// An object with these members in this order, a repeated key included (for output).
  public init(_ pairs: [(String, JSONValue)]) { append(pairs) }

  /// Adds these members at the end, as given (for output): a repeated key is written twice,
  /// and a lookup finds the first.
  mutating func append(_ pairs: [(String, JSONValue)]) {
    members.reserveCapacity(members.count + pairs.count)
    for (key, value) in pairs {
      if !positions.isEmpty && positions[key] == nil { positions[key] = members.count }
      members.append(Member(key: key, value: value))
    }
  }

  /// Adds `key` unless it is already present; false when it is.
  mutating func add(_ key: String, _ value: JSONValue) -> Bool {
    if members.count < Self.smallCount {
      guard position(of: key) == nil else { return false }
    } else {
      if positions.isEmpty {
        positions.reserveCapacity(4 * Self.smallCount)
        for (index, member) in members.enumerated() where positions[member.key] == nil {
          positions[member.key] = index
        }
      }
      guard positions[key] == nil else { return false }
      positions[key] = members.count
    }
    members.append(Member(key: key, value: value))
    return true
  }

  public subscript(key: String) -> JSONValue? {
    position(of: key).map { members[$0].value }
  }

  private func position(of key: String) -> Int? {
    positions.isEmpty ? members.firstIndex { $0.key == key } : positions[key]
  }

  public var keys: [String] { members.map(\.key) }

  public var count: Int { members.count }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }
}

/// A syntax error, with the 1-based line and column (in characters) where it was found.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  /// What was wrong, such as "expected ',' or '}' after an object member".
  public let reason: String

  public var description: String { "line \(line), column \(column): \(reason)" }
}
