/// Renders help text in swift-argument-parser's layout:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, at most `width` columns wide.
enum Help {
  /// The widest line of any help text.
  static let width = 80

  /// What a bare `folio` prints: the commands in `Root.overviewGroups`, the most used first.
  static func overview(_ root: CommandSpec) -> String {
    var text = wrap(root.abstract) + "\n"
    for group in Root.overviewGroups {
      text += "\n\(group.title):\n"
      for name in group.commands {
        guard let command = root.subcommand(name) else { continue }
        text += row(name, command.abstract, indent: 2, column: 14)
      }
    }
    text += "\nStart with 'folio demo' to try it on sample data.\n"
    text += "'folio help <command>' (or 'folio <command> --help') shows a command's options.\n"
    return text
  }

  /// `text` with each line longer than `width` broken at spaces; a broken line's
  /// continuation keeps that line's indentation.
  static func wrap(_ text: String, indent: Int = 0) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      let lead = String(repeating: " ", count: indent) + String(line.prefix { $0 == " " })
      return fill(String(line), width: width, continuation: lead)
    }.joined(separator: "\n")
  }

  /// A discussion refilled to `width`: the lines of a paragraph that starts at the margin
  /// are joined and broken again; indented lines (examples, lists) are only wrapped.
  static func reflow(_ text: String) -> String {
    var paragraphs: [[Substring]] = [[]]
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty || line.first == " " || line.first == "-" {
        paragraphs.append([line])
        if line.isEmpty { paragraphs.append([]) }
      } else {
        paragraphs[paragraphs.count - 1].append(line)
      }
    }
    return paragraphs.filter { !$0.isEmpty }.map { lines in
      lines.count == 1 && (lines[0].isEmpty || lines[0].first == " " || lines[0].first == "-")
        ? wrap(String(lines[0]))
        : fill(lines.joined(separator: " "), width: width, continuation: "")
    }.joined(separator: "\n")
  }

  /// `line` broken at spaces into lines of at most `width` columns, each after the first
  /// starting with `continuation`. A word too long for a line (a list of values such as
  /// `a|b|c`) breaks after a '|'.
  private static func fill(_ line: String, width: Int, continuation: String) -> String {
    guard line.count > width else { return line }
    // Each piece with what joins it to the piece before: a space, or nothing inside a word.
    var pieces: [(text: Substring, joiner: String)] = []
    for word in line.drop(while: { $0 == " " }).split(separator: " ") {
      guard word.count > width - continuation.count, word.contains("|") else {
        pieces.append((word, " "))
        continue
      }
      var rest = word[...]
      var joiner = " "
      while let bar = rest.firstIndex(of: "|"), rest.index(after: bar) < rest.endIndex {
        pieces.append((rest[...bar], joiner))
        rest = rest[rest.index(after: bar)...]
        joiner = ""
      }
      pieces.append((rest, joiner))
    }
    var lines: [String] = []
    var current = String(line.prefix { $0 == " " })
    var empty = true
    for piece in pieces {
      if !empty && current.count + piece.joiner.count + piece.text.count > width {
        lines.append(current)
        current = continuation + piece.text
      } else {
        current += (empty ? "" : piece.joiner) + piece.text
      }
      empty = false
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }

  /// The one-line usage of the command at `path`.
  static func usage(path: [String], spec: CommandSpec) -> String {
    var parts = path
    if !spec.subcommands.isEmpty {
      // A group that also runs by itself (`folio report`) takes its subcommand optionally.
      parts.append(spec.make == nil ? "<subcommand>" : "[<subcommand>]")
    } else {
      parts += spec.arguments.map(\.synopsis)
    }
    if !spec.options.isEmpty || spec.subcommands.isEmpty { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  /// The whole help text of the command at `path`.
  static func text(path: [String], spec: CommandSpec) -> String {
    var text =
      fill("OVERVIEW: \(spec.abstract)", width: width, continuation: "          ") + "\n"
    if let discussion = spec.discussion { text += "\n\(reflow(discussion))\n" }
    text +=
      "\n" + fill("USAGE: \(usage(path: path, spec: spec))", width: width, continuation: "       ")
      + "\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      text += spec.arguments.map { row("<\($0.name)>", $0.help) }.joined()
    }
    text += "\nOPTIONS:\n"
    let options =
      spec.options + GlobalOptions.specs + [Parser.helpOption]
      + (path.count == 1 ? [Parser.versionOption] : [])
    text += options.map { option in
      let help = option.name == "portfolio" ? spec.portfolioHelp ?? option.help : option.help
      return row(option.synopsis, help)
    }.joined()
    if !spec.subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      text += spec.subcommands.map { row($0.name, $0.abstract) }.joined()
      let group = path.dropFirst().map { " " + $0 }.joined()
      text += "\n  See 'folio help\(group) <subcommand>' for detailed help.\n"
    }
    return text
  }

  /// `left` indented, then `right` from `column` on, wrapped to `width` with its
  /// continuation lines at `column`.
  private static func row(_ left: String, _ right: String, indent: Int = 2, column: Int = 26)
    -> String
  {
    let padded = String(repeating: " ", count: indent) + left
    let gap = String(repeating: " ", count: column)
    let body = fill(gap + right, width: width, continuation: gap)
    if padded.count < column - 1 {
      return padded + body.dropFirst(padded.count) + "\n"
    }
    return padded + "\n" + body + "\n"
  }
}
