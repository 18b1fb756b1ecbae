import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct StatisticsTests {
  func held(_ coin: String, _ quantity: String, _ price: String?, _ change: String?) -> HeldQuote {
    HeldQuote(
      coinID: coin, quantity: dec(quantity), price: price.map(dec), change24h: change.map(dec))
  }

  // MARK: - Portfolio value and 24h change

  @Test func oneHundredUpFiveAndOneHundredDownFiveIsMinusAQuarterPercent() throws {
    let result = Statistics.portfolio([
      held("a", "1", "100", "5"), held("b", "2", "50", "-5"),
    ])
    #expect(result.value == .known(dec("200")))
    // previous = 100/1.05 + 100/0.95 = 200/0.9975, so the change is 0.9975 − 1 = −0.25%.
    let change = try #require(result.change24h.value)
    #expect(change.rounded(places: 12) == dec("-0.25"))
    #expect(result.unpriced.isEmpty)
  }

  @Test func oneCoinKeepsItsOwnChange() throws {
    let result = Statistics.portfolio([held("bitcoin", "0.5", "40000", "5")])
    #expect(result.value == .known(dec("20000")))
    #expect(try #require(result.change24h.value).rounded(places: 12) == dec("5"))
  }

  @Test func aMissingPercentCountsAsNoChange() throws {
    // 100 at +10% was 90.909…, 100 without a percent was 100: (200 − 190.909…) / 190.909… = 4.7619…%
    let result = Statistics.portfolio([held("a", "1", "100", "10"), held("b", "1", "100", nil)])
    let change = try #require(result.change24h.value)
    #expect(change.rounded(places: 6) == dec("4.761905"))
  }

  @Test func anEmptyPortfolioIsWorthZeroAndItsChangeIsNotAvailable() {
    for holdings in [[], [held("a", "0", "100", "5")]] {
      let result = Statistics.portfolio(holdings)
      #expect(result.value == .known(.zero))
      #expect(result.change24h == .unavailable("the portfolio holds no coins"))
      #expect(result.unpriced.isEmpty)
    }
  }

  @Test func aHeldCoinWithoutAPriceIsListedNotValuedAtZero() {
    let result = Statistics.portfolio([
      held("bitcoin", "1", "100", "1"), held("zeta", "5", nil, nil), held("alpha", "1", nil, nil),
    ])
    #expect(result.value == .known(dec("100")))
    #expect(result.unpriced == ["alpha", "zeta"])
    #expect(
      result.change24h
        == .unavailable(
          "no market price is cached for alpha and zeta, so the change of the whole portfolio "
            + "is unknown"))
  }

  @Test func noPriceAtAllLeavesTheValueUnavailable() {
    let result = Statistics.portfolio([held("zeta", "5", nil, nil)])
    #expect(result.value == .unavailable("no market price is cached for zeta"))
    #expect(result.change24h == .unavailable("no market price is cached for zeta"))
    #expect(result.unpriced == ["zeta"])
  }

  @Test func aCoinAtMinusOneHundredPercentOrWorseGivesNoChange() {
    for percent in ["-100", "-150"] {
      let result = Statistics.portfolio([
        held("luna", "1000", "0.0001", percent), held("bitcoin", "1", "100", "1"),
      ])
      #expect(result.value == .known(dec("100.1")))
      let reason = result.change24h.reason ?? ""
      #expect(reason.hasPrefix("luna changed \(dec(percent).formatted(places: 2))% in 24h"))
      #expect(reason.hasSuffix("so its value 24h ago cannot be derived"))
    }
  }

  @Test func holdingsWorthNothingHaveNoChange() {
    let result = Statistics.portfolio([held("dust", "10", "0", "3")])
    #expect(result.value == .known(.zero))
    #expect(result.change24h == .unavailable("the holdings were worth nothing 24h ago"))
  }

  @Test func amountsTooLargeToComputeAreNotAvailableInsteadOfTrapping() {
    let result = Statistics.portfolio([
      held("a", "100000000000000000000", "100000000000000000000", "1")
    ])
    #expect(result.value == .unavailable("the amounts are too large to compute exactly"))
    #expect(result.change24h == .unavailable("the amounts are too large to compute exactly"))
  }

  // MARK: - Market figures

  func global(_ build: (inout GlobalData) -> Void) -> GlobalSnapshot {
    var data = GlobalData()
    build(&data)
    return GlobalSnapshot(id: 1, fetchedAt: "2024-01-24T00:28:56Z", source: "test", data: data)
  }

  @Test func marketFiguresComeFromTheGlobalSnapshotInTheCurrency() {
    let snapshot = global { data in
      data.totals = [
        GlobalTotal(currency: "eur", marketCap: dec("1479641201860"), volume: dec("57049773311")),
        GlobalTotal(currency: "usd", marketCap: dec("1610737412345"), volume: dec("62104383226")),
      ]
      data.marketCapPercentages = [MarketCapShare(symbol: "btc", percentage: dec("48.5185"))]
      data.marketCapChangePercentage24hUSD = dec("-0.84")
    }
    let usd = Statistics.market(snapshot, currency: "usd", missing: "none")
    #expect(usd.marketCap == .known(dec("1610737412345")))
    #expect(usd.volume == .known(dec("62104383226")))
    #expect(usd.btcDominance == .known(dec("48.5185")))
    #expect(usd.change24h == .known(dec("-0.84")))
    #expect(
      Statistics.market(snapshot, currency: "eur", missing: "none").marketCap
        == .known(dec("1479641201860")))
  }

  @Test func everyMissingMarketFigureSaysWhy() {
    let missing = Statistics.market(nil, currency: "usd", missing: "no /global snapshot")
    for measure in [missing.marketCap, missing.change24h, missing.volume, missing.btcDominance] {
      #expect(measure == .unavailable("no /global snapshot"))
    }
    let empty = Statistics.market(global { _ in }, currency: "chf", missing: "unused")
    let at = "the /global snapshot of 2024-01-24T00:28:56Z"
    #expect(empty.marketCap == .unavailable("\(at) has no market cap in CHF"))
    #expect(empty.volume == .unavailable("\(at) has no volume in CHF"))
    #expect(empty.change24h == .unavailable("\(at) has no 24h market cap change"))
    #expect(empty.btcDominance == .unavailable("\(at) has no share for BTC"))
  }

  // MARK: - From the cache

  @Test func statisticsOfThePortfolioUseTheLatestQuotesAndGlobalSnapshot() throws {
    let sandbox = try ServiceSandbox()
    try sandbox.importFixtures("coingecko/markets_usd.json", "coingecko/global_usd.json")
    try sandbox.hold("bitcoin", "0.5")
    try sandbox.hold("ethereum", "2")
    try sandbox.hold("dogecoin", "0")  // bought and sold: not held
    let main = try PortfolioService(sandbox.store).resolve(nil)
    let report = try sandbox.market.statistics(of: main)
    let statistics = report.statistics
    #expect(report.snapshot?.fetchedAt == "2024-01-24T00:28:58Z")
    #expect(statistics.globalAt == "2024-01-24T00:28:56Z")
    #expect(statistics.marketCap.value?.rounded(places: 0) == dec("1610737412346"))
    #expect(statistics.btcDominance.value?.rounded(places: 4) == dec("48.5186"))
    #expect(statistics.marketCapChange24h.value?.rounded(places: 4) == dec("-0.8415"))
    // 0.5 × 39935.3 + 2 × 2240.97 = 19967.65 + 4481.94
    #expect(statistics.portfolioValue == .known(dec("24449.59")))
    // previous: 19967.65 / 1.0063162 + 4481.94 / 0.9656566
    let change = try #require(statistics.portfolioChange24h.value)
    #expect(change.rounded(places: 4) == dec("-0.1392"))
    #expect(statistics.unpriced.isEmpty)
  }

  @Test func statisticsWithNothingCachedAreAllUnavailable() throws {
    let sandbox = try ServiceSandbox()
    let main = try PortfolioService(sandbox.store).resolve(nil)
    let statistics = try sandbox.market.statistics(of: main).statistics
    #expect(statistics.marketCap.reason?.hasPrefix("no /global snapshot is cached") == true)
    #expect(statistics.portfolioValue == .known(.zero))
    #expect(statistics.portfolioChange24h == .unavailable("the portfolio holds no coins"))
  }
}
