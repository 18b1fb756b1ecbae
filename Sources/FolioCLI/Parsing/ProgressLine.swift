import Foundation

/// The one progress line of every command (`import trades`, `market refresh`, `market
/// history`): one line on stderr, rewritten in place (`\r` and erase-line), cut to the
/// terminal's width (`COLUMNS`, else 80 columns) so it never wraps, and erased by `finish`.
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
    width = Self.columns(context.environment) - 1
  }

  /// The terminal's width from `COLUMNS` (a number from 10 to 10000), else 80.
  static func columns(_ environment: [String: String]) -> Int {
    guard let text = environment["COLUMNS"], let columns = Int(text),
      (10...10_000).contains(columns)
    else { return 80 }
    return columns
  }

  /// Shows `folio: <message>…` in place of the previous line.
  func show(_ message: String) {
    guard enabled else { return }
    var line = "folio: " + FolioCLI.oneLine(message)
    if line.count + 1 > width {
      line = String(line.prefix(max(0, width - 1)))
    }
    context.err.write("\r\u{1B}[K" + line + "…")
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
