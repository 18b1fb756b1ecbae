import FolioStorage
import Foundation

/// A calendar day in UTC, as reports and the daily history count them (`2024-03-01`).
/// A report "as of" a day covers everything before the start of the next day.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01.
  public let ordinal: Int64

  public init(ordinal: Int64) { self.ordinal = ordinal }

  /// Parses `YYYY-MM-DD` from 1970-01-01 to 9999-12-31 (the days Folio stores, as trade dates);
  /// nil for any other shape, an impossible date such as 2023-02-30, or a year out of range.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9]
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      digitsAt.allSatisfy({ bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }),
      text >= "1970-01-01", let date = MarketTime.parse(text)
    else { return nil }
    self.init(containing: date)
  }

  /// What a day option expects, for usage errors: the shape and the range of years.
  public static func expected(example: String) -> String {
    "a day from 1970-01-01 to 9999-12-31 such as \(example)"
  }

  /// The UTC day that `date` falls on.
  public init(containing date: Date) {
    let raw = date.timeIntervalSince1970
    let seconds = raw.isFinite ? max(-1e14, min(1e14, raw)) : 0
    ordinal = Int64((seconds / 86_400).rounded(.down))
  }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }

  /// `YYYY-MM-DD`.
  public var description: String {
    let (year, month, day) = Timestamp.civilDate(fromDays: ordinal)
    return String(format: "%04lld-%02lld-%02lld", year, month, day)
  }

  /// The first second of the day as Folio stores times: `2024-03-01T00:00:00Z`.
  public var start: String { description + "T00:00:00Z" }

  /// The first second of the day.
  public var startDate: Date { Date(timeIntervalSince1970: TimeInterval(ordinal) * 86_400) }

  /// The last second of the day: `2024-03-01T23:59:59Z`.
  public var end: String { description + "T23:59:59Z" }

  /// The day `count` days later (earlier when negative).
  public func adding(days count: Int) -> CalendarDay {
    CalendarDay(ordinal: ordinal + Int64(count))
  }

  /// The following day.
  public var next: CalendarDay { adding(days: 1) }

  /// The first day of the day's month.
  public var firstOfMonth: CalendarDay {
    let (year, month, _) = Timestamp.civilDate(fromDays: ordinal)
    return CalendarDay(ordinal: Timestamp.days(year: year, month: month, day: 1))
  }

  /// The first day of the day's year.
  public var firstOfYear: CalendarDay {
    let (year, _, _) = Timestamp.civilDate(fromDays: ordinal)
    return CalendarDay(ordinal: Timestamp.days(year: year, month: 1, day: 1))
  }
}
