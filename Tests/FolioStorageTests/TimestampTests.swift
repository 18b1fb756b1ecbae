import Foundation
import Testing

@testable import FolioStorage

/// The one date and time parser (`Timestamp(parsing:_:)`), the `Timestamp` type and `CalendarDay`.
@Suite struct TimestampTests {
  typealias Failure = Timestamp.SyntaxError

  /// The stored form of `text`; the form an import reuses from the text is the same.
  func stored(_ text: String, _ syntax: Timestamp.Syntax) throws -> String {
    let time = try Timestamp(parsing: text, syntax)
    #expect(time.description(parsedFrom: text) == time.description)
    return time.description
  }

  // MARK: - Dates users type (`.zoned`: trade dates, `tx list --since/--until`)

  @Test(arguments: [
    ("2024-03-01", "2024-03-01T00:00:00Z"),
    ("2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00+02:00", "2024-03-01T10:00:00Z"),
    ("2024-03-01T00:30:00-01:00", "2024-03-01T01:30:00Z"),
    ("2024-03-01T12:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00.750Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00.999999999999Z", "2024-03-01T12:00:00Z"),
    ("2024-02-29T23:00:00-02:00", "2024-03-01T01:00:00Z"),
    ("2024-03-01 12:00:00+0530", "2024-03-01T06:30:00Z"),
    ("2024-03-01t12:00:00+05:30", "2024-03-01T06:30:00Z"),
    ("2024-03-01T12:00:00-00:00", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00z", "2024-03-01T12:00:00Z"),
    ("2024-03-01 12:00:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01t12:00:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00+14:00", "2024-02-29T22:00:00Z"),
    // Leap days: every 4th year, but not every 100th unless it is a 400th (2000 is one).
    ("2000-02-29", "2000-02-29T00:00:00Z"), ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z"),
    ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
    // The ends of the range, after the offset is applied.
    ("1970-01-01", "1970-01-01T00:00:00Z"), ("1970-01-01T01:00:00+01:00", "1970-01-01T00:00:00Z"),
    ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
    ("9999-12-31T23:59:59+01:00", "9999-12-31T22:59:59Z"),
  ])
  func zonedDatesBecomeUTC(text: String, expected: String) throws {
    #expect(try stored(text, .zoned) == expected)
  }

  @Test(arguments: [
    ("2023-02-29", Failure.notACalendarDate), ("2024-13-01", .notACalendarDate),
    ("2024-00-10", .notACalendarDate), ("2024-04-31", .notACalendarDate),
    ("2100-02-29", .notACalendarDate), ("2100-02-29T00:00:00Z", .notACalendarDate),
    ("2023-02-29T00:00:00Z", .notACalendarDate), ("1900-02-29", .notACalendarDate),
    ("2024-03-01T24:00:00Z", .impossibleTimeOfDay), ("2024-03-01T24:00Z", .impossibleTimeOfDay),
    ("2024-03-01T12:60:00Z", .impossibleTimeOfDay), ("2024-03-01T12:00:60Z", .impossibleTimeOfDay),
    ("2024-03-01T12:00:00", .needsZone), ("2024-03-01T12:00", .needsZone),
    ("2024-03-01T12:00:00X", .needsZone),
    ("2024-03-01T12:00:00+25:00", .malformedOffset),
    ("2024-03-01T12:00:00+15:00", .malformedOffset),
    ("2024-03-01T12:00:00+05:60", .malformedOffset), ("2024-03-01T12:00:00+5", .malformedOffset),
    ("2024-03-01T12:00:00+", .malformedOffset),
    ("yesterday", .shape), ("", .shape), ("2024-3-1", .shape), ("２０２４-03-01", .shape),
    ("20240301", .shape), ("24-03-2024", .shape), ("2024", .shape), ("10000-01-01", .shape),
    ("2024-03-01T", .shape), ("2024-03-01T12", .shape), ("2024-03-01T12:00:00.Z", .shape),
    ("2024-03-01T12:00:00Z trailing", .shape), ("2024-03-01T12:00:00+05:30x", .shape),
    ("2024-03-01x", .shape), (" 2024-03-01", .shape),
    ("1969-12-31", .outOfRange), ("1970-01-01T00:30:00+01:00", .outOfRange),
    ("1969-12-31T23:59:59Z", .outOfRange), ("0000-01-01", .outOfRange),
    ("9999-12-31T23:59:59-00:01", .outOfRange), ("9999-12-31T22:00:00-02:00", .outOfRange),
  ])
  func zonedRefusals(text: String, failure: Failure) {
    #expect(throws: failure) { try Timestamp(parsing: text, .zoned) }
  }

  @Test func failuresKeepTheirMessages() {
    #expect(
      Failure.shape.description
        == "is not a date: use YYYY-MM-DD or ISO-8601 such as 2024-03-01T12:00:00Z")
    #expect(Failure.notACalendarDate.description == "is not a real calendar date")
    #expect(Failure.impossibleTimeOfDay.description == "has an impossible time of day")
    #expect(Failure.malformedOffset.description == "has a malformed UTC offset")
    #expect(
      Failure.needsZone.description
        == "needs a time zone: end it with Z or an offset such as +02:00")
    #expect(Failure.outOfRange.description == "is outside the years 1970 to 9999")
  }

  // MARK: - Market times (`.lenient`: no zone means UTC)

  @Test func lenientReadsTheFormsCoinGeckoAndUsersWrite() throws {
    let cases: [(String, String)] = [
      ("2024-01-24T00:28:52.794Z", "2024-01-24T00:28:52Z"),
      ("2024-01-24T00:28:52Z", "2024-01-24T00:28:52Z"),
      ("2013-07-05T00:00:00.000Z", "2013-07-05T00:00:00Z"),
      ("2024-01-24T01:28:52+01:00", "2024-01-24T00:28:52Z"),
      ("2024-01-23T19:28:52-0500", "2024-01-24T00:28:52Z"),
      ("2024-01-24 00:28", "2024-01-24T00:28:00Z"),
      ("2024-01-24T00:28:52", "2024-01-24T00:28:52Z"),
      ("2024-01-24T00:28:52.5", "2024-01-24T00:28:52Z"),
      ("2024-01-24", "2024-01-24T00:00:00Z"),
      ("2024-02-29", "2024-02-29T00:00:00Z"),
    ]
    for (text, expected) in cases {
      #expect(try stored(text, .lenient) == expected, "\(text)")
    }
  }

  @Test func lenientRefusesImpossibleOrMalformedTimes() {
    for text in [
      "", "2024", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-24T24:00:00Z",
      "2024-01-24T12:60Z", "2024-01-24T12:00:00.Z", "2024-01-24T12:00:00X", "24-01-2024",
      "2024-01-24T12:00:00+25:00", "yesterday", "2024-01-24T12:00:00Z trailing", "1969-07-20",
      "2024-01-24T12:00:00 ",
    ] {
      #expect(throws: Failure.self, "\(text)") { try Timestamp(parsing: text, .lenient) }
    }
  }

  // MARK: - Stored times (`.stored`: location imports) and days (`.day`)

  @Test func storedReadsOnlyTheStoredForm() throws {
    #expect(try stored("2024-03-01T12:00:00Z", .stored) == "2024-03-01T12:00:00Z")
    #expect(try stored("2024-02-29T23:59:59Z", .stored) == "2024-02-29T23:59:59Z")
    for text in [
      "2024-03-01", "2024-03-01T12:00Z", "2024-03-01T12:00:00.5Z", "2024-03-01 12:00:00Z",
      "2024-03-01t12:00:00Z", "2024-03-01T12:00:00z", "2024-03-01T12:00:00+00:00",
      "2024-03-01T12:00:00", "yesterday", "2024-02-31T00:00:00Z", "2024-03-01T24:00:00Z",
      "1969-12-31T23:59:59Z",
    ] {
      #expect(throws: Failure.self, "\(text)") { try Timestamp(parsing: text, .stored) }
    }
  }

  @Test func dayParsesOnlyRealDaysInTheExactShape() {
    #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
    #expect(CalendarDay("1970-01-01")?.ordinal == 0)
    #expect(CalendarDay("9999-12-31")?.description == "9999-12-31")
    for text in [
      "2023-02-29", "2024-1-05", "2024-01-05T00:00:00Z", "20240105", "", "2024-13-01",
      "1969-12-31", "2024-01-05 ",
    ] {
      #expect(CalendarDay(text) == nil, "\(text)")
    }
    #expect(throws: Failure.shape) { try Timestamp(parsing: "2024-01-05T00:00Z", .day) }
  }

  @Test func dateAloneOnlyWhereAllowed() throws {
    let noDate = Timestamp.Syntax(
      dateAlone: false, timeOfDay: true, zoneRequired: true, storedFormOnly: false)
    #expect(throws: Failure.shape) { try Timestamp(parsing: "2024-03-01", noDate) }
    #expect(try stored("2024-03-01T05:00+05:00", noDate) == "2024-03-01T00:00:00Z")
    #expect(try stored("2024-03-01", .zoned) == "2024-03-01T00:00:00Z")
  }

  // MARK: - The type

  @Test func formatsUTCToTheSecond() {
    let date = Date(timeIntervalSince1970: 1_709_294_400.9)  // 2024-03-01T12:00:00.9Z
    #expect(Timestamp.format(date) == "2024-03-01T12:00:00Z")
    #expect(Timestamp.compact(date) == "20240301T120000Z")
    #expect(Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    #expect(Timestamp(seconds: 253_402_300_800).description == "10000-01-01T00:00:00Z")
  }

  @Test func ordersAsItsTextDoes() throws {
    let texts = [
      "1970-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2000-02-29T00:00:00Z",
      "2024-03-01T09:59:59Z", "2024-03-01T10:00:00Z", "9999-12-31T23:59:59Z",
    ]
    let times = try texts.map { try Timestamp(parsing: $0, .stored) }
    #expect(times == times.sorted())
    #expect(times.map(\.description) == texts)
    #expect(times.last == Timestamp.latest)
    #expect(try Timestamp(parsing: "2024-03-01T12:00:00+02:00", .zoned) == times[4])
    #expect(times[3].adding(seconds: 1) == times[4])
    #expect(times[4].day.description == "2024-03-01")
    #expect(Timestamp(seconds: -1).day.description == "1969-12-31")
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

  @Test func daysBoundMonthsAndYears() throws {
    let day = try #require(CalendarDay("2024-03-15"))
    #expect(day.start.description == "2024-03-15T00:00:00Z")
    #expect(day.end.description == "2024-03-15T23:59:59Z")
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

// MARK: - Dates as exchanges write them (`.exchange(zone:)`: CSV import)

extension TimestampTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")

  @Test(
    arguments: [
      // A time without a zone, and a date alone, in UTC by default.
      ("2024-03-01 12:00:00", nil, "2024-03-01T12:00:00Z"),
      ("2024-03-01", nil, "2024-03-01T00:00:00Z"),
      // In Europe/Berlin: +01:00 in winter, +02:00 in summer; a date alone is its midnight.
      ("2024-03-01 12:00:00", "Europe/Berlin", "2024-03-01T11:00:00Z"),
      ("2024-07-01 12:00:00", "Europe/Berlin", "2024-07-01T10:00:00Z"),
      ("2024-03-01", "Europe/Berlin", "2024-02-29T23:00:00Z"),
      // Around the changes: the last second before and the first after.
      ("2024-03-31 01:59:59", "Europe/Berlin", "2024-03-31T00:59:59Z"),
      ("2024-03-31 03:00:00", "Europe/Berlin", "2024-03-31T01:00:00Z"),
      ("2024-10-27 01:59:59", "Europe/Berlin", "2024-10-26T23:59:59Z"),
      ("2024-10-27 03:00:00", "Europe/Berlin", "2024-10-27T02:00:00Z"),
      // A zone or offset given wins over the zone.
      ("2024-03-01T12:00:00Z", "Europe/Berlin", "2024-03-01T12:00:00Z"),
      ("2024-10-27 02:30:00+01:00", "Europe/Berlin", "2024-10-27T01:30:00Z"),
      // Unix time: 10 digits are seconds, 13 milliseconds; a fraction is dropped; no zone.
      ("1709294400", "Europe/Berlin", "2024-03-01T12:00:00Z"),
      ("1709294400999", nil, "2024-03-01T12:00:00Z"),
      ("1709294400.75", nil, "2024-03-01T12:00:00Z"),
      ("1000000000", nil, "2001-09-09T01:46:40Z"),
      ("9999999999999", nil, "2286-11-20T17:46:39Z"),
    ] as [(String, String?, String)])
  func exchangeForms(text: String, zone: String?, expected: String) throws {
    let zone = try zone.map { try #require(TimeZone(identifier: $0)) }
    #expect(try stored(text, .exchange(zone: zone)) == expected)
  }

  @Test(arguments: [
    // The clocks skip 02:00–03:00 on 2024-03-31 and show 02:00–03:00 twice on 2024-10-27.
    ("2024-03-31 02:30:00", Failure.skippedInZone("Europe/Berlin")),
    ("2024-03-31 02:00", Failure.skippedInZone("Europe/Berlin")),
    ("2024-10-27 02:30:00", Failure.repeatedInZone("Europe/Berlin")),
    ("2024-10-27 02:00:00", Failure.repeatedInZone("Europe/Berlin")),
    // Digits that are neither 10 (seconds) nor 13 (milliseconds): never guessed.
    ("2024", .unixDigits), ("20240301", .unixDigits), ("170929440", .unixDigits),
    ("17092944001", .unixDigits), ("170929440012", .unixDigits),
    ("17092944001234", .unixDigits), ("0", .unixDigits),
    ("1709294400.", .shape), ("1709294400.5x", .shape), ("-1709294400", .shape),
    ("1709294400Z", .shape), (" 1709294400", .shape), ("yesterday", .shape), ("", .shape),
    ("2024-03-01 25:00:00", .impossibleTimeOfDay),
  ])
  func exchangeRefusals(text: String, failure: Failure) throws {
    let berlin = try #require(Self.berlin)
    #expect(throws: failure) { try Timestamp(parsing: text, .exchange(zone: berlin)) }
  }

  /// Unix time and local times are read only where asked for: trade dates typed on the
  /// command line still need a zone.
  @Test func zonedSyntaxReadsNeitherUnixNorLocalTimes() {
    #expect(throws: Failure.shape) { try Timestamp(parsing: "1709294400", .zoned) }
    #expect(throws: Failure.needsZone) { try Timestamp(parsing: "2024-03-01 12:00:00", .zoned) }
    #expect(
      Failure.skippedInZone("Europe/Berlin").description
        == "does not exist in Europe/Berlin (the clocks skip that hour); give a UTC offset "
        + "such as +01:00")
  }
}
