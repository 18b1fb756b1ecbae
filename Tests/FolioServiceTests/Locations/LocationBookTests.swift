import FolioTestSupport
import Foundation
import Testing

@testable import FolioService
@testable import FolioStorage

/// A fresh database in its own temporary folder, removed when the value goes away.
final class LocationTestStore {
  let temporary = TemporaryFolder("folio-locations")
  var folder: String { temporary.path }
  let store: Store
  let now = Date(timeIntervalSince1970: 1_732_968_000)  // 2024-11-30T12:00:00Z

  init() throws {
    store = try Store(StoreLocation(path: temporary.file("folio.sqlite3")), now: now)
  }

  var book: LocationBook { LocationBook(store) }

  @discardableResult
  func add(_ name: String, _ city: String, _ lat: String, _ lon: String) throws -> Location {
    try book.add(LocationInput(name: name, city: city, latitude: lat, longitude: lon), now: now)
  }

  /// Records a trade at `locationID` the way the trades commands will (portfolio 1 is 'main').
  func addTrade(at locationID: Int64?, executedAt: String = "2024-03-01T12:00:00Z") throws {
    try store.database.execute(
      """
      INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee,
        created_at, location_id)
      VALUES (1, ?, 'buy', 'bitcoin', '0.25', '61000', '0', '2024-03-01T12:00:00Z', ?)
      """, [executedAt, locationID])
  }
}

@Suite struct LocationBookTests {
  let db: LocationTestStore

  init() throws { db = try LocationTestStore() }

  // MARK: - Schema

