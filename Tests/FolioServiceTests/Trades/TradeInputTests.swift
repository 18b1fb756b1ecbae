import Testing

@testable import FolioService

@Suite struct TradeInputTests {
  @Test(arguments: [
    ("2024-03-01", "2024-03-01T00:00:00Z"),
    ("2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00+02:00", "2024-03-01T10:00:00Z"),
    ("2024-03-01T00:30:00-01:00", "2024-03-01T01:30:00Z"),
    ("2024-03-01T12:00Z", "2024-03-01T12:00:00Z"),
    ("2024-03-01T12:00:00.750Z", "2024-03-01T12:00:00Z"),
    ("2024-02-29T23:00:00-02:00", "2024-03-01T01:00:00Z"),
    ("2024-03-01 12:00:00+0530", "2024-03-01T06:30:00Z"),
    // Leap days: every 4th year, but not every 100th unless it is a 400th (2000 is one).
    ("2000-02-29", "2000-02-29T00:00:00Z"), ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z"),
    ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
  ])
  func datesBecomeUTC(text: String, stored: String) throws {
    #expect(try TradeDate.parse(text) == stored)
  }

  @Test(arguments: [
    "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-03-01T24:00:00Z",
    "2024-03-01T12:60:00Z", "2024-03-01T12:00:00", "2024-03-01T12:00:00+25:00", "yesterday", "",
    "1969-12-31", "1970-01-01T00:30:00+01:00", "2024-3-1", "２０２４-03-01",
    "2100-02-29", "2100-02-29T00:00:00Z", "2023-02-29T00:00:00Z",
  ])
  func impossibleDatesAreRefused(text: String) {
    #expect(throws: TradeInputError.self) { try TradeDate.parse(text) }
  }

  @Test func quantityRules() throws {
    #expect(try TradeInput.quantity("0.5").description == "0.5")
    for bad in ["0", "-1", "NaN", "inf", "1,000.25", "0.0000000000000000001", "", "1e400"] {
      #expect(throws: TradeInputError.self) { try TradeInput.quantity(bad) }
    }
    #expect(throws: TradeInputError.self) { try TradeInput.amount("-0.01", field: "fee") }
    #expect(try TradeInput.amount("0", field: "price").isZero)
  }

  @Test func coinIDsAndNotes() throws {
    #expect(try TradeInput.coinID("Bitcoin") == "bitcoin")
    #expect(try TradeInput.coinID("usd-coin") == "usd-coin")
    #expect(throws: TradeInputError.self) { try TradeInput.coinID("bit coin") }
    #expect(throws: TradeInputError.self) { try TradeInput.coinID("'; DROP TABLE trades; --") }
    #expect(throws: TradeInputError.self) { try TradeInput.note("a\u{0}b") }
    #expect(try TradeInput.note("") == nil)
  }
}
