import Foundation

/// The reader behind `JSONValue.parse`.
struct JSONTextParser {
  private let bytes: [UInt8]
  private let maximumDepth: Int
  private var position = 0
  /// The current line, where it starts, and how many UTF-8 continuation bytes it holds before
  /// `position` (columns count characters). Only whitespace holds line breaks: a string
  /// cannot, so the column of any value is known without looking back.
  private var line = 1
  private var lineStart = 0
  private var continuations = 0

  init(bytes: [UInt8], maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// An array or object being filled. It is changed in place on the stack (never copied out
  /// and back), so adding an element costs the same however many came before it.
  private struct Frame {
    var items: [JSONValue] = []
    /// Set for an object, with the key of the value being parsed and where that key starts.
    var object: JSONObject?
    var key = ""
    var keyAt = 0
    /// Where the array or object starts.
    let line: Int
    let column: Int
  }

  /// Parses the whole text. With `streaming`, each element of a top-level array goes to
  /// `element` as soon as it is complete instead of into the array, which is returned empty:
  /// the parser then holds one element at a time, not the whole array.
  mutating func parseDocument(
    streaming: Bool = false, element: (JSONValue) -> Void = { _ in }
  ) throws(JSONParseError) -> JSONValue {
    if let invalid = JSONTextParser.firstInvalidUTF8(bytes) {
      throw error("the input is not valid UTF-8", at: invalid)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      position = 3
      continuations = 2
    }
    skipWhitespace()
    guard position < bytes.count else { throw error("the input holds no JSON value") }

    var stack: [Frame] = []
    var completed: JSONValue
    parsing: while true {
      // Parse one value, or open a container and go round again for its first element.
      skipWhitespace()
      guard let byte = peek() else { throw error("unexpected end of input; expected a value") }
      let line = line
      let column = position - lineStart - continuations + 1
      func value(_ kind: JSONValue.Kind) -> JSONValue {
        JSONValue(kind, line: line, column: column)
      }
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        guard stack.count < maximumDepth else {
          throw error("arrays and objects are nested more than \(maximumDepth) levels deep")
        }
        position += 1
        skipWhitespace()
        let isArray = byte == UInt8(ascii: "[")
        if peek() == (isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
          position += 1
          completed = value(isArray ? .array([]) : .object(JSONObject()))
        } else if isArray {
          stack.append(Frame(line: line, column: column))
          continue parsing
        } else {
          let keyAt = position
          let key = try parseKey()
          stack.append(
            Frame(object: JSONObject(), key: key, keyAt: keyAt, line: line, column: column))
          continue parsing
        }
      case UInt8(ascii: "\""):
        completed = value(.string(try parseString()))
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        completed = value(.number(try parseNumber()))
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        completed = value(.bool(true))
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        completed = value(.bool(false))
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        completed = value(.null)
      default:
        throw error("expected a value, found \(describePeek())")
      }

      // Attach the completed value to its container; close containers that end here.
      while let top = stack.indices.last {
        skipWhitespace()
        if stack[top].object == nil {
          if streaming && top == 0 {
            element(completed)
          } else {
            stack[top].items.append(completed)
          }
          if peek() == UInt8(ascii: ",") {
            position += 1
            continue parsing
          }
          guard peek() == UInt8(ascii: "]") else {
            throw error("expected ',' or ']' after an array element, found \(describePeek())")
          }
          position += 1
          let frame = stack.removeLast()
          completed = JSONValue(.array(frame.items), line: frame.line, column: frame.column)
        } else {
          let key = stack[top].key
          guard stack[top].object?.add(key, completed) == true else {
            throw error("the key \"\(key)\" appears twice in one object", at: stack[top].keyAt)
          }
          if peek() == UInt8(ascii: ",") {
            position += 1
            skipWhitespace()
            stack[top].keyAt = position
            stack[top].key = try parseKey()
            continue parsing
          }
          guard peek() == UInt8(ascii: "}") else {
            throw error("expected ',' or '}' after an object member, found \(describePeek())")
          }
          position += 1
          let frame = stack.removeLast()
          completed = JSONValue(
            .object(frame.object ?? JSONObject()), line: frame.line, column: frame.column)
        }
      }
      break parsing
    }
    skipWhitespace()
    guard position == bytes.count else {
      throw error("unexpected \(describePeek()) after the JSON value")
    }
    return completed
  }

  /// Reads `"key"` and the `:` after it.
  private mutating func parseKey() throws(JSONParseError) -> String {
    guard peek() == UInt8(ascii: "\"") else {
      throw error("expected a string key in double quotes, found \(describePeek())")
    }
    let key = try parseString()
    skipWhitespace()
    guard peek() == UInt8(ascii: ":") else {
      throw error("expected ':' after an object key, found \(describePeek())")
    }
    position += 1
    return key
  }

