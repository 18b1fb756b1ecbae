/// bash's side of shell completion (`folio completions bash`).
///
/// bash gives a completion function the command line up to the cursor (`COMP_LINE`,
/// `COMP_POINT`) and the text readline will replace (`$2`: the end of the word under the cursor,
/// after an open quote or a word-break character such as `=`), and inserts each word the function
/// puts in `COMPREPLY` as it is, unquoted. So the function hands both to
/// `folio __complete-bash TEXT LINE`, which reads the words as bash will when the line is run and
/// prints each candidate as the text to put in place of TEXT, quoted as the word under the cursor
/// is: inside the '…' or "…" the user opened, else with backslashes. A candidate is never run,
/// whatever it holds (`$(…)`, backquotes, quotes, `!`, globs); one holding a newline or another
/// control character is never offered (`Completion.offerable`).
enum BashCompletion {
  /// The hidden first word that asks for bash's replies.
  static let command = "__complete-bash"

  /// The quote open where the cursor is.
  enum Quote: Equatable {
    case none, single, double
  }

  /// The command line up to the cursor, read as bash reads it.
  struct Line: Equatable {
    /// The words before the one under the cursor, unquoted; the first is the command.
    var words: [String] = []
    /// The word under the cursor as typed, and unquoted.
    var raw = ""
    var value = ""
    var quote = Quote.none
    /// A backslash outside quotes ends the word: it quotes the next character.
    var pendingEscape = false
    /// False when the word holds an expansion (`$x`, `$(…)`, backquotes, `$'…'`) or ends
    /// with a backslash inside "…": what it stands for is not known until the line runs.
    var plain = true
  }

  /// Reads `text`, the command line up to the cursor.
  static func read(_ text: String) -> Line {
    var line = Line()
    var started = false
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch line.quote {
      case .single:
        line.raw.unicodeScalars.append(scalar)
        if scalar == "'" {
          line.quote = .none
        } else {
          line.value.unicodeScalars.append(scalar)
        }
      case .double:
        line.raw.unicodeScalars.append(scalar)
        switch scalar {
        case "\"":
          line.quote = .none
        case "\\":
          guard index < scalars.count else {
            line.plain = false
            break
          }
          let quoted = scalars[index]
          index += 1
          line.raw.unicodeScalars.append(quoted)
          if "$`\"\\".unicodeScalars.contains(quoted) {
            line.value.unicodeScalars.append(quoted)
          } else if quoted != "\n" {
            line.value.unicodeScalars.append(contentsOf: [scalar, quoted])
          }
        case "$", "`":
          line.plain = false
          line.value.unicodeScalars.append(scalar)
        default:
          line.value.unicodeScalars.append(scalar)
        }
      case .none:
        if " \t\n;&|<>()".unicodeScalars.contains(scalar) {
          if started { line.words.append(line.value) }
          (line.raw, line.value, line.plain, started) = ("", "", true, false)
          continue
        }
        started = true
        line.raw.unicodeScalars.append(scalar)
        switch scalar {
        case "\\":
          guard index < scalars.count else {
            line.pendingEscape = true
            break
          }
          let quoted = scalars[index]
          index += 1
          line.raw.unicodeScalars.append(quoted)
          if quoted != "\n" { line.value.unicodeScalars.append(quoted) }
        case "'":
          line.quote = .single
        case "\"":
          line.quote = .double
        case "$", "`":
          line.plain = false
          line.value.unicodeScalars.append(scalar)
        default:
          line.value.unicodeScalars.append(scalar)
        }
      }
    }
    return line
  }

  /// What to put in place of `text` (readline's part of the word under the cursor) for each of
  /// `candidates`: the word as typed, then the rest of the candidate quoted as the word is, and
  /// the quote closed when it is the only one. None when the word holds an expansion, or `text`
  /// is not its end.
  static func replies(_ candidates: [String], line: Line, text: String) -> [String] {
    let typed = line.raw.unicodeScalars
    guard line.plain, typed.count >= text.unicodeScalars.count,
      typed.reversed().starts(with: text.unicodeScalars.reversed())
    else { return [] }
    let kept = typed.count - text.unicodeScalars.count
    let typedValue = line.value.unicodeScalars
    let rests = candidates.compactMap { candidate -> [Unicode.Scalar]? in
      guard candidate.unicodeScalars.starts(with: typedValue) else { return nil }
      let rest = Array(candidate.unicodeScalars.dropFirst(typedValue.count))
      // A typed backslash quotes the next character: there must be one.
      return line.pendingEscape && rest.isEmpty ? nil : rest
    }
    // Of several replies readline inserts what they share and lists them: without the closing
    // quote, which only a single reply needs.
    let closing = rests.count == 1
    return rests.compactMap { rest -> String? in
      var word = line.raw
      switch line.quote {
      case .none where line.pendingEscape:
        guard let first = rest.first else { return nil }
        word.unicodeScalars.append(first)
        word += backslashed(rest.dropFirst())
      case .none:
        word += backslashed(rest[...])
      case .single:
        word += rest.map { $0 == "'" ? "'\\''" : String($0) }.joined() + (closing ? "'" : "")
      case .double:
        word += doubleQuoted(rest[...]) + (closing ? "\"" : "")
      }
      var reply = String(String.UnicodeScalarView(word.unicodeScalars.dropFirst(kept)))
      // readline drops a reply's first character when it is the quote just opened (it does
      // not double it): give it one to drop.
      if let quote = line.quote.character, reply.unicodeScalars.first == quote {
        reply = String(quote) + reply
      }
      return reply
    }
  }

  /// `rest` for outside quotes: a backslash before each character bash would read as more than
  /// itself. Letters beyond ASCII stay as they are, as do `_ - . / + , : @ % =`.
  static func backslashed(_ rest: ArraySlice<Unicode.Scalar>) -> String {
    var out = String.UnicodeScalarView()
    for scalar in rest {
      let plain =
        !scalar.isASCII || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        || "_-./+,:@%=".unicodeScalars.contains(scalar)
      if !plain { out.append("\\") }
      out.append(scalar)
    }
    return String(out)
  }

  /// `rest` for inside "…": a backslash before `$`, backquote, `"` and `\`; a `!` (history
  /// expansion, which no quoting inside "…" stops) outside the quotes: `"\!"`.
  static func doubleQuoted(_ rest: ArraySlice<Unicode.Scalar>) -> String {
    var out = ""
    for scalar in rest {
      switch scalar {
      case "$", "`", "\"", "\\": out += "\\" + String(scalar)
      case "!": out += "\"\\!\""
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension BashCompletion.Quote {
  fileprivate var character: Unicode.Scalar? {
    switch self {
    case .none: return nil
    case .single: return "'"
    case .double: return "\""
    }
  }
}
