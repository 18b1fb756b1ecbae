import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct CoinDirectoryTests {
  let sandbox: ServiceSandbox

  init() throws { sandbox = try ServiceSandbox() }

  var directory: CoinDirectory { CoinDirectory(sandbox.store) }

  /// Adds coins as a /coins/markets page would (symbol, name, rank).
  func addCoins(_ json: String) throws {
    let file = sandbox.write("coins.json", json)
    _ = try sandbox.market.importFiles([file], vsCurrency: "usd", at: nil, now: sandbox.now)
  }

  @Test func aNewDatabaseHoldsTheBuiltInListOnce() throws {
    #expect(try sandbox.count("coins") == 100)
    #expect(try CoinDirectoryRecords.coin(sandbox.store.database, id: "bitcoin")?.rank == 1)
    // Opening the file again does not store the list again.
    let again = try Store(StoreLocation(path: sandbox.store.database.path))
    #expect(try again.database.scalarInt("SELECT count(*) FROM coin_list_fetches") == 1)
    #expect(try again.database.scalarInt("SELECT count(*) FROM coins") == 100)
  }

  @Test func idsAndSymbolsResolveInAnyCase() throws {
    #expect(try directory.resolve("bitcoin").id == "bitcoin")
    #expect(try directory.resolve(" Bitcoin ").id == "bitcoin")
    #expect(try directory.resolve("BTC").id == "bitcoin")
    #expect(try directory.resolve("eth").id == "ethereum")
    #expect(try directory.resolve("btc").note == nil)
  }

  @Test func anAmbiguousSymbolPicksTheBestRankAndSaysSo() throws {
    try addCoins(
      #"[{"id":"alpha-two","symbol":"alp","name":"Alpha Two","current_price":2,"market_cap_rank":900},{"id":"alpha-one","symbol":"ALP","name":"Alpha","current_price":1,"market_cap_rank":40}]"#
    )
    let coin = try directory.resolve("Alp")
    #expect(coin.id == "alpha-one")
    #expect(
      coin.note
        == "'Alp' is the symbol of 2 coins; chose 'alpha-one' (Alpha, ALP, rank 40) over "
        + "'alpha-two' (Alpha Two, ALP, rank 900); give the id to choose another")
    #expect(try directory.resolve("alpha-two").id == "alpha-two")
  }

  @Test func anUnknownCoinIsRefusedWithTheClosestCoins() throws {
    let typo = #expect(throws: CoinError.self) { try directory.resolve("bitcon") }
    #expect(typo?.kind == .inputMissing)
    #expect(
      typo?.errorDescription
        == "unknown coin 'bitcon'; did you mean 'bitcoin' (Bitcoin, BTC, rank 1)?; "
        + "give --new-coin to add it as a new coin")
    // A swap of two adjacent letters is one edit, in ids, symbols and names.
    let swapped = #expect(throws: CoinError.self) { try directory.resolve("bitocin") }
    #expect(swapped?.errorDescription?.contains("did you mean 'bitcoin'") == true)
    let symbol = #expect(throws: CoinError.self) { try directory.resolve("tbc") }
    #expect(symbol?.errorDescription?.contains("'bitcoin'") == true)
    let name = #expect(throws: CoinError.self) { try directory.resolve("shiba-inuu") }
    #expect(name?.errorDescription?.contains("'shiba-inu'") == true)
    let far = #expect(throws: CoinError.self) { try directory.resolve("zzzzzzzz") }
    #expect(far?.errorDescription?.contains("did you mean") == false)
    #expect(throws: CoinError.invalid("bit coin")) { try directory.resolve("bit coin") }
    #expect(throws: CoinError.invalid("")) { try directory.resolve("") }
    #expect(try sandbox.count("coins") == 100)
  }

  @Test func newCoinAddsAnUnknownIdAndAcceptTakesIt() throws {
    #expect(try directory.resolve("Some-New-Coin", unknown: .accept).id == "some-new-coin")
    #expect(try sandbox.count("coins") == 100)
    let added = try directory.resolve("Some-New-Coin", unknown: .add)
    #expect(added.id == "some-new-coin")
    #expect(added.added)
    #expect(try directory.resolve("some-new-coin").id == "some-new-coin")
    #expect(try sandbox.count("coins") == 101)
    #expect(throws: CoinError.invalid("btc!")) { try directory.resolve("btc!", unknown: .add) }
  }

  @Test func editDistanceCountsASwapAsOneEdit() {
    #expect(EditDistance.between("bitcoin", "bitocin") == 1)
    #expect(EditDistance.between("bitcoin", "bitcon") == 1)
    #expect(EditDistance.between("ca", "abc") == 3)
    #expect(EditDistance.between("", "abc") == 3)
    #expect(EditDistance.between("kitten", "sitting") == 3)
  }
}
