import Testing

@testable import FolioService

@Suite struct LocationJSONParserTests {
  @Test func parsesEveryKindOfValueWithLines() throws {
    let text = """
      {
        "a": [1, -2.50, 3e2, true, false, null],
        "b": "x\\ty \\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ \\/",
        "c": {}
      }
      """
    let root = try LocationJSONParser.parse(text)
    #expect(root.line == 1)
    let a = try #require(root.member("a"))
    #expect(a.line == 2)
    #expect(
      a.value
        == .array([
          LocationJSONNode(value: .number("1"), line: 2),
          LocationJSONNode(value: .number("-2.50"), line: 2),
          LocationJSONNode(value: .number("3e2"), line: 2),
          LocationJSONNode(value: .bool(true), line: 2),
          LocationJSONNode(value: .bool(false), line: 2),
          LocationJSONNode(value: .null, line: 2),
        ]))
    #expect(root.member("b")?.value == .string("x\ty é 😀 \"q\" \\ /"))
    #expect(root.member("b")?.line == 3)
    #expect(root.member("c")?.value == .object([]))
  }

  @Test func refusesInvalidJSONWithLineAndColumn() {
    let cases: [(String, Int, Int, String)] = [
      ("[1, 2,]", 1, 7, "expected a value"),
      ("{\"a\": 1,\n \"a\": 2}", 2, 5, "appears twice"),
      ("[01]", 1, 3, "leading zeros"),
      ("[1.]", 1, 4, "followed by digits"),
      ("[\"a\nb\"]", 1, 4, "control character"),
      ("[\"\\x\"]", 1, 5, "invalid escape"),
      ("[\"\\ud800\"]", 1, 9, "low surrogate"),
      ("[nul]", 1, 2, "expected 'null'"),
      ("[1] 2", 1, 5, "unexpected text after"),
      ("", 1, 1, "unexpected end of file"),
      ("\n\n  {\"a\" 1}", 3, 8, "expected ':'"),
      ("[1 2]", 1, 4, "expected ',' or ']'"),
      ("'a'", 1, 1, "unexpected character"),
      ("[\"abc", 1, 6, "unterminated string"),
    ]
    for (text, line, column, message) in cases {
      #expect(throws: LocationJSONSyntaxError.self, "\(text)") {
        try LocationJSONParser.parse(text)
      }
      do {
        _ = try LocationJSONParser.parse(text)
      } catch {
        #expect(error.line == line, "\(text): \(error)")
        #expect(error.column == column, "\(text): \(error)")
        #expect(error.message.contains(message), "\(text): \(error)")
      }
    }
  }

  @Test func refusesDeepNestingInsteadOfCrashing() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: LocationJSONSyntaxError.self) { try LocationJSONParser.parse(deep) }
  }

  @Test func acceptsAByteOrderMark() throws {
    #expect(try LocationJSONParser.parse("\u{FEFF}[]").value == .array([]))
  }

}
