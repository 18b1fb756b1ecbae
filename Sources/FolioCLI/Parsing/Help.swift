/// Renders help text in swift-argument-parser's layout:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum Help {
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
    var text = "OVERVIEW: \(spec.abstract)\n"
    if let discussion = spec.discussion { text += "\n\(discussion)\n" }
    text += "\nUSAGE: \(usage(path: path, spec: spec))\n"
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

  private static func row(_ left: String, _ right: String) -> String {
    let width = 26
    let padded = "  " + left
    if padded.count < width {
      return padded + String(repeating: " ", count: width - padded.count) + right + "\n"
    }
    return padded + "\n" + String(repeating: " ", count: width) + right + "\n"
  }
}
