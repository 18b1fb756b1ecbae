import Testing

@testable import FolioService

@Suite struct TradeInputTests {
  // The parser's cases are in TimestampTests; this is how a trade field names its failure.
  @Test func datesNameTheirField() throws {
    #expect(try TradeInput.date("2024-03-01T12:00:00+02:00").description == "2024-03-01T10:00:00Z")
    #expect(
      throws: TradeInputError(
        field: "date", reason: "'2024-02-30' is not a real calendar date", malformed: true)
    ) {
      try TradeInput.date("2024-02-30")
    }
    #expect(
      throws: TradeInputError(
        field: "--until",
        reason: "'2024-03-01T12:00' needs a time zone: end it with Z or an offset such as +02:00",
        malformed: true)
    ) { try TradeInput.date("2024-03-01T12:00", field: "--until") }
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
