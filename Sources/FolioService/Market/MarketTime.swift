import Foundation

/// Reading and writing the durations that market options carry (`30m`, `7d`, `1d12h`).
public enum MarketTime {
  /// Parses a duration such as `90s`, `30m`, `24h`, `7d`, `2w` or `1d12h` into seconds.
  /// Returns nil for anything else (a bare number has no unit and is refused).
  public static func parseDuration(_ text: String) -> TimeInterval? {
    var total: Int64 = 0
    var current: Int64 = 0
    var sawDigit = false
    var sawPart = false
    for character in text {
      if let digit = character.wholeNumberValue, character.isASCII {
        let (next, overflow) = current.multipliedReportingOverflow(by: 10)
        guard !overflow, next <= 10_000_000_000 else { return nil }
        current = next + Int64(digit)
        sawDigit = true
        continue
      }
      let unit: Int64
      switch character {
      case "s": unit = 1
      case "m": unit = 60
      case "h": unit = 3600
      case "d": unit = 86_400
      case "w": unit = 604_800
      default: return nil
      }
      guard sawDigit else { return nil }
      let (part, overflow) = current.multipliedReportingOverflow(by: unit)
      guard !overflow else { return nil }
      let (sum, sumOverflow) = total.addingReportingOverflow(part)
      guard !sumOverflow else { return nil }
      total = sum
      current = 0
      sawDigit = false
      sawPart = true
    }
    guard sawPart, !sawDigit else { return nil }
    return TimeInterval(total)
  }

  /// Writes a number of seconds the way `parseDuration` reads it, largest units first
  /// (`1d12h`, `45m`, `0s`). With `units`, only that many of the largest units are written
  /// (rounded down): `1041d7h` rather than `1041d7h37m14s`.
  public static func formatDuration(_ interval: TimeInterval, units: Int = 4) -> String {
    var seconds = Int64(max(0, min(interval, 1e15).rounded(.down)))
    guard seconds > 0 else { return "0s" }
    var text = ""
    var written = 0
    for (unit, name) in [(Int64(86_400), "d"), (3600, "h"), (60, "m"), (1, "s")]
    where written < units {
      let count = seconds / unit
      if count > 0 {
        text += "\(count)\(name)"
        written += 1
      } else if written > 0 {
        written += 1
      }
      seconds %= unit
    }
    return text
  }
}
