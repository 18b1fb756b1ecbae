import FolioService
import Foundation
import Testing

@testable import FolioCLI

/// `folio gains` and `--portfolio all` (issue 15, parts 3 and 4). The figures are worked out
/// by hand below.
@Suite struct GainsCommandTests {
  let sandbox = Sandbox()

  /// main: 1 BTC bought at 10,000 + fee 10 on 2022-01-10 (cost 10,010), 1 BTC at 20,000 on
  /// 2023-06-01, 1.5 BTC sold at 30,000 − fee 30 on 2023-12-01 (proceeds 44,970, so 29,980
  /// for 1 unit and 14,990 for 0.5).
  init() throws {
    for step in [
      ["buy", "bitcoin", "1", "--price", "10000", "--fee", "10", "--date", "2022-01-10"],
      ["buy", "bitcoin", "1", "--price", "20000", "--date", "2023-06-01"],
      ["sell", "bitcoin", "1.5", "--price", "30000", "--fee", "30", "--date", "2023-12-01"],
    ] {
      let result = sandbox.run(step)
      try #require(result.code == 0, "\(step): \(result.err)")
    }
  }

  func json(_ arguments: String...) throws -> [String: Any] {
    let result = sandbox.run(["gains", "--format", "json"] + arguments)
    try #require(result.code == 0, "\(result.err)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }

  func pieces(_ object: [String: Any]) -> [[String]] {
    ((object["disposals"] as? [[String: Any]]) ?? []).map { row in
      ["quantity", "date_acquired", "proceeds", "cost_basis", "gain", "term"].map {
        row[$0] as? String ?? "?"
      }
    }
  }

  func total(_ object: [String: Any], _ term: String) -> [String] {
    let totals = (object["totals"] as? [String: Any])?[term] as? [String: Any] ?? [:]
    return ["proceeds", "cost_basis", "gain"].map { totals[$0] as? String ?? "?" }
  }

  /// The JSON is written a member and a disposal at a time, byte for byte as the whole value
  /// would be; a disposal outside the range is booked but not listed.
  @Test func theJSONIsWrittenAsTheWholeValueWouldBe() throws {
    let income = sandbox.run(
      "income", "bitcoin", "0.01", "--price", "25000", "--kind", "staking", "--date",
      "2023-07-01")
    try #require(income.code == 0, "\(income.err)")
    for year in ["2022", "2023", "2024"] {
      let text = sandbox.run("gains", "--format", "json", "--year", year).out
      let value = try JSONValue.parse(text)
      #expect(text == value.rendered() + "\n", "\(year)")
      #expect(value["disposals"]?.arrayValue?.count == (year == "2023" ? 2 : 0), "\(year)")
      #expect(value["income"]?.arrayValue?.count == (year == "2023" ? 1 : 0), "\(year)")
    }
  }

  /// FIFO: the 2022 lot (held 690 days: long) then half the 2023 lot (183 days: short).
  @Test func fifoSplitsTheSellIntoLotPiecesWithTheirTerms() throws {
    let fifo = try json("--year", "2023")
    #expect(
      pieces(fifo) == [
        ["1", "2022-01-10", "29980", "10010", "19970", "long"],
        ["0.5", "2023-06-01", "14990", "10000", "4990", "short"],
      ])
    #expect(total(fifo, "short") == ["14990", "10000", "4990"])
    #expect(total(fifo, "long") == ["29980", "10010", "19970"])
    #expect(total(fifo, "total") == ["44970", "20010", "24960"])
    // Nothing was sold in 2022; held more than 1000 days is long: both pieces are short.
    #expect(pieces(try json("--year", "2022")).isEmpty)
    let longer = try json("--year", "2023", "--long-term-days", "1000")
    #expect(pieces(longer).map(\.last) == ["short", "short"])
  }

