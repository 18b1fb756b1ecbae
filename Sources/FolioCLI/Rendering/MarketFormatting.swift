import FolioService
import FolioStorage
import Foundation

/// How market output words what is not a figure (figures are `Formatting`'s): snapshot
/// sources, wrapped text and colour.
enum MarketFormat {
  // MARK: - Sources and times

  /// Where a snapshot came from, briefly: `imported from markets_usd.json` or
  /// `fetched from api.coingecko.com`.
  static func source(_ source: String) -> String {
    if source.hasPrefix("import:") {
      return "imported from " + PathName.name(of: String(source.dropFirst(7)))
    }
    return "fetched from " + (URL(string: source)?.host ?? source)
  }

  /// The line every price output starts with.
  static func snapshotLine(_ snapshot: MarketSnapshotRef) -> String {
    "Prices in \(snapshot.vsCurrency.uppercased()) as of \(snapshot.fetchedAt) "
      + "(\(source(snapshot.source)))"
  }

  // MARK: - Text

  // MARK: - Colour

  /// `text` in green (up) or red (down) when colour is on.
  static func colored(_ text: String, up: Bool?, _ useColor: Bool) -> String {
    guard useColor, let up else { return text }
    return (up ? "\u{1B}[32m" : "\u{1B}[31m") + text + "\u{1B}[0m"
  }

  /// True for a positive change, false for a negative one, nil for none.
  static func direction(_ value: ExactDecimal?) -> Bool? {
    guard let value, !value.isZero else { return nil }
    return value.isPositive
  }
}
