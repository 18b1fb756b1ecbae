/// Renders help text in swift-argument-parser's layout:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, at most `width` columns wide.
enum Help {
  /// The widest line of any help text: help fits a narrower terminal (`TextLayout.width`),
  /// and is never wider than this, which reads best.
  static let widest = 80

  /// What a bare `folio` prints: the commands in `Root.overviewGroups`, the most used first.
  static func overview(_ root: CommandSpec, width: Int = widest) -> String {
    let width = min(width, widest)
    var text = TextLayout.wrap(root.abstract, width: width) + "\n"
    for group in Root.overviewGroups {
      text += "\n\(group.title):\n"
      for name in group.commands {
        guard let command = root.subcommand(name) else { continue }
        text += row(name, command.abstract, indent: 2, column: 14, width: width)
      }
    }
    text += TextLayout.wrap(
      "\nStart with 'folio demo' to try it on sample data.\n"
        + "'folio help <command>' (or 'folio <command> --help') shows a command's options.\n",
      width: width)
    return text
  }

  /// A discussion refilled to `width`: the lines of a paragraph that starts at the margin
  /// are joined and broken again; indented lines (examples, lists) are only wrapped.
  static func reflow(_ text: String, width: Int = widest) -> String {
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
        ? TextLayout.wrap(String(lines[0]), width: width)
        : TextLayout.fill(lines.joined(separator: " "), width: width, continuation: "")
    }.joined(separator: "\n")
  }

  /// The one-line usage of the command at `path`.
  static func usage(path: [String], spec: CommandSpec) -> String {
    var parts = path
    if spec.hasSubcommands {
      // A group that also runs by itself (`folio report`) takes its subcommand optionally.
      parts.append(spec.make == nil ? "<subcommand>" : "[<subcommand>]")
    } else {
      parts += spec.arguments.map(\.synopsis)
    }
    if !spec.options.isEmpty || !spec.hasSubcommands { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  /// The whole help text of the command at `path`.
  static func text(path: [String], spec: CommandSpec, width: Int = widest) -> String {
    let width = min(width, widest)
    func row(_ left: String, _ right: String) -> String {
      Help.row(left, right, width: width)
    }
    var text =
      TextLayout.fill("OVERVIEW: \(spec.abstract)", width: width, continuation: "          ") + "\n"
    if let discussion = spec.discussion { text += "\n\(reflow(discussion, width: width))\n" }
    text +=
      "\n"
      + TextLayout.fill(
        "USAGE: \(usage(path: path, spec: spec))", width: width, continuation: "       ")
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
    if spec.hasSubcommands {
      text += "\nSUBCOMMANDS:\n"
      text += spec.subcommands.map { row($0.name, $0.abstract) }.joined()
      let group = path.dropFirst().map { " " + $0 }.joined()
      text += TextLayout.wrap(
        "\n  See 'folio help\(group) <subcommand>' for detailed help.\n", width: width)
    }
    return text
  }

  /// `left` indented, then `right` from `column` on, wrapped to `width` with its
  /// continuation lines at `column`.
  private static func row(
    _ left: String, _ right: String, indent: Int = 2, column: Int = 26, width: Int
  ) -> String {
    // A narrow terminal moves the descriptions left rather than squeezing them.
    let column = min(column, max(indent + 2, width / 3))
    // A synopsis too long for the line (`--kind <staking|interest|…>`) breaks after a '|'.
    let padded = TextLayout.fill(
      String(repeating: " ", count: indent) + left, width: width,
      continuation: String(repeating: " ", count: indent + 4))
    let gap = String(repeating: " ", count: column)
    let body = TextLayout.fill(gap + right, width: width, continuation: gap)
    if padded.count < column - 1 {
      return padded + body.dropFirst(padded.count) + "\n"
    }
    return padded + "\n" + body + "\n"
  }
}