  /// LIFO and HIFO take the 2023 lot (20,000 a unit) first; average cost takes the lots in
  /// order at the average 15,005 a unit: 15,005 for the first unit, 7,502.50 for the half.
  @Test func everyMethodGivesItsOwnPieces() throws {
    let lifo = [
      ["1", "2023-06-01", "29980", "20000", "9980", "short"],
      ["0.5", "2022-01-10", "14990", "5005", "9985", "long"],
    ]
    #expect(pieces(try json("--year", "2023", "--method", "lifo")) == lifo)
    #expect(pieces(try json("--year", "2023", "--method", "hifo")) == lifo)
    #expect(
      pieces(try json("--since", "2023-12-01", "--until", "2023-12-01", "--method", "average"))
        == [
          ["1", "2022-01-10", "29980", "15005", "14975", "long"],
          ["0.5", "2023-06-01", "14990", "7502.5", "7487.5", "short"],
        ])
  }

  @Test func csvFollowsTheCapitalGainsFormOrder() {
    let result = sandbox.run("gains", "--year", "2023", "--format", "csv")
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out == """
        description,date_acquired,date_sold,proceeds,cost_basis,gain,term,coin,quantity,portfolio,income
        1 bitcoin,2022-01-10,2023-12-01,29980,10010,19970,long,bitcoin,1,main,
        0.5 bitcoin,2023-06-01,2023-12-01,14990,10000,4990,short,bitcoin,0.5,main,

        """)
    let text = sandbox.run("gains", "--year", "2023")
    #expect(text.out.contains("Long   $29,980.00  $10,010.00  +$19,970.00"), "\(text.out)")
  }

  /// The other kinds, on top of the history above (main keeps 0.5 BTC of the 2023-06-01 lot,
  /// cost 10,000). 2024-01-05: the 0.5 BTC goes to cold; 2024-02-01: 2 ETH of staking income at
  /// 1,500 (value 3,000); 2024-03-01: 1 ETH swapped for 0.05 BTC, value 2,000; 2024-04-01: 1 ETH
  /// withdrawn; 2024-07-01: cold sells the 0.5 BTC at 40,000.
  /// Disposals: the swap's ETH (the income lot, 1,500 a unit: gain 500, short) and cold's sell,
  /// whose lot keeps its 2023-06-01 acquisition (396 days: long; from the transfer's day it
  /// would be 178, short): 20,000 − 10,000. The transfer and the withdrawal are no disposals.
  /// Income: 3,000.
  @Test func swapsDisposeTransfersKeepTheirDatesAndIncomeHasItsSection() throws {
    for step in [
      ["portfolio", "add", "cold"],
      ["transfer", "bitcoin", "0.5", "--from", "main", "--to", "cold", "--date", "2024-01-05"],
      ["income", "ethereum", "2", "--price", "1500", "--kind", "staking", "--date", "2024-02-01"],
      [
        "swap", "1", "ethereum", "for", "0.05", "bitcoin", "--value", "2000", "--date",
        "2024-03-01",
      ],
      ["withdraw", "ethereum", "1", "--date", "2024-04-01"],
      [
        "--portfolio", "cold", "sell", "bitcoin", "0.5", "--price", "40000", "--date", "2024-07-01",
      ],
    ] {
      let result = sandbox.run(step)
      try #require(result.code == 0, "\(step): \(result.err)")
    }
    let all = try json("--year", "2024", "--portfolio", "all")
    #expect(
      pieces(all) == [
        ["1", "2024-02-01", "2000", "1500", "500", "short"],
        ["0.5", "2023-06-01", "20000", "10000", "10000", "long"],
      ])
    #expect(total(all, "total") == ["22000", "11500", "10500"])
    let income = try #require(all["income"] as? [[String: Any]])
    #expect(
      income.map { row in
        ["portfolio", "coin", "quantity", "date_received", "kind", "price", "value"].map {
          row[$0] as? String ?? "?"
        }
      } == [["main", "ethereum", "2", "2024-02-01", "staking", "1500", "3000"]])
    #expect(all["income_total"] as? String == "3000")
    // Each portfolio alone: main has the swap and the income, cold the sell.
    #expect(pieces(try json("--year", "2024")).count == 1)
    #expect(pieces(try json("--year", "2024", "--portfolio", "cold")).map(\.first) == ["0.5"])

    let csv = sandbox.run("gains", "--year", "2024", "--format", "csv")
    #expect(
      csv.out.hasSuffix(
        """
        1 ethereum,2024-02-01,2024-03-01,2000,1500,500,short,ethereum,1,main,
        2 ethereum (staking),2024-02-01,,,,,income,ethereum,2,main,3000

        """), "\(csv.out)")
    let text = sandbox.run("gains", "--year", "2024")
    #expect(
      text.out.hasSuffix(
        """
        Income received (at its value when received; not a disposal)

        COIN      QUANTITY  RECEIVED    KIND         PRICE      VALUE
        ethereum         2  2024-02-01  staking  $1,500.00  $3,000.00
        Total                                               $3,000.00

        """), "\(text.out)")
  }

  /// A range through 9999-12-31, the last day folio reads, lists every disposal: the trades
  /// were read before the start of the next day, whose year 10000 sorts before every stored time
  /// as text, so none was listed.
  @Test func aRangeThroughTheLastDayListsEveryDisposal() throws {
    let all = try json("--since", "2000-01-01", "--until", "9999-12-31")
    #expect(pieces(all).count == 2)
    #expect(pieces(all) == pieces(try json("--year", "2023")))
    #expect(total(all, "total") == ["44970", "20010", "24960"])
  }

  @Test func badRangesAreRefused() {
    let both = sandbox.run("gains", "--year", "2023", "--since", "2023-01-01")
    #expect(both.code == 64)
    #expect(both.err.contains("--year cannot be combined with --since or --until"))
    #expect(sandbox.run("gains", "--year", "23").code == 64)
    let backwards = sandbox.run("gains", "--since", "2023-12-02", "--until", "2023-12-01")
    #expect(backwards.code == 65)
  }

  /// `cold` (USD) sold 1 ETH bought for 1,000 at 1,500: `--portfolio all` lists both
  /// portfolios' pieces and sums the holdings; a EUR portfolio makes `all` refuse (65), naming
  /// the currencies, and writes nothing.
  @Test func allPortfoliosCombineOneCurrencyAndRefuseMixedOnes() throws {
    for step in [
      ["portfolio", "add", "cold"],
      ["--portfolio", "cold", "buy", "ethereum", "2", "--price", "1000", "--date", "2023-01-01"],
      ["--portfolio", "cold", "sell", "ethereum", "1", "--price", "1500", "--date", "2023-02-01"],
      ["--portfolio", "cold", "buy", "bitcoin", "0.5", "--price", "30000", "--date", "2023-03-01"],
    ] {
      let result = sandbox.run(step)
      try #require(result.code == 0, "\(step): \(result.err)")
    }
    let all = sandbox.run("--portfolio", "all", "gains", "--year", "2023", "--format", "json")
    #expect(all.code == 0, "\(all.err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(all.out.utf8)) as? [String: Any])
    #expect(total(object, "total") == ["46470", "21010", "25460"])
    #expect(object["portfolios"] as? [String] == ["cold", "main"])
    let holdings = sandbox.run("--portfolio", "all", "holdings", "--format", "json")
    #expect(holdings.code == 0, "\(holdings.err)")
    let held = try #require(
      (try JSONSerialization.jsonObject(with: Data(holdings.out.utf8)) as? [String: Any])?[
        "holdings"] as? [[String: Any]])
    let bitcoin = try #require(held.first { $0["coin"] as? String == "bitcoin" })
    // main holds 0.5 (cost 10,000), cold 0.5 (cost 15,000).
    #expect(bitcoin["quantity"] as? String == "1")
    #expect(bitcoin["cost_basis"] as? String == "25000")

    #expect(sandbox.run("portfolio", "add", "euro", "--currency", "eur").code == 0)
    let mixed = sandbox.run("--portfolio", "all", "gains", "--year", "2023")
    #expect(mixed.code == 65)
    #expect(mixed.err.contains("cold (USD), euro (EUR), main (USD)"), "\(mixed.err)")
    #expect(sandbox.run("--portfolio", "all", "holdings").code == 65)
  }
}
