import FolioService
import Foundation

/// The manual page `folio(1)`, generated from the command declarations as the help is; the
/// checked-in docs/man/folio.1 is this text (`ManPageTests` fails when it is out of date:
/// regenerate it with `swift run folio __man > docs/man/folio.1`).
enum ManPage {
  /// The hidden first word that prints the page.
  static let command = "__man"

  static func render(_ root: CommandSpec) -> String {
    var page = """
      .TH FOLIO 1 "" "folio \(roff(folioVersion))" "User Commands"
      .SH NAME
      folio \\- \(roff(root.abstract))
      .SH SYNOPSIS
      .B folio
      [\\fB\\-\\-db\\fR \\fIpath\\fR] [\\fB\\-\\-portfolio\\fR \\fIname\\fR] \\fIcommand\\fR [\\fIoptions\\fR]
      .SH DESCRIPTION

      """
    page += paragraphs(root.discussion ?? "")
    page += ".SH GLOBAL OPTIONS\n"
    for option in GlobalOptions.specs + [Parser.helpOption, Parser.versionOption] {
      page += item(option.synopsis, option.help)
    }
    page += ".SH COMMANDS\n"
    for group in Root.overviewGroups {
      for name in group.commands {
        guard let command = root.subcommand(name) else { continue }
        page += commands(command, path: [root.name, name])
      }
    }
    page += """
      .SH ENVIRONMENT
      .TP
      .B FOLIO_DB
      The database file when \\fB\\-\\-db\\fR is not given.
      .TP
      .B FOLIO_PORTFOLIO
      The portfolio when \\fB\\-\\-portfolio\\fR is not given.
      .TP
      .B NO_COLOR
      No colour in the output when set.
      .SH FILES
      .TP
      .I ~/.local/share/folio/folio.sqlite3
      The default database ($XDG_DATA_HOME/folio/folio.sqlite3).
      .SH SEE ALSO
      README.md and docs/*.md of the Folio sources; \\fBfolio help\\fR \\fIcommand\\fR.

      """
    return page
  }

  /// The section of `spec` and of every command under it.
  private static func commands(_ spec: CommandSpec, path: [String]) -> String {
    var text = ""
    if spec.make != nil {
      text += ".SS \"\(roff(Help.usage(path: path, spec: spec)))\"\n"
      text += paragraphs(spec.abstract)
      if let discussion = spec.discussion { text += paragraphs(discussion) }
      for argument in spec.arguments { text += item("<\(argument.name)>", argument.help) }
      for option in spec.options { text += item(option.synopsis, option.help) }
    }
    for sub in spec.subcommands { text += commands(sub, path: path + [sub.name]) }
    return text
  }

  private static func item(_ term: String, _ help: String) -> String {
    ".TP\n.B \(roff(term))\n\(roff(help))\n"
  }

  /// Each paragraph of `text` (separated by a blank line) as a roff paragraph; indented
  /// lines (examples) keep their line breaks.
  private static func paragraphs(_ text: String) -> String {
    text.components(separatedBy: "\n\n").map { paragraph in
      let lines = paragraph.split(separator: "\n").map(String.init)
      guard lines.contains(where: { $0.hasPrefix(" ") }) else {
        return ".PP\n" + roff(lines.joined(separator: " ")) + "\n"
      }
      return ".PP\n.nf\n" + lines.map(roff).joined(separator: "\n") + "\n.fi\n"
    }.joined()
  }

  /// `text` safe in roff: backslashes and dashes escaped, a leading dot or quote guarded.
  static func roff(_ text: String) -> String {
    var escaped = text.replacingOccurrences(of: "\\", with: "\\e")
      .replacingOccurrences(of: "-", with: "\\-")
    if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
    return escaped
  }
}
