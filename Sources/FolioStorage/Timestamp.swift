import Foundation

/// UTC ISO-8601 timestamps as Folio stores them: `2024-03-01T12:00:00Z`.
public enum Timestamp {
  /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC (whole seconds).
  public static func format(_ date: Date) -> String {
    let parts = components(date)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(21)
    func digits(_ value: Int, _ count: Int) {
      var divisor = 1
      for _ in 1..<count { divisor *= 10 }
      var rest = value
      while divisor > 0 {
        bytes.append(UInt8(truncatingIfNeeded: 48 + rest / divisor % 10))
        rest %= divisor
        divisor /= 10
      }
    }
    digits(parts.year, parts.year > 9999 ? 5 : 4)
    bytes.append(45)
    digits(parts.month, 2)
    bytes.append(45)
    digits(parts.day, 2)
    bytes.append(84)
    digits(parts.hour, 2)
    bytes.append(58)
    digits(parts.minute, 2)
    bytes.append(58)
    digits(parts.second, 2)
    bytes.append(90)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Formats `date` as `YYYYMMDDTHHMMSSZ`, for file names.
  public static func compact(_ date: Date) -> String {
    let parts = components(date)
    return String(
      format: "%04d%02d%02dT%02d%02d%02dZ", parts.year, parts.month, parts.day, parts.hour,
      parts.minute, parts.second)
  }

  private static func components(_ date: Date) -> (
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) {
    // No clock or parsed timestamp is beyond ±10^14 s (three million years) or not finite;
    // such a date is clamped rather than allowed to trap in the conversion to Int64.
    let raw = date.timeIntervalSince1970.rounded(.down)
    var seconds = raw.isFinite ? Int64(max(-1e14, min(1e14, raw))) : 0
    var days = seconds / 86_400
    seconds -= days * 86_400
    if seconds < 0 {
      seconds += 86_400
      days -= 1
    }
    let (year, month, day) = civilDate(fromDays: days)
    return (
      Int(year), Int(month), Int(day), Int(seconds / 3600), Int(seconds % 3600 / 60),
      Int(seconds % 60)
    )
  }

  /// Converts days since 1970-01-01 to a proleptic Gregorian (year, month, day)
  /// (Howard Hinnant's `civil_from_days`).
  public static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Converts a proleptic Gregorian date to days since 1970-01-01 (`days_from_civil`).
  public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
