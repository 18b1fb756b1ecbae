import FolioStorage
import Foundation

/// Reading the times and durations that market data and its options carry.
public enum MarketTime {
  /// Parses an ISO-8601 time as CoinGecko and users write it:
  /// `2024-01-24T00:28:52.794Z`, `2024-01-24T00:28:52Z`, `2024-01-24T01:28:52+01:00`,
  /// `2024-01-24 00:28` or a date alone (`2024-01-24`, midnight UTC). Fractions of a second are
  /// dropped. Returns nil for anything else, including impossible dates such as 2023-02-30.
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ count: Int) -> Int64? {
      guard index + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for offset in 0..<count {
        let byte = bytes[index + offset]
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      index += count
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else {
        return false
      }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      return nil
    }
    var seconds = Timestamp.days(year: year, month: month, day: day) * 86_400
    guard index < bytes.count else { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
    guard expect("T") || expect("t") || expect(" "),
      let hour = number(2), expect(":"), let minute = number(2)
    else { return nil }
    var second: Int64 = 0
    if expect(":") {
      guard let value = number(2) else { return nil }
      second = value
      if expect(".") {
        let start = index
        while index < bytes.count && bytes[index] >= UInt8(ascii: "0")
          && bytes[index] <= UInt8(ascii: "9")
        {
          index += 1
        }
        guard index > start else { return nil }
      }
    }
    guard hour < 24, minute < 60, second < 60 else { return nil }
    seconds += hour * 3600 + minute * 60 + second
    if index == bytes.count || expect("Z") || expect("z") {
      return index == bytes.count ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil
    }
    let sign: Int64
    if expect("+") {
      sign = 1
    } else if expect("-") {
      sign = -1
    } else {
      return nil
    }
    guard let offsetHours = number(2) else { return nil }
    _ = expect(":")
    guard let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60,
      index == bytes.count
    else { return nil }
    seconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// Parses a time and formats it the way Folio stores times (`2024-01-24T00:28:52Z`).
  public static func normalize(_ text: String) -> String? {
    parse(text).map(Timestamp.format)
  }

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

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
