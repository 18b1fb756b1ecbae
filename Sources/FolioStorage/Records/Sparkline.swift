import Foundation

/// A coin's 7-day sparkline (the hourly prices, oldest first) as Folio stores it: the text of
/// the `sparkline_7d` column, a JSON array of canonical decimals and nulls such as
/// `[1.5,2,null]`. The text is what is kept; the points are read from it only when asked for.
/// An import passes each number of a response that is already canonical straight into the
/// text (`Builder.append(canonicalLiteral:)`), and reading a stored quote parses no point.
public struct Sparkline: Equatable, Sendable {
  /// The column's text, always canonical: entries are `null` or `ExactDecimal`'s canonical
  /// text, separated by commas with no spaces. So two sparklines are equal exactly when their
  /// points are.
  public let text: String

  private init(canonical text: String) { self.text = text }

  /// The sparkline of these points; nil points are written `null`.
  public init(_ points: [ExactDecimal?]) {
    var builder = Builder(capacity: points.count)
    for point in points { builder.append(point) }
    self = builder.finish()
  }

  /// A sparkline from a `sparkline_7d` column's text. Canonical text is kept as it is. Any
  /// other text (written by another program) is read leniently, as Folio always read it, and
  /// kept in the canonical form: entries with spaces around them, any number
  /// `ExactDecimal(parsing:)` reads, and anything else as a nil point; text that is not a
  /// `[…]` array holding something is no points at all.
  public init(storedText text: String) {
    var copy = text
    if copy.withUTF8(Self.isCanonical) {
      self.init(canonical: text)
    } else {
      self.init(Self.readLeniently(text))
    }
  }

  /// The points, oldest first; a `null` entry is nil.
  public var points: [ExactDecimal?] {
    var text = text
    return text.withUTF8 { utf8 in
      var points: [ExactDecimal?] = []
      points.reserveCapacity(utf8.count / 8)
      Self.forEachEntry(of: utf8) { entry in
        // The text is canonical, so every entry other than null reads.
        points.append(Self.isNull(entry) ? nil : try? ExactDecimal(utf8: entry))
      }
      return points
    }
  }

  // MARK: Building

  /// Writes a sparkline's text point by point into one byte buffer: a page of coins holds
  /// millions of points, so no String is made for any of them.
  public struct Builder {
    private var bytes: [UInt8] = []
    private var isEmpty = true

    /// A builder with room for about `capacity` points.
    public init(capacity: Int = 0) {
      bytes.reserveCapacity(2 + capacity * 16)
      bytes.append(UInt8(ascii: "["))
    }

    /// Appends a point, nil as `null`.
    public mutating func append(_ point: ExactDecimal?) {
      separate()
      if let point {
        point.withCanonicalText { bytes.append(contentsOf: $0) }
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
    }

    /// Appends a JSON number literal as it is written when it is a decimal's canonical text
    /// (`ExactDecimal.isCanonical`), and returns true. Any other literal (an exponent,
    /// trailing zeros, more than 18 fractional digits, `-0`, a whole part of over 20 digits)
    /// appends nothing and returns false: the caller converts it and appends the decimal.
    public mutating func append(canonicalLiteral literal: String) -> Bool {
      // The literal's own bytes (a short one's from its inline storage): no copy of the String.
      if let appended = literal.utf8.withContiguousStorageIfAvailable({ appendIfCanonical($0) }) {
        return appended
      }
      var copy = literal
      return copy.withUTF8 { appendIfCanonical($0) }
    }

    private mutating func appendIfCanonical(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
      guard ExactDecimal.isCanonical(utf8) else { return false }
      separate()
      bytes.append(contentsOf: utf8)
      return true
    }

    /// The sparkline of the points appended.
    public consuming func finish() -> Sparkline {
      bytes.append(UInt8(ascii: "]"))
      return Sparkline(canonical: String(decoding: bytes, as: UTF8.self))
    }

    private mutating func separate() {
      if isEmpty {
        isEmpty = false
      } else {
        bytes.append(UInt8(ascii: ","))
      }
    }
  }

  // MARK: Reading

  /// True when `utf8` is a sparkline's canonical text: `[]`, or `[`, entries that are `null`
  /// or canonical decimals separated by single commas, `]`.
  static func isCanonical(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard utf8.count >= 2, utf8[0] == UInt8(ascii: "["), utf8[utf8.count - 1] == UInt8(ascii: "]")
    else { return false }
    var canonical = true
    forEachEntry(of: utf8) { entry in
      if canonical && !isNull(entry) && !ExactDecimal.isCanonical(entry) { canonical = false }
    }
    return canonical
  }

  /// Calls `body` with each comma-separated entry between the first and the last byte of
  /// `utf8` (the brackets); none for `[]`.
  private static func forEachEntry(
    of utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard utf8.count > 2 else { return }
    let end = utf8.count - 1
    var start = 1
    var index = 1
    while index <= end {
      if index == end || utf8[index] == UInt8(ascii: ",") {
        body(UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
      }
      index += 1
    }
  }

  private static func isNull(_ entry: UnsafeBufferPointer<UInt8>) -> Bool {
    entry.elementsEqual("null".utf8)
  }

  /// How Folio read the column before it kept the text: for text another program wrote.
  private static func readLeniently(_ text: String) -> [ExactDecimal?] {
    let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard body.hasPrefix("["), body.hasSuffix("]"), body.count > 2 else { return [] }
    return body.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
      .map { try? ExactDecimal(parsing: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }
}

extension Sparkline: RowDecodable {
  public static var expected: String { "TEXT" }
  /// TEXT, read with `init(storedText:)`.
  public static func decode(_ column: Column) -> Sparkline? {
    String.decode(column).map(Sparkline.init(storedText:))
  }
}
