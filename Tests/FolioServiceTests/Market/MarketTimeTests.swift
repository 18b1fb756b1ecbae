import FolioStorage
import Foundation
import Testing

@testable import FolioService

@Suite struct MarketTimeTests {
  @Test func readsTheFormsCoinGeckoAndUsersWrite() {
    let cases: [(String, String)] = [
      ("2024-01-24T00:28:52.794Z", "2024-01-24T00:28:52Z"),
      ("2024-01-24T00:28:52Z", "2024-01-24T00:28:52Z"),
      ("2013-07-05T00:00:00.000Z", "2013-07-05T00:00:00Z"),
      ("2024-01-24T01:28:52+01:00", "2024-01-24T00:28:52Z"),
      ("2024-01-23T19:28:52-0500", "2024-01-24T00:28:52Z"),
      ("2024-01-24 00:28", "2024-01-24T00:28:00Z"),
      ("2024-01-24", "2024-01-24T00:00:00Z"),
      ("2024-02-29", "2024-02-29T00:00:00Z"),
    ]
    for (text, expected) in cases {
      #expect(MarketTime.normalize(text) == expected, "\(text)")
    }
  }

  @Test func refusesImpossibleOrMalformedTimes() {
    for text in [
      "", "2024", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-24T24:00:00Z",
      "2024-01-24T12:60Z", "2024-01-24T12:00:00.Z", "2024-01-24T12:00:00X", "24-01-2024",
      "2024-01-24T12:00:00+25:00", "yesterday", "2024-01-24T12:00:00Z trailing",
    ] {
      #expect(MarketTime.parse(text) == nil, "\(text)")
    }
  }

  @Test func durationsReadAndWriteBack() {
    #expect(MarketTime.parseDuration("24h") == 86_400)
    #expect(MarketTime.parseDuration("90s") == 90)
    #expect(MarketTime.parseDuration("30m") == 1800)
    #expect(MarketTime.parseDuration("7d") == 604_800)
    #expect(MarketTime.parseDuration("2w") == 1_209_600)
    #expect(MarketTime.parseDuration("1d12h") == 129_600)
    #expect(MarketTime.parseDuration("0s") == 0)
    for bad in ["", "24", "h", "1x", "-1h", "1.5h", "1h30", "99999999999999999999d", "１h"] {
      #expect(MarketTime.parseDuration(bad) == nil, "\(bad)")
    }
    #expect(MarketTime.formatDuration(129_600) == "1d12h")
    #expect(MarketTime.formatDuration(3_723) == "1h2m3s")
    #expect(MarketTime.formatDuration(0) == "0s")
  }
}
