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
    guard let start = try? Timestamp(parsing: text, .day) else { return nil }
    self = start.day
  }

  /// What a day option expects, for usage errors: the shape and the range of years.
  public static func expected(example: String) -> String {
    "a day from 1970-01-01 to 9999-12-31 such as \(example)"
  }

  /// The UTC day that `date` falls on.
  public init(containing date: Date) { self = Timestamp(date).day }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }

  /// `YYYY-MM-DD`.
  public var description: String { String(start.description.prefix(10)) }

  /// The first second of the day (`2024-03-01T00:00:00Z`).
  public var start: Timestamp { Timestamp(seconds: ordinal * 86_400) }

  /// The last second of the day (`2024-03-01T23:59:59Z`).
  public var end: Timestamp { next.start.adding(seconds: -1) }

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

  /// The same month and day `count` years later; 29 February becomes 28 February in a year
  /// that has none (so a lot bought on 29 February is a year old on 28 February).
  public func adding(years count: Int) -> CalendarDay {
    let (year, month, day) = Timestamp.civilDate(fromDays: ordinal)
    let target = year + Int64(count)
    let lastDay = Timestamp.daysIn(month: month, year: target)
    return CalendarDay(
      ordinal: Timestamp.days(year: target, month: month, day: min(day, lastDay)))
  }

  /// The first day of the day's year.
  public var firstOfYear: CalendarDay {
    let (year, _, _) = Timestamp.civilDate(fromDays: ordinal)
    return CalendarDay(ordinal: Timestamp.days(year: year, month: 1, day: 1))
  }
}
