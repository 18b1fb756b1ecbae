import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct JSONValueTests {
  func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue.parse(text) }

  func failure(_ text: String) -> JSONParseError? {
    do {
      _ = try JSONValue.parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func keepsNumberLiteralsAsWritten() throws {
    let value = try parse(
      #"[0, -0, 0.10, 36685, -1.5E+3, 7.53314e-7, 123456789012345678901234567890]"#)
    #expect(
      value.arrayValue?.compactMap(\.numberText) == [
        "0", "-0", "0.10", "36685", "-1.5E+3", "7.53314e-7", "123456789012345678901234567890",
      ])
  }

  @Test func parsesEveryKindOfValueAndKeepsKeyOrder() throws {
    let value = try parse(
      #" { "b" : [true, false, null], "a" : {"x": "y"}, "n": 1, "s": "t\u00e9\ud83d\ude00\n\"" } "#)
    let object = try #require(value.objectValue)
    #expect(object.keys == ["b", "a", "n", "s"])
    #expect(value["b"] == .array([.bool(true), .bool(false), .null]))
    #expect(value["a"]?["x"] == .string("y"))
    #expect(value["s"] == .string("té😀\n\""))
    #expect(value["missing"] == nil)
  }

  @Test func everyEscapeDecodes() throws {
    let value = try parse(#""\" \\ \/ \b \f \n \r \t \u0041 \u0000""#)
    #expect(value == .string("\" \\ / \u{08} \u{0C} \n \r \t A \u{00}"))
  }

  @Test func objectsOfEverySizeFindEachKeyAndRefuseARepeatedOne() throws {
    // Small objects are searched in order, larger ones through a dictionary built on the way.
    for size in 1...20 {
      let keys = (0..<size).map { "key\($0)" }
      let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
      let object = try #require(try parse(text).objectValue)
      #expect(object.keys == keys)
      for (index, key) in keys.enumerated() { #expect(object[key] == .number("\(index)")) }
      #expect(object["key\(size)"] == nil)
      for repeated in [0, size - 1] {
        let twice = text.dropLast() + ", \"key\(repeated)\": 0}"
        #expect(throws: JSONParseError.self) { try parse(String(twice)) }
      }
      // Built for output, a repeated key is kept and a lookup finds its first value.
      let built = JSONObject(keys.map { ($0, .bool(true)) } + [("key0", .bool(false))])
      #expect(built.count == size + 1)
      #expect(built["key0"] == .bool(true))
      // Members added to a parsed object are found too, past the dictionary built for it.
      let extended = try parse(text).appending([("extra", .null), ("key0", .bool(false))])
      #expect(extended["extra"] == .null)
      #expect(extended["key0"] == .number("0"))
      #expect(extended.objectValue?.count == size + 2)
    }
  }

  @Test func duplicateKeysAreRefusedWhereTheSecondOneStarts() throws {
    // A price written twice is ambiguous, so the text is refused rather than one value picked.
    #expect(
      throws: JSONParseError(
        line: 1, column: 18, reason: #"the key "a" appears twice in one object"#)
    ) { try parse(#"{"a": 1, "b": 2, "a": 3}"#) }
    #expect(
      throws: JSONParseError(
        line: 2, column: 19, reason: #"the key "x" appears twice in one object"#)
    ) { try parse("[{\"x\": {\"x\": 1}},\n {\"y\": 1, \"x\": 2, \"x\": 3}]") }
    // 50,000 distinct keys are all kept, in order.
    let many = "{" + (0..<50_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
    let object = try #require(try parse(many).objectValue)
    #expect(object.count == 50_000)
    #expect(object["k49999"] == .number("49999"))
    #expect(object.keys.prefix(2) == ["k0", "k1"])
  }

  @Test func everyValueKnowsItsLineAndColumn() throws {
    // Columns count characters: "é" and "😀" are one each, though two and four bytes.
    let value = try parse("[\n {\"a\": \"[,]\"},\n\n  2, [3,\n 4], \"x\\\"\"\n, {\"é😀\": true}]")
    let items = try #require(value.arrayValue)
    #expect(items.map(\.line) == [2, 4, 4, 5, 6])
    #expect(items.map(\.column) == [2, 3, 6, 6, 3])
    #expect((value.line, value.column) == (1, 1))
    #expect((items[0]["a"]?.line, items[0]["a"]?.column) == (2, 8))
    #expect(items[2].arrayValue?.map(\.line) == [4, 5])
    #expect((items[4]["é😀"]?.line, items[4]["é😀"]?.column) == (6, 10))
    // Where a value was written does not make it a different value.
    #expect(try parse("[\n1]") == parse("[1]"))
    #expect(JSONValue.number("1").line == 0)
  }

  @Test func whatIsRenderedParsesBackToTheSameValue() throws {
    let value = JSONValue.object([
      ("text", .string("a \"q\" \\ \n\t\u{01} é")), ("decimal", .decimal(.zero)),
      ("int", .int(-3)), ("none", .string(nil)), ("list", .array([.bool(true), .null])),
      ("empty", .object([])), ("nothing", .array([])),
    ])
    let text = value.rendered()
    #expect(
      text.hasPrefix("{\n  \"text\": \"a \\\"q\\\" \\\\ \\n\\t\\u0001 é\",\n  \"decimal\": \"0\""))
    #expect(try parse(text) == value)
    // Text with nothing to escape is written as it is, whatever its script.
    #expect(JSONValue.quote("東京 \u{2028} ~\u{7F}") == "\"東京 \u{2028} ~\u{7F}\"")
    #expect(JSONValue.quote("") == "\"\"")
    #expect(JSONValue.quote("tab\there") == "\"tab\\there\"")
  }

  @Test func leadingByteOrderMarkIsSkipped() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
    #expect(try JSONValue.parse(bytes) == .array([.number("1")]))
    // The mark is a character: the array starts in column 2, as an error there would say.
    #expect(try JSONValue.parse(bytes).column == 2)
    #expect(throws: JSONParseError(line: 1, column: 2, reason: "expected a value, found 'x'")) {
      try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("x".utf8))
    }
  }

  @Test func syntaxErrorsNameLineAndColumn() {
    let cases: [(String, Int, Int, String)] = [
      ("", 1, 1, "holds no JSON value"),
      ("  \n ", 2, 2, "holds no JSON value"),
      ("[1, 2", 1, 6, "expected ',' or ']' after an array element, found the end of the input"),
      ("{\n  \"a\": 1\n  \"b\": 2}", 3, 3, "expected ',' or '}' after an object member"),
      ("{\"a\" 1}", 1, 6, "expected ':' after an object key"),
      ("{a: 1}", 1, 2, "expected a string key in double quotes"),
      ("[1,]", 1, 4, "expected a value, found ']'"),
      ("[01]", 1, 3, "leading zeros"),
      ("[1.]", 1, 4, "expected a digit after the decimal point"),
      ("[1e]", 1, 4, "expected a digit in the exponent"),
      ("[-]", 1, 3, "expected a digit after '-'"),
      ("[+1]", 1, 2, "expected a value, found '+'"),
      ("[.5]", 1, 2, "expected a value, found '.'"),
      ("[NaN]", 1, 2, "expected a value, found 'N'"),
      ("[Infinity]", 1, 2, "expected a value"),
      ("[tru]", 1, 2, "invalid literal; expected 'true'"),
      ("[nul", 1, 2, "invalid literal; expected 'null'"),
      ("\"abc", 1, 1, "unterminated string"),
      ("\"a\tb\"", 1, 3, "control character"),
      ("\"\\x\"", 1, 2, "invalid escape"),
      ("\"\\u12G4\"", 1, 6, "expected four hex digits"),
      ("\"\\ud83d\"", 1, 2, "high surrogate"),
      ("\"\\ude00\"", 1, 2, "low surrogate"),
      ("[1] [2]", 1, 5, "unexpected '[' after the JSON value"),
      ("{\"é\": x}", 1, 7, "expected a value, found 'x'"),
      ("[1, // comment\n 2]", 1, 5, "expected a value, found '/'"),
      ("['a']", 1, 2, "expected a value, found '''"),
    ]
    for (text, line, column, reason) in cases {
      let error = failure(text)
      #expect(error?.line == line, "\(text.debugDescription): \(String(describing: error))")
      #expect(error?.column == column, "\(text.debugDescription): \(String(describing: error))")
      #expect(
        error?.reason.contains(reason) == true,
        "\(text.debugDescription): \(String(describing: error))")
    }
  }

  @Test func errorDescriptionReadsLineThenColumn() {
    #expect(failure("[1,\n x]")?.description == "line 2, column 2: expected a value, found 'x'")
  }

  @Test func eachElementOfATopLevelArrayIsHandedOverInsteadOfKept() throws {
    var elements: [JSONValue] = []
    let array = try JSONValue.parse(Array("\n [1, {\"a\": [2, 3]},\n \"x\", []]".utf8)) {
      elements.append($0)
    }
    #expect(array == .array([]))
    #expect((array.line, array.column) == (2, 2))
    #expect(
      elements == [
        .number("1"), .object([("a", .array([.number("2"), .number("3")]))]),
        .string("x"), .array([]),
      ])
    #expect(elements.map(\.line) == [2, 2, 3, 3])
    // Anything but an array is returned whole, and nothing is handed over.
    var count = 0
    let object = try JSONValue.parse(Array(#"{"a": [1, 2]}"#.utf8)) { _ in count += 1 }
    #expect(object == .object([("a", .array([.number("1"), .number("2")]))]))
    #expect(count == 0)
    // A syntax error after good elements is the one `parse` throws.
    for text in ["[1, 2, x]", "[1, 2", "[1] 2", "[1, [2,]]", "[\"a\", \"\u{1}\"]"] {
      let whole = try #require(failure(text))
      #expect(throws: whole) { try JSONValue.parse(Array(text.utf8)) { _ in } }
    }
  }

  @Test func invalidUTF8IsRefusedWithItsPosition() {
    let cases: [[UInt8]] = [
      Array("[\"ok\", \"".utf8) + [0xFF] + Array("\"]".utf8),
      Array("\"".utf8) + [0xC0, 0xAF] + Array("\"".utf8),  // overlong '/'
      Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8),  // encoded surrogate
      Array("\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"".utf8),  // above U+10FFFF
      Array("\"".utf8) + [0xE2, 0x82] + Array("\"".utf8),  // cut short
    ]
    for bytes in cases {
      #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }
    do {
      _ = try JSONValue.parse(Array("[\"ok\", \"".utf8) + [0xFF])
      Issue.record("invalid UTF-8 was accepted")
    } catch {
      #expect(error.column == 9)
      #expect(error.reason == "the input is not valid UTF-8")
    }
  }

  @Test func nestingIsLimited() throws {
    let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(try JSONValue.parse(deep).arrayValue != nil)
    let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    let error = failure(tooDeep)
    #expect(error?.reason.contains("nested more than 512 levels") == true)
    #expect(error?.column == 513)
    let objects =
      String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
    #expect(failure(objects)?.reason.contains("nested") == true)
    #expect(throws: JSONParseError.self) { try JSONValue.parse("[[[1]]]", maximumDepth: 2) }
  }

  @Test func hugeUnclosedNestingDoesNotExhaustTheStack() {
    // 100 000 open brackets: refused at the limit, without recursion.
    #expect(failure(String(repeating: "[", count: 100_000)) != nil)
  }

  @Test func neverTrapsOnRandomOrTruncatedInput() throws {
    var generator = SystemRandomNumberGenerator()
    let sample = Array(#"{"a":[1,-2.5e+3,"x\u00e9\"",true,null,{"b":{}}],"c":"é"}"#.utf8)
    // Every prefix of a valid document either parses or throws.
    for end in 0...sample.count {
      _ = try? JSONValue.parse(Array(sample[0..<end]))
    }
    #expect(try JSONValue.parse(sample).objectValue?.count == 2)
    // Random mutations of it, and random bytes.
    for _ in 0..<3000 {
      var bytes = sample
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
      _ = try? JSONValue.parse(bytes)
      let noise = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      _ = try? JSONValue.parse(noise)
    }
  }

  @Test func parsesTheRealCapturesAndMatchesFoundationOnStructure() throws {
    let names = [
      "coin_bitcoin_full_2021-05-15.json", "coins_markets_eur_100_nosparkline_2024-01-24.json",
      "global_2021-05-18.json",
    ]
    for name in names {
      let data = try Data(
        contentsOf: URL(fileURLWithPath: Fixtures.path("coingecko/captured/" + name)))
      let mine = try JSONValue.parse(data)
      let foundation = try JSONSerialization.jsonObject(with: data)
      #expect(count(mine) == count(foundation), "\(name)")
    }
  }

  /// The number of scalar values in a tree, for comparing two parsers' results.
  private func count(_ value: JSONValue) -> Int {
    switch value.kind {
    case .array(let items): return items.map(count).reduce(0, +)
    case .object(let object): return object.members.map { count($0.value) }.reduce(0, +)
    default: return 1
    }
  }

  private func count(_ value: Any) -> Int {
    if let array = value as? [Any] { return array.map(count).reduce(0, +) }
    if let dictionary = value as? [String: Any] { return dictionary.values.map(count).reduce(0, +) }
    return 1
  }
}
