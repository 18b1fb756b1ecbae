import Foundation

/// How wide text output may be, and how text is measured, shortened and wrapped to fit: the
/// one place that knows about display columns. Tables (`TextTable`), help, charts and prose
/// lines all fit the width through it.
enum TextLayout {
  /// The width text output fits: `COLUMNS` when it is a positive number, else the width of the
  /// terminal stdout is (`terminalColumns`, read by `terminalColumns(of:)`), else 80 — the
  /// width assumed for a pipe or a file. Never below `narrowest`.
  static func width(
    environment: [String: String], stdoutIsTerminal: Bool, terminalColumns: Int?
  ) -> Int {
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
      return max(columns, narrowest)
    }
    if stdoutIsTerminal, let terminalColumns, terminalColumns > 0 {
      return max(terminalColumns, narrowest)
    }
    return 80
  }

  /// The width below which nothing is shortened further: a table keeps its first columns.
  static let narrowest = 20

  /// The columns of the terminal `descriptor` is, or nil when it is none (TIOCGWINSZ).
  static func terminalColumns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  // MARK: - Measuring

  /// The columns `text` takes on a terminal: East Asian wide and fullwidth characters and
  /// emoji take two, combining marks none, every other character one. Text reaching a
  /// terminal has been through `FolioCLI.visible`, so it holds no control characters.
  static func columns<S: StringProtocol>(_ text: S) -> Int {
    // Printable ASCII, nearly every cell of a table, takes a column a byte; asking Unicode's
    // tables about each character cost a table of 100,000 trades three seconds.
    let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy(isPrintableASCII) ? bytes.count : nil
    }
    if let count = ascii ?? nil { return count }
    return text.reduce(0) { $0 + columns(of: $1) }
  }

  /// True for the bytes of printable ASCII, a space to a tilde: one column each, and never a
  /// part of a longer character but for a combining mark that follows (which takes none).
  static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

  private static func columns(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if first.value >= 0x20 && first.value < 0x7F { return 1 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if first.properties.isEmojiPresentation { return 2 }
    switch first.value {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
      0x17000...0x18AFF, 0x1B000...0x1B16F, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// `text` cut to at most `width` columns, ending in "…" when anything was cut.
  static func shortened(_ text: String, to width: Int) -> String {
    guard columns(text) > width else { return text }
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let size = columns(of: character)
      if used + size > width - 1 { break }
      result.append(character)
      used += size
    }
    return result.trimmingTrailingSpaces() + "…"
  }

  // MARK: - Wrapping

  /// `text` with each line longer than `width` broken at spaces; a broken line's continuation
  /// starts with the line's own indentation and `indent` spaces more. A word too long for
  /// any line stays whole on a line of its own (a URL, a path); a list of values such as
  /// `a|b|c` breaks after a '|'.
  static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      fill(
        String(line), width: width,
        continuation: line.prefix { $0 == " " } + String(repeating: " ", count: indent))
    }.joined(separator: "\n")
  }

  /// One line broken at spaces into lines of at most `width` columns, each after the first
  /// starting with `continuation`. The spaces between words that stay on one line are kept
  /// as they were (aligned fields stay aligned), and a quoted command
  /// (`'folio report backfill --since DAY'`) is kept on one line when it fits one.
  static func fill(_ line: String, width: Int, continuation: String) -> String {
    guard columns(line) > width else { return line }
    // Each piece with what joins it to the piece before: the spaces before it, or nothing
    // inside a word.
    var pieces: [(text: Substring, joiner: String)] = []
    var rest = line.drop { $0 == " " }
    while let start = rest.firstIndex(where: { $0 != " " }) {
      let gap = String(rest[..<start])
      var end = rest[start...].firstIndex(of: " ") ?? rest.endIndex
      // The quote may follow an opening parenthesis: ('folio market history').
      let opening = rest[start...].prefix { $0 == "(" }.endIndex
      if opening < rest.endIndex, rest[opening] == "'",
        let close = rest[rest.index(after: opening)...].firstIndex(of: "'"), close > end
      {
        let quoted = rest[close...].firstIndex(of: " ") ?? rest.endIndex
        if columns(rest[start..<quoted]) <= width - continuation.count { end = quoted }
      }
      let word = rest[start..<end]
      rest = rest[end...]
      let room = max(1, width - continuation.count)
      // Text in a script written without spaces (Chinese, Japanese) may break before or after
      // any of its wide characters; a run of other characters (a URL, a path, an escape such
      // as `\u{200D}`) never breaks.
      if columns(word) > room, word.contains(where: { columns(of: $0) == 2 }) {
        var runStart = word.startIndex
        var joiner = gap
        for index in word.indices where columns(of: word[index]) == 2 {
          if runStart < index {
            pieces.append((word[runStart..<index], joiner))
            joiner = ""
          }
          pieces.append((word[index...index], joiner))
          joiner = ""
          runStart = word.index(after: index)
        }
        if runStart < word.endIndex { pieces.append((word[runStart...], joiner)) }
        continue
      }
      guard columns(word) > room, word.contains("|") else {
        pieces.append((word, gap))
        continue
      }
      var remaining = word[...]
      var joiner = gap
      while let bar = remaining.firstIndex(of: "|"),
        remaining.index(after: bar) < remaining.endIndex
      {
        pieces.append((remaining[...bar], joiner))
        remaining = remaining[remaining.index(after: bar)...]
        joiner = ""
      }
      pieces.append((remaining, joiner))
    }
    var lines: [String] = []
    var current = String(line.prefix { $0 == " " })
    var used = current.count
    var empty = true
    for piece in pieces {
      let size = columns(piece.text)
      if !empty && used + piece.joiner.count + size > width {
        // A line is broken where the text had a space (or after a '|'); the space goes.
        lines.append(current)
        current = continuation + piece.text
        used = continuation.count + size
      } else {
        current += (empty ? "" : piece.joiner) + piece.text
        used += (empty ? 0 : piece.joiner.count) + size
      }
      empty = false
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }
}
