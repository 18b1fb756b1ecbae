import Foundation
import Testing

@testable import FolioStorage

@Suite struct TimestampTests {
  @Test func formatsUTCToTheSecond() {
    let date = Date(timeIntervalSince1970: 1_709_294_400.9)  // 2024-03-01T12:00:00.9Z
    #expect(Timestamp.format(date) == "2024-03-01T12:00:00Z")
    #expect(Timestamp.compact(date) == "20240301T120000Z")
    #expect(Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
  }

  @Test func civilDatesRoundTrip() {
    for days: Int64 in [-719_468, -1, 0, 59, 60, 11_016, 19_783, 2_932_896] {
      let date = Timestamp.civilDate(fromDays: days)
      #expect(Timestamp.days(year: date.year, month: date.month, day: date.day) == days)
    }
    #expect(Timestamp.civilDate(fromDays: 19_783) == (2024, 3, 1))
  }

  @Test func impossibleDatesDoNotTrap() {
    #expect(Timestamp.format(Date(timeIntervalSince1970: .infinity)) == "1970-01-01T00:00:00Z")
    #expect(Timestamp.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
    #expect(Timestamp.format(Date(timeIntervalSince1970: 1e300)).hasSuffix("Z"))
  }
}
