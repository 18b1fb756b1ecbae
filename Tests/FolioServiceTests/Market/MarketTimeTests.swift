import Foundation
import Testing

@testable import FolioService

@Suite struct MarketTimeTests {
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
