import Foundation
import Testing

@testable import FolioService

@Suite struct CalendarDayTests {
  @Test func parsesOnlyRealDaysInTheExactShape() {
    #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
    for text in ["2023-02-29", "2024-1-05", "2024-01-05T00:00:00Z", "20240105", "", "2024-13-01"] {
      #expect(CalendarDay(text) == nil, "\(text)")
    }
  }

  @Test func boundsMonthsAndYears() throws {
    let day = try #require(CalendarDay("2024-03-15"))
    #expect(day.start == "2024-03-15T00:00:00Z")
    #expect(day.end == "2024-03-15T23:59:59Z")
    #expect(day.next.description == "2024-03-16")
    #expect(day.firstOfMonth.description == "2024-03-01")
    #expect(day.firstOfYear.description == "2024-01-01")
    #expect(day.adding(days: -15).description == "2024-02-29")
    #expect(
      CalendarDay(containing: Date(timeIntervalSince1970: 1_706_227_199)).description
        == "2024-01-25")
    #expect(CalendarDay(containing: Date(timeIntervalSince1970: -1)).description == "1969-12-31")
  }
}
