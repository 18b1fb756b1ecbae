import FolioService
import Foundation

/// `--out FILE`: write the output to a file instead of standard output.
struct OutputOption: ParsableArguments {
  @Option(valueName: "file", help: "Write to this file (replacing it) instead of standard output.")
  var out: String?

  /// Runs `body` on the file named with `--out` (through the one output-file writer), else on
  /// standard output; returns the file's name, made safe to show, when a file was written.
  func write(_ context: Context, _ body: (any TextSink) throws -> Void) throws -> String? {
    guard let out else {
      try body(context.out)
      return nil
    }
    try context.writeOutput(to: out) { try body($0) }
    return FolioCLI.visible(out)
  }
}

/// `--new-coin`: accept a coin id the coin directory does not know, and add it there.
struct NewCoinOption: ParsableArguments {
  @Flag(help: "Accept a coin id the coin directory does not know, and add it there.")
  var newCoin: Bool
}

/// `--limit N`: a whole number of at least 1.
struct Limit: ExpressibleByArgument {
  let value: Int

  init(_ value: Int) { self.value = value }

  init?(argument: String) {
    guard let value = Int(argument), value >= 1 else { return nil }
    self.value = value
  }

  static let expected = "a whole number of at least 1"
  static let placeholder: String? = "n"
}
