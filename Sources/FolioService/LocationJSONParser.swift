// A small strict JSON reader (RFC 8259) for `folio locations import`. Foundation's
// JSONSerialization cannot say on which line a value sits, and turns 41.8902 into a binary
// Double before Folio can parse it exactly; this reader keeps each number's text and each
// value's line. Internal to the locations import, so it cannot clash with other parsers.

/// A JSON value and the line (1-based) where it starts.
struct LocationJSONNode: Equatable {
  indirect enum Value: Equatable {
    case string(String)
    /// The number exactly as written, such as "41.8902" or "-1.5e-3".
    case number(String)
    case bool(Bool)
    case null
    case array([LocationJSONNode])
    /// Members in file order; keys are unique (duplicates are refused while parsing).
    case object([(key: String, node: LocationJSONNode)])

    static func == (lhs: Value, rhs: Value) -> Bool {
      switch (lhs, rhs) {
      case (.string(let a), .string(let b)), (.number(let a), .number(let b)): return a == b
      case (.bool(let a), .bool(let b)): return a == b
      case (.null, .null): return true
      case (.array(let a), .array(let b)): return a == b
      case (.object(let a), .object(let b)):
        return a.elementsEqual(b) { $0.key == $1.key && $0.node == $1.node }
      default: return false
      }
    }
  }

  let value: Value
  let line: Int

  /// The member `key` of an object, if this is an object that has it.
  func member(_ key: String) -> LocationJSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.node
  }

  /// What kind of value this is, for messages ("a string", "an array", …).
  var kindName: String {
    switch value {
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// Where and why the text is not valid JSON.
struct LocationJSONSyntaxError: Error, Equatable {
  let line: Int
  let column: Int
  let message: String
}

/// Parses a whole JSON text; anything after the top-level value is an error.
struct LocationJSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// Nesting deeper than this is refused rather than risking the stack.
  static let maximumDepth = 256

  init(_ text: String) { bytes = Array(text.utf8) }

  static func parse(_ text: String) throws(LocationJSONSyntaxError) -> LocationJSONNode {
    var parser = LocationJSONParser(text)
    if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }  // UTF-8 byte order mark
    parser.skipWhitespace()
    let node = try parser.value()
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else {
      throw parser.error("unexpected text after the JSON value")
    }
    return node
  }

  private func error(_ message: String) -> LocationJSONSyntaxError {
    LocationJSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
      case UInt8(ascii: "\n"):
        index += 1
        line += 1
        lineStart = index
      default: return
      }
    }
  }

  private mutating func value() throws(LocationJSONSyntaxError) -> LocationJSONNode {
    let startLine = line
    guard let byte = current else { throw error("unexpected end of file; expected a value") }
    switch byte {
    case UInt8(ascii: "{"): return LocationJSONNode(value: try object(), line: startLine)
    case UInt8(ascii: "["): return LocationJSONNode(value: try array(), line: startLine)
    case UInt8(ascii: "\""): return LocationJSONNode(value: .string(try string()), line: startLine)
    case UInt8(ascii: "t"):
      try literal("true")
      return LocationJSONNode(value: .bool(true), line: startLine)
    case UInt8(ascii: "f"):
      try literal("false")
      return LocationJSONNode(value: .bool(false), line: startLine)
    case UInt8(ascii: "n"):
      try literal("null")
      return LocationJSONNode(value: .null, line: startLine)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return LocationJSONNode(value: .number(try number()), line: startLine)
    default:
      throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'; expected a value")
    }
  }

  private mutating func literal(_ word: String) throws(LocationJSONSyntaxError) {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count,
      Array(bytes[index..<index + expected.count]) == expected
    else { throw error("invalid literal; expected '\(word)'") }
    index += expected.count
  }

  private mutating func enter() throws(LocationJSONSyntaxError) {
    depth += 1
    guard depth <= LocationJSONParser.maximumDepth else {
      throw error("values are nested more than \(LocationJSONParser.maximumDepth) deep")
    }
  }

  private mutating func object() throws(LocationJSONSyntaxError) -> LocationJSONNode.Value {
    try enter()
    index += 1  // {
    var members: [(key: String, node: LocationJSONNode)] = []
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
      let key = try string()
      if members.contains(where: { $0.key == key }) {
        throw error("the member '\(key)' appears twice in one object")
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after '\(key)'") }
      index += 1
      skipWhitespace()
      members.append((key, try value()))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return .object(members)
      default: throw error("expected ',' or '}' in an object")
      }
    }
  }

  private mutating func array() throws(LocationJSONSyntaxError) -> LocationJSONNode.Value {
    try enter()
    index += 1  // [
    var items: [LocationJSONNode] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try value())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return .array(items)
      default: throw error("expected ',' or ']' in an array")
      }
    }
  }

  private mutating func string() throws(LocationJSONSyntaxError) -> String {
    index += 1  // opening quote
    var scalars = String.UnicodeScalarView()
    var run = index  // start of the current stretch of plain bytes
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while true {
      guard let byte = current else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        flush(index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush(index)
        index += 1
        guard let escape = current else { throw error("unterminated string") }
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
        default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
        }
        run = index
      case 0..<0x20:
        throw error("control character in a string; write it as an escape such as \\n")
      default:
        index += 1
      }
    }
  }

  /// Reads the hex digits after `\u`, joining a UTF-16 surrogate pair into one scalar.
  private mutating func unicodeEscape() throws(LocationJSONSyntaxError) -> Unicode.Scalar {
    let first = try hex4()
    if (0xD800...0xDBFF).contains(first) {
      guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw error("a \\u escape of a high surrogate must be followed by a low surrogate") }
      index += 2
      let second = try hex4()
      guard (0xDC00...0xDFFF).contains(second),
        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
      else { throw error("invalid UTF-16 surrogate pair in a \\u escape") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else {
      throw error("a \\u escape names a lone surrogate")
    }
    return scalar
  }

  private mutating func hex4() throws(LocationJSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw error("unterminated \\u escape") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("a \\u escape needs four hexadecimal digits")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
  private mutating func number() throws(LocationJSONSyntaxError) -> String {
    let start = index
    func digits() -> Int {
      let from = index
      while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        index += 1
      }
      return index - from
    }
    if current == UInt8(ascii: "-") { index += 1 }
    if current == UInt8(ascii: "0") {
      index += 1
      if let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        throw error("numbers must not have leading zeros")
      }
    } else if digits() == 0 {
      throw error("invalid number")
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("a decimal point must be followed by digits") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("an exponent must have digits") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }
}