  // MARK: - Scalars

  private mutating func expectLiteral(_ word: String) throws(JSONParseError) {
    guard bytes[position...].starts(with: word.utf8) else {
      throw error("invalid literal; expected '\(word)'")
    }
    position += word.utf8.count
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  private mutating func parseNumber() throws(JSONParseError) -> String {
    let start = position
    if peek() == UInt8(ascii: "-") { position += 1 }
    guard let first = peek(), isDigit(first) else {
      throw error("expected a digit after '-', found \(describePeek())")
    }
    position += 1
    if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
      throw error("a number must not have leading zeros")
    }
    skipDigits()
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard let next = peek(), isDigit(next) else {
        throw error("expected a digit after the decimal point, found \(describePeek())")
      }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard let next = peek(), isDigit(next) else {
        throw error("expected a digit in the exponent, found \(describePeek())")
      }
      skipDigits()
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    let open = position
    position += 1  // the opening quote
    // Plain runs are copied in one go; the buffer is only needed once an escape turns up.
    var buffer: [UInt8] = []
    var run = position
    while true {
      guard position < bytes.count else {
        throw error("unterminated string (it starts here)", at: open)
      }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        // The input was validated as UTF-8 and escapes add only valid scalars.
        if buffer.isEmpty { return String(decoding: bytes[run..<position - 1], as: UTF8.self) }
        buffer.append(contentsOf: bytes[run..<position - 1])
        return String(decoding: buffer, as: UTF8.self)
      case UInt8(ascii: "\\"):
        buffer.append(contentsOf: bytes[run..<position])
        try parseEscape(into: &buffer)
        run = position
      case 0..<0x20:
        throw error("a control character in a string must be written as an escape")
      case 0x80...0xBF:
        continuations += 1
        position += 1
      default:
        position += 1
      }
    }
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
    let start = position
    position += 1  // the backslash
    guard let byte = peek() else { throw error("unterminated string") }
    position += 1
    switch byte {
    case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
          throw error("a high surrogate escape must be followed by a low surrogate", at: start)
        }
        position += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error("a high surrogate escape must be followed by a low surrogate", at: start)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw error("a low surrogate escape without a high surrogate before it", at: start)
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw error("invalid unicode escape", at: start)
      }
      buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
    default:
      throw error(
        "invalid escape: a backslash followed by \(describe(at: position - 1))", at: start)
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek() else { throw error("expected four hex digits after '\\u'") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
      default: throw error("expected four hex digits after '\\u', found \(describePeek())")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  // MARK: - Helpers

  private func peek(_ offset: Int = 0) -> UInt8? {
    let index = position + offset
    return index < bytes.count ? bytes[index] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { position += 1 }
  }

  private mutating func skipWhitespace() {
    while let byte = peek() {
      switch byte {
      case 0x20, 0x09, 0x0D: position += 1
      case 0x0A:
        position += 1
        line += 1
        lineStart = position
        continuations = 0
      default: return
      }
    }
  }

  private func describePeek() -> String {
    position < bytes.count ? describe(at: position) : "the end of the input"
  }

  /// The character that starts at `offset`, quoted, for messages.
  private func describe(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the input" }
    let byte = bytes[offset]
    if byte >= 0x20 && byte < 0x7F { return "'\(UnicodeScalar(byte))'" }
    if byte < 0x80 { return String(format: "control character U+%04X", Int(byte)) }
    var end = offset + 1
    while end < bytes.count && end - offset < 4 && bytes[end] & 0xC0 == 0x80 { end += 1 }
    return "'" + String(decoding: bytes[offset..<end], as: UTF8.self) + "'"
  }

  private func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
    let target = min(offset ?? position, bytes.count)
    var line = 1
    var column = 1
    var index = 0
    while index < target {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1  // count characters (lead bytes), not bytes
      }
      index += 1
    }
    return JSONParseError(line: line, column: column, reason: reason)
  }

  /// The offset of the first byte that is not part of well-formed UTF-8 (no overlong forms,
  /// no surrogates, nothing above U+10FFFF), or nil when all of it is well formed.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        // ASCII, nearly all of a JSON text, needs no decoding.
        if buffer[offset] < 0x80 {
          offset += 1
          continue
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = buffer[offset...].makeIterator()
        guard case .valid(let scalar) = parser.parseScalar(from: &iterator) else { return offset }
        offset += scalar.count
      }
      return nil
    }
  }
}
