import Foundation

/// The one progress line of every command (`import trades`, `market refresh`, `market
/// history`): one line on stderr, rewritten in place (`\r` and erase-line), cut to the width
/// of stderr's terminal (`COLUMNS`, else TIOCGWINSZ of stderr) so it never wraps, and erased
/// by `finish`.
/// Nothing is written unless stderr is a terminal, and never when `TERM` is `dumb` (a
/// terminal that cannot erase a line), so logs and pipes never see it. Each change is
/// flushed at once, so the line shows while the work goes on.
final class ProgressLine {
  private let context: Context
  /// True when the line is drawn at all.
  let enabled: Bool
  /// The columns the line may use: one less than the terminal's, so the cursor stays on it.
  let width: Int
  private var shown = false

  init(_ context: Context) {
    self.context = context
    enabled = context.stderrIsTerminal && context.environment["TERM"] != "dumb"
    // Sized by the terminal it is drawn on, stderr, whatever stdout is.
    width =
      TextLayout.width(
        environment: context.environment, stdoutIsTerminal: context.stderrIsTerminal,
        terminalColumns: TextLayout.terminalColumns(of: STDERR_FILENO)) - 1
  }

  /// Shows `folio: <message>…` in place of the previous line.
  func show(_ message: String) {
    guard enabled else { return }
    let line = TextLayout.shortened("folio: " + FolioCLI.oneLine(message) + "…", to: width)
    context.err.write("\r\u{1B}[K" + line)
    // stderr is buffered like stdout (DescriptorWriter): without a flush the line would
    // appear only at exit, already erased.
    context.err.flush()
    shown = true
  }

  /// Erases the line, if one is shown, so what follows starts on a clean line.
  func finish() {
    guard shown else { return }
    context.err.write("\r\u{1B}[K")
    context.err.flush()
    shown = false
  }
}