  @Test func upgradingADatabaseWithTradesLeavesThemWithoutALocation() throws {
    // A database made before the locations migration, holding one trade.
    let path = db.folder + "/old.sqlite3"
    let earlier = Migration.embedded.prefix { $0.name != "locations" }
    #expect(earlier.count < Migration.embedded.count)
    let old = try Database(path: path)
    try Migrator(migrations: Array(earlier)).migrate(old)
    try old.execute(
      """
      INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee, created_at)
      VALUES (1, '2024-03-01T12:00:00Z', 'buy', 'bitcoin', '1', '60000', '0', '2024-03-01T12:00:00Z')
      """)
    let store = try Store(StoreLocation(path: path), now: db.now)
    #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migrator().latestVersion))
    #expect(
      try store.database.scalarInt("SELECT count(*) FROM trades WHERE location_id IS NULL") == 1)
    // The new column is a real foreign key: a trade cannot point at a missing location.
    #expect(throws: SQLiteError.self) {
      try store.database.execute("UPDATE trades SET location_id = 42")
    }
    let indexes = try store.database.rows("PRAGMA index_list(trades)") { try $0["name"] as String }
    #expect(indexes.contains("trades_by_location"))
  }

  // MARK: - References

  @Test func resolvesIdsAndNameCityReferences() throws {
    let colosseum = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    let louvre = try db.add("Louvre Museum", "Paris", "48.8606", "2.3376")
    #expect(try db.book.locationID(for: String(colosseum.id)) == colosseum.id)
    #expect(try db.book.locationID(for: " \(louvre.id) ") == louvre.id)
    #expect(try db.book.locationID(for: "Colosseum, Rome") == colosseum.id)
    #expect(try db.book.locationID(for: "colosseum,ROME") == colosseum.id)
    #expect(try db.book.locationID(for: "  Louvre Museum ,  Paris ") == louvre.id)
  }

  @Test func namesAndCitiesWithCommasStillResolve() throws {
    let dc = try db.add("Lincoln Memorial", "Washington, D.C.", "38.8893", "-77.0502")
    let odd = try db.add("Shop, upstairs", "Bern", "46.948", "7.4474")
    #expect(try db.book.locationID(for: "Lincoln Memorial, Washington, D.C.") == dc.id)
    #expect(try db.book.locationID(for: "Shop, upstairs, Bern") == odd.id)
    // "A, B, C" can name ("A", "B, C") and ("A, B", "C"): refused as ambiguous.
    let first = try db.add("A", "B, C", "0", "0")
    let second = try db.add("A, B", "C", "1", "1")
    #expect(
      throws: LocationError.ambiguous(reference: "A, B, C", ids: [first.id, second.id])
    ) { try db.book.locationID(for: "A, B, C") }
  }

  @Test func unknownReferencesAreNotFoundWithAHint() throws {
    let colosseum = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    #expect(throws: LocationError.notFound(reference: "99", hint: nil)) {
      try db.book.locationID(for: "99")
    }
    #expect(throws: LocationError.notFound(reference: "99999999999999999999", hint: nil)) {
      try db.book.locationID(for: "99999999999999999999")
    }
    #expect(throws: LocationError.notFound(reference: "Colosseum, Paris", hint: nil)) {
      try db.book.locationID(for: "Colosseum, Paris")
    }
    let hint = "did you mean \"Colosseum, Rome\" (id \(colosseum.id))?"
    #expect(throws: LocationError.notFound(reference: "colosseum", hint: hint)) {
      try db.book.locationID(for: "colosseum")
    }
    let message = LocationError.notFound(reference: "colosseum", hint: hint).errorDescription
    #expect(message == "no location matches 'colosseum'; " + hint)
    #expect(throws: LocationError.self) { try db.book.locationID(for: "  ") }
  }

  @Test func resolvingWorksInsideTheCallersWriteTransaction() throws {
    // The trades commands resolve --location while they hold the write lock.
    let colosseum = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    let id = try db.store.database.write {
      let id = try db.book.locationID(for: "Colosseum, Rome")
      try db.addTrade(at: id)
      return id
    }
    #expect(id == colosseum.id)
  }

  // MARK: - Writing

  @Test func addStoresEveryFieldAndTheImagesInOrder() throws {
    let added = try db.book.add(
      LocationInput(
        name: "Colosseum", city: "Rome", latitude: "41.8902", longitude: "12.4922",
        description: "An arena.", link: "https://en.wikipedia.org/wiki/Colosseum",
        images: ["c", "a", "b"]), now: db.now)
    #expect(added.name == "Colosseum")
    #expect(added.latitude == 41.8902)
    #expect(added.images == ["c", "a", "b"])
    #expect(added.createdAt == "2024-11-30T12:00:00Z")
    #expect(added.updatedAt == added.createdAt)
    #expect(try db.book.location("1") == added)
  }

  @Test func duplicateNameAndCityIsRefusedWhateverTheCase() throws {
    let first = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    #expect(
      throws: LocationError.duplicate(
        name: "COLOSSEUM", city: "rome", existingID: first.id, existing: "Colosseum, Rome")
    ) { try db.add("COLOSSEUM", "rome", "1", "1") }
    // The same name in another city is another place.
    #expect(try db.add("Colosseum", "El Jem", "35.2964", "10.7069").id != first.id)
    #expect(try db.book.list().count == 2)
  }

  @Test func editChangesOnlyWhatIsGiven() throws {
    let added = try db.book.add(
      LocationInput(
        name: "Colosseum", city: "Rome", latitude: "41.8902", longitude: "12.4922",
        description: "An arena.", link: "https://example.org", images: ["a", "b"]), now: db.now)
    var changes = LocationChanges()
    changes.latitude = "41.89"
    changes.addImages = ["c"]
    let later = db.now.addingTimeInterval(3_600)
    let edited = try db.book.edit("Colosseum, Rome", changes, now: later)
    #expect(edited.latitude == 41.89)
    #expect(edited.longitude == added.longitude)
    #expect(edited.description == "An arena.")
    #expect(edited.images == ["a", "b", "c"])
    #expect(edited.createdAt == "2024-11-30T12:00:00Z")
    #expect(edited.updatedAt == "2024-11-30T13:00:00Z")

    var replace = LocationChanges()
    replace.clearImages = true
    replace.addImages = ["z"]
    replace.description = ""
    replace.link = ""
    let replaced = try db.book.edit(String(added.id), replace, now: later)
    #expect(replaced.images == ["z"])
    #expect(replaced.description == nil)
    #expect(replaced.link == nil)
  }

  @Test func editIntoADuplicateIsRefused() throws {
    try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    let pantheon = try db.add("Pantheon", "Rome", "41.8986", "12.4769")
    var changes = LocationChanges()
    changes.name = "colosseum"
    #expect(throws: LocationError.self) {
      try db.book.edit(String(pantheon.id), changes, now: db.now)
    }
    #expect(try db.book.location(String(pantheon.id)).name == "Pantheon")
    // Renaming to a different case of its own name is fine.
    changes.name = "PANTHEON"
    #expect(try db.book.edit(String(pantheon.id), changes, now: db.now).name == "PANTHEON")
  }

  @Test func deleteIsRefusedWhileTradesPointAtTheLocationUnlessForced() throws {
    let colosseum = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    _ = try db.book.add(
      LocationInput(
        name: "Pantheon", city: "Rome", latitude: "41.8986", longitude: "12.4769", images: ["p"]),
      now: db.now)
    try db.addTrade(at: colosseum.id)
    try db.addTrade(at: colosseum.id, executedAt: "2024-01-01T09:00:00Z")
    try db.addTrade(at: nil)
    #expect(
      throws: LocationError.hasTrades(id: colosseum.id, reference: "Colosseum, Rome", count: 2)
    ) {
      try db.book.delete("Colosseum, Rome", force: false)
    }
    #expect(try db.book.list().count == 2)

    let detail = try db.book.detail("Colosseum, Rome")
    #expect(detail.trades.map(\.executedAt) == ["2024-01-01T09:00:00Z", "2024-03-01T12:00:00Z"])
    #expect(detail.trades.first?.quantity == (try ExactDecimal(parsing: "0.25")))

    let deleted = try db.book.delete("Colosseum, Rome", force: true)
    #expect(deleted.detachedTrades == 2)
    let database = db.store.database
    #expect(try database.scalarInt("SELECT count(*) FROM trades") == 3)
    #expect(
      try database.scalarInt("SELECT count(*) FROM trades WHERE location_id IS NOT NULL") == 0)
    #expect(try database.scalarInt("SELECT count(*) FROM locations") == 1)

    // Deleting a location takes its images with it.
    #expect(try database.scalarInt("SELECT count(*) FROM location_images") == 1)
    _ = try db.book.delete("Pantheon, Rome", force: false)
    #expect(try database.scalarInt("SELECT count(*) FROM location_images") == 0)
  }

  // MARK: - Next

  @Test func nextWalksInListOrderAndWrapsToTheFirst() throws {
    let a = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    let b = try db.add("Pantheon", "Rome", "41.8986", "12.4769")
    let c = try db.add("Eiffel Tower", "Paris", "48.8584", "2.2945")
    _ = try db.book.delete(String(b.id), force: false)  // a gap in the ids
    let d = try db.add("Louvre Museum", "Paris", "48.8606", "2.3376")
    #expect(try db.book.next(after: String(a.id)).id == c.id)
    #expect(try db.book.next(after: String(c.id)).id == d.id)
    #expect(try db.book.next(after: "Louvre Museum, Paris").id == a.id)
    #expect(throws: LocationError.self) { try db.book.next(after: String(b.id)) }
  }

  @Test func nextOfTheOnlyLocationIsItself() throws {
    let only = try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    #expect(try db.book.next(after: String(only.id)) == only)
  }

  // MARK: - List

  @Test func listFiltersByCityAndText() throws {
    try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    _ = try db.book.add(
      LocationInput(
        name: "Eiffel Tower", city: "Paris", latitude: "48.8584", longitude: "2.2945",
        description: "Wrought iron on the Champ de Mars."), now: db.now)
    try db.add("Louvre Museum", "Paris", "48.8606", "2.3376")
    #expect(try db.book.list().map(\.name) == ["Colosseum", "Eiffel Tower", "Louvre Museum"])
    #expect(try db.book.list(city: "paris").map(\.name) == ["Eiffel Tower", "Louvre Museum"])
    #expect(try db.book.list(search: "IRON").map(\.name) == ["Eiffel Tower"])
    #expect(try db.book.list(search: "rom").map(\.name) == ["Colosseum"])
    #expect(try db.book.list(city: "Paris", search: "museum").map(\.name) == ["Louvre Museum"])
    #expect(try db.book.list(city: "Berlin").isEmpty)
  }

  // MARK: - Near

  @Test func nearSortsByDistanceAndHonoursRadiusAndLimit() throws {
    try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    try db.add("Pantheon", "Rome", "41.8986", "12.4769")
    try db.add("Trevi Fountain", "Rome", "41.9009", "12.4833")
    try db.add("Eiffel Tower", "Paris", "48.8584", "2.2945")
    let all = try db.book.near(latitude: "41.8902", longitude: "12.4922")
    #expect(
      all.map(\.location.name) == ["Colosseum", "Trevi Fountain", "Pantheon", "Eiffel Tower"])
    #expect(abs(all[2].distanceKm - 1.5736) < 0.0005)
    #expect(abs(all[3].distanceKm - 1_109.42) < 0.01)
    let within = try db.book.near(latitude: "41.8902", longitude: "12.4922", radiusKm: "1.5")
    #expect(within.map(\.location.name) == ["Colosseum", "Trevi Fountain"])
    let two = try db.book.near(
      latitude: "41.8902", longitude: "12.4922", radiusKm: "2000", limit: 2)
    #expect(two.map(\.location.name) == ["Colosseum", "Trevi Fountain"])
  }

  @Test func nearListsPlacesAtTheSameDistanceByID() throws {
    // Added in an order that is neither alphabetical nor reversed, all at one spot.
    try db.add("Trevi Fountain", "Rome", "41.9009", "12.4833")
    try db.add("Fontana di Trevi", "Roma", "41.9009", "12.4833")
    try db.add("Another Name", "Rome", "41.9009", "12.4833")
    let near = try db.book.near(latitude: "41.8902", longitude: "12.4922")
    #expect(near.map(\.location.id) == [1, 2, 3])
    #expect(near.map(\.distanceKm) == Array(repeating: near[0].distanceKm, count: 3))
  }

  /// A place exactly at the radius is within it ("within" includes the edge).
  @Test func nearIncludesAPlaceExactlyAtTheRadius() throws {
    try db.add("Colosseum", "Rome", "41.8902", "12.4922")
    try db.add("Eiffel Tower", "Paris", "48.8584", "2.2945")
    let distance = try #require(
      try db.book.near(latitude: "41.8902", longitude: "12.4922").last?.distanceKm)
    // A radius whose decimal converts to exactly that distance (radii are exact decimals,
    // distances Doubles): search the units next to it, a Double's spacing at a time.
    let middle = Int128((distance * 1e18).rounded())
    let units = try #require(
      (-4096...4096).lazy.map { middle + Int128($0) * 4096 }
        .first { ExactDecimal(units: $0).doubleValue == distance },
      "no decimal converts to \(distance)")
    let radius = ExactDecimal(units: units).description
    let within = try db.book.near(latitude: "41.8902", longitude: "12.4922", radiusKm: radius)
    #expect(within.map(\.location.name) == ["Colosseum", "Eiffel Tower"])
  }

  @Test func nearRefusesBadInputNamingTheField() throws {
    let cases: [(String, String, String?, String)] = [
      ("91", "0", nil, "latitude"),
      ("0", "x", nil, "longitude"),
      ("0", "0", "0", "radius"),
      ("0", "0", "-5", "radius"),
      ("0", "0", "five", "radius"),
    ]
    for (lat, lon, radius, field) in cases {
      do {
        _ = try db.book.near(latitude: lat, longitude: lon, radiusKm: radius)
        Issue.record("accepted \(lat) \(lon) \(radius ?? "-")")
      } catch let LocationError.invalidField(found, _) {
        #expect(found == field)
      } catch let LocationError.malformedField(found, _) {
        #expect(found == field)
      }
    }
  }

  @Test func nearWithARadiusMatchesAFullScanOnThousandsOfRows() throws {
    // 5,000 pseudo-random places all over the globe, including the poles and the antimeridian.
    var generator = SplitMix64(seed: 7)
    let database = db.store.database
    try database.write {
      for index in 0..<5_000 {
        let lat = Double.random(in: -90...90, using: &generator)
        let lon = Double.random(in: -180...180, using: &generator)
        try database.execute(
          """
          INSERT INTO locations (name, city, latitude, longitude, created_at, updated_at)
          VALUES (?, 'Grid', ?, ?, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')
          """, ["P\(index)", lat, lon])
      }
    }
    let centres: [(String, String)] = [
      ("41.8902", "12.4922"), ("89.9", "45"), ("-89.5", "-170"), ("0", "179.9"), ("-20", "-179.95"),
    ]
    for (lat, lon) in centres {
      for radius in ["50", "500", "3000"] {
        let fast = try db.book.near(
          latitude: lat, longitude: lon, radiusKm: radius, limit: 100_000)
        let everything = try db.book.near(latitude: lat, longitude: lon, limit: 100_000)
        let expected = everything.filter { $0.distanceKm <= Double(radius) ?? 0 }
        #expect(fast.map(\.location.id) == expected.map(\.location.id), "\(lat) \(lon) r=\(radius)")
      }
    }
    // The prefilter uses the index rather than scanning the table.
    let plan = try database.rows(
      """
      EXPLAIN QUERY PLAN SELECT id, latitude, longitude FROM locations
      WHERE latitude BETWEEN ? AND ?
        AND (longitude BETWEEN ? AND ? OR longitude BETWEEN ? AND ?)
      """, [-1.0, 1.0, -1.0, 1.0, 179.0, 180.0]
    ) { try $0["detail"] as String }
    #expect(plan.contains { $0.contains("USING COVERING INDEX locations_by_position") }, "\(plan)")
  }
}
