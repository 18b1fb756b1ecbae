import FolioTestSupport
import Testing

@testable import FolioStorage

/// The `sparkline_7d` text: written as it always was (canonical decimals and `null`, commas, no
/// spaces), read back to the same points, and canonical number text passed through as is.
@Suite struct SparklineTests {
  func d(_ text: String) throws -> ExactDecimal { try ExactDecimal(parsing: text) }

  /// The column's format, spelled out: what `sparklineText` wrote before the text was kept.
  func columnText(_ points: [ExactDecimal?]) -> String {
    "[" + points.map { $0?.description ?? "null" }.joined(separator: ",") + "]"
  }

  func isCanonical(_ text: String) -> Bool {
    var text = text
    return text.withUTF8(ExactDecimal.isCanonical)
  }

  @Test func canonicalDecimalTextIsExactlyWhatADecimalWrites() throws {
    for text in [
      "0", "1", "-1", "0.5", "-0.5", "40274.934", "0.000000000000000001", "-0.00000000000000001",
      "99999999999999999999.999999999999999999", "-12345678901234567890",
    ] {
      #expect(isCanonical(text), "\(text)")
      #expect(try d(text).description == text)
    }
    for text in [
      "", "-", "-0", "00", "01", "-01.5", "0.0", "1.50", "1.", ".5", "+1", " 1", "1 ", "1e5",
      "1E+3", "1e-5", "1.5e0", "0.1234567890123456789", "1,5", "1.2.3", "null", "0x10",
      // Over 20 whole digits: in range or not, the parser decides.
      "100000000000000000000", "170141183460469231731.687303715884105727",
    ] {
      #expect(!isCanonical(text), "\(text)")
    }
  }

  /// Every decimal's text with up to 20 whole digits passes the check; a trailing or leading
  /// zero added to it, another text of the same value, does not.
  @Test func everyDecimalsTextIsCanonical() throws {
    var random = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let digits = random.next(in: 1...38)
      var units = Int128(random.next() % 10)
      for _ in 1..<digits { units = units * 10 + Int128(random.next() % 10) }
      // Some with trailing zeros in the units, so that fractions of every length turn up.
      for _ in 0..<random.next(in: 0...18) where units.magnitude < UInt128(Int128.max) / 10 {
        units *= 10
      }
      if random.next() % 2 == 0 { units = 0 - units }
      let text = ExactDecimal(units: units).description
      // A whole part of 21 digits is left to the parser, in range or not.
      let wholeDigits = text.prefix { $0 != "." }.filter(\.isNumber).count
      #expect(isCanonical(text) == (wholeDigits <= 20), "\(text)")
      if text.contains(".") { #expect(!isCanonical(text + "0"), "\(text)0") }
      if !text.hasPrefix("-") { #expect(!isCanonical("0" + text), "0\(text)") }
    }
  }

  @Test func pointsGiveTheColumnTextAndBack() throws {
    let series: [[ExactDecimal?]] = [
      [],
      [nil],
      [.zero],
      [try d("1.5"), ExactDecimal(2), nil, try d("-0.000000000000000001")],
      [nil, nil, try d("170141183460469231731.687303715884105727")],
      [ExactDecimal(units: -.max), .zero, nil],
    ]
    for points in series {
      let sparkline = Sparkline(points)
      #expect(sparkline.text == columnText(points))
      #expect(sparkline.points == points)
      // Text → points → text, and the stored text kept as it is.
      #expect(Sparkline(sparkline.points).text == sparkline.text)
      #expect(Sparkline(storedText: sparkline.text) == sparkline)
      #expect(Sparkline(storedText: sparkline.text).text == sparkline.text)
    }
  }

  @Test func canonicalLiteralsPassThroughAndOthersAreRefused() throws {
    var builder = Sparkline.Builder()
    var passed: [Bool] = []
    for literal in ["40274.934", "-0.5", "null", "0"] {
      if literal == "null" {
        builder.append(nil)
      } else {
        passed.append(builder.append(canonicalLiteral: literal))
      }
    }
    #expect(passed == [true, true, true])
    for literal in ["1.50", "1e-5", "-0", "0.0", "01", "0.1234567890123456789", "1 "] {
      let appended = builder.append(canonicalLiteral: literal)
      #expect(!appended, "\(literal)")
    }
    builder.append(try d("1.5"))
    let sparkline = builder.finish()
    #expect(sparkline.text == "[40274.934,-0.5,null,0,1.5]")
    #expect(sparkline.points == [try d("40274.934"), try d("-0.5"), nil, .zero, try d("1.5")])
    #expect(Sparkline.Builder().finish().text == "[]")
  }

  /// Text Folio did not write is read as it always was, and kept in the canonical form.
  @Test func otherStoredTextIsReadLenientlyAndWrittenCanonically() throws {
    let cases: [(String, [ExactDecimal?])] = [
      ("[1.50, 2 ,null]", [try d("1.5"), ExactDecimal(2), nil]),
      (" [1e3,x,] ", [ExactDecimal(1000), nil, nil]),
      ("[-0,+5,.5]", [.zero, ExactDecimal(5), try d("0.5")]),
      ("[ ]", [nil]),
      ("[]", []),
      ("not an array", []),
      ("[1,,2]", [.one, nil, ExactDecimal(2)]),
    ]
    for (text, points) in cases {
      let sparkline = Sparkline(storedText: text)
      #expect(sparkline.points == points, "\(text)")
      #expect(sparkline.text == columnText(points), "\(text)")
      #expect(sparkline == Sparkline(points))
    }
  }

  @Test func aStoredSparklineReadsBackAsTheSameText() throws {
    let folder = TemporaryFolder()
    let db = try Database(path: folder.file("sparkline.sqlite3"))
    try db.execute("CREATE TABLE t (s TEXT)", [])
    let written = Sparkline([try d("1.5"), nil, ExactDecimal(-3)])
    try db.execute("INSERT INTO t VALUES (?), (NULL), ('[1.0, 2]')", [written.text])
    let read = try db.rows("SELECT s FROM t ORDER BY rowid", []) { try $0["s"] as Sparkline? }
    #expect(read == [written, nil, Sparkline([.one, ExactDecimal(2)])])
    #expect(try db.scalarText("SELECT s FROM t WHERE rowid = 1") == "[1.5,null,-3]")
  }
}
