import Foundation

/// A place in the book of locations (a landmark, a shop, an ATM), as stored in `locations`
/// with its image names from `location_images`.
public struct Location: Sendable, Equatable {
  public let id: Int64
  public let name: String
  public let city: String
  /// Degrees north, -90...90.
  public let latitude: Double
  /// Degrees east, -180...180.
  public let longitude: Double
  public let description: String?
  /// An http or https URL.
  public let link: String?
  /// Image names in display order.
  public var images: [String]
  /// UTC ISO-8601.
  public let createdAt: String
  /// UTC ISO-8601.
  public let updatedAt: String

  public init(
    id: Int64, name: String, city: String, latitude: Double, longitude: Double,
    description: String?, link: String?, images: [String], createdAt: String, updatedAt: String
  ) {
    (
      self.id, self.name, self.city, self.latitude, self.longitude, self.description, self.link,
      self.images, self.createdAt, self.updatedAt
    ) = (id, name, city, latitude, longitude, description, link, images, createdAt, updatedAt)
  }

  /// The `"NAME, CITY"` form that every locations command accepts in place of the id.
  public var reference: String { "\(name), \(city)" }

  static let columns =
    "id, name, city, latitude, longitude, description, link, created_at, updated_at"

  /// Reads the columns listed in `columns`; the images are loaded separately.
  public init(row: Row, images: [String]) throws {
    self.init(
      id: try row["id"], name: try row["name"], city: try row["city"],
      latitude: try row["latitude"], longitude: try row["longitude"],
      description: try row["description"], link: try row["link"], images: images,
      createdAt: try row["created_at"], updatedAt: try row["updated_at"])
  }

  // MARK: - SQL (migrations/0003_locations.sql)

  /// Whether a location with `id` exists.
  public static func exists(id: Int64, _ db: Database) throws -> Bool {
    try db.scalarInt("SELECT id FROM locations WHERE id = ?", [id]) != nil
  }

  /// The id of the location named `name` in `city`, ignoring case.
  public static func id(name: String, city: String, _ db: Database) throws -> Int64? {
    try db.scalarInt("SELECT id FROM locations WHERE name = ? AND city = ?", [name, city])
  }

  /// The first two locations named `name` (in any city), by id, without their images.
  public static func named(_ name: String, _ db: Database) throws -> [Location] {
    try db.rows(
      "SELECT \(columns) FROM locations WHERE name = ? ORDER BY id LIMIT 2", [name]
    ) { try Location(row: $0, images: []) }
  }

  /// The location with `id` and its images, if any.
  public static func find(id: Int64, _ db: Database) throws -> Location? {
    guard
      let location = try db.row(
        "SELECT \(columns) FROM locations WHERE id = ?", [id], { try Location(row: $0, images: []) }
      )
    else { return nil }
    var found = location
    found.images = try db.rows(
      "SELECT name FROM location_images WHERE location_id = ? ORDER BY position", [id]
    ) { try $0["name"] as String }
    return found
  }

  /// Every location with its images, by id.
  public static func all(_ db: Database) throws -> [Location] {
    // One pass over the images instead of one query per location.
    var images: [Int64: [String]] = [:]
    let pairs = try db.rows(
      "SELECT location_id, name FROM location_images ORDER BY location_id, position"
    ) { (try $0["location_id"] as Int64, try $0["name"] as String) }
    for (id, name) in pairs { images[id, default: []].append(name) }
    return try db.rows("SELECT \(columns) FROM locations ORDER BY id") {
      try Location(row: $0, images: images[try $0["id"], default: []])
    }
  }

  /// The `"NAME, CITY"` of every location, by id (without coordinates or images), for showing
  /// the location of many trades.
  public static func references(_ db: Database) throws -> [Int64: String] {
    var references: [Int64: String] = [:]
    try db.prepare("SELECT id, name, city FROM locations").forEachRow([]) {
      references[try $0["id"]] = "\(try $0["name"] as String), \(try $0["city"] as String)"
    }
    return references
  }

  /// The id after `id`, wrapping to the first; nil when there are no locations.
  public static func id(after id: Int64, _ db: Database) throws -> Int64? {
    try db.scalarInt("SELECT id FROM locations WHERE id > ? ORDER BY id LIMIT 1", [id])
      ?? db.scalarInt("SELECT min(id) FROM locations")
  }

  /// A latitude range and longitude ranges, closed intervals; a range with min > max is empty.
  public typealias Box = (
    latitude: (min: Double, max: Double), longitudes: [(min: Double, max: Double)]
  )

  /// Calls `body` with the id, latitude and longitude of every location, or only of those in
  /// `box` (found on the `locations_by_position` index).
  public static func eachPosition(
    in box: Box?, _ db: Database,
    _ body: (_ id: Int64, _ latitude: Double, _ longitude: Double) throws -> Void
  ) throws {
    var sql = "SELECT id, latitude, longitude FROM locations"
    var values: [any SQLBindable] = []
    if let box {
      let longitudes = box.longitudes.map { _ in "longitude BETWEEN ? AND ?" }
      sql += " WHERE latitude BETWEEN ? AND ? AND (\(longitudes.joined(separator: " OR ")))"
      values = [box.latitude.min, box.latitude.max] + box.longitudes.flatMap { [$0.min, $0.max] }
    }
    try db.cached(sql).forEachRow(values) { row in
      try body(try row["id"], try row["latitude"], try row["longitude"])
    }
  }

  /// Inserts the location (its id is ignored) with its images; returns the new id.
  public func insert(_ db: Database) throws -> Int64 {
    try db.execute(
      """
      INSERT INTO locations (name, city, latitude, longitude, description, link, created_at,
        updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """, [name, city, latitude, longitude, description, link, createdAt, updatedAt])
    let id = db.lastInsertRowID
    try Self.insertImages(images, for: id, db)
    return id
  }

  /// Writes every field but `createdAt` back to the location's row and replaces its images.
  public func update(_ db: Database) throws {
    try db.execute(
      """
      UPDATE locations SET name = ?, city = ?, latitude = ?, longitude = ?, description = ?,
        link = ?, updated_at = ?
      WHERE id = ?
      """, [name, city, latitude, longitude, description, link, updatedAt, id])
    try db.execute("DELETE FROM location_images WHERE location_id = ?", [id])
    try Self.insertImages(images, for: id, db)
  }

  private static func insertImages(_ images: [String], for id: Int64, _ db: Database) throws {
    for (offset, name) in images.enumerated() {
      try db.execute(
        "INSERT INTO location_images (location_id, position, name) VALUES (?, ?, ?)",
        [id, offset + 1, name])
    }
  }

  /// The trades made at the location, oldest first.
  public static func trades(at id: Int64, _ db: Database) throws -> [LocationTrade] {
    try db.rows(
      """
      SELECT t.id, t.executed_at, t.side, t.coin_id, t.quantity, t.price, p.currency
      FROM trades AS t JOIN portfolios AS p ON p.id = t.portfolio_id
      WHERE t.location_id = ? ORDER BY t.executed_at, t.id
      """, [id], LocationTrade.init(row:))
  }

  /// How many trades were made at the location.
  public static func tradeCount(at id: Int64, _ db: Database) throws -> Int {
    Int(try db.scalarInt("SELECT count(*) FROM trades WHERE location_id = ?", [id]) ?? 0)
  }

  /// Clears the location of the trades made there, then deletes it with its images.
  public static func delete(id: Int64, _ db: Database) throws {
    try db.execute("UPDATE trades SET location_id = NULL WHERE location_id = ?", [id])
    try db.execute("DELETE FROM locations WHERE id = ?", [id])
  }
}

/// A trade whose `location_id` points at a location.
public struct LocationTrade: Sendable, Equatable {
  public let id: Int64
  public let executedAt: String
  /// "buy" or "sell".
  public let side: String
  public let coinID: String
  public let quantity: ExactDecimal
  public let price: ExactDecimal
  /// The currency of the trade's portfolio, which its price is in.
  public let currency: String

  init(row: Row) throws {
    (id, executedAt, side, coinID, quantity, price, currency) = (
      try row["id"], try row["executed_at"], try row["side"], try row["coin_id"],
      try row["quantity"], try row["price"], try row["currency"]
    )
  }
}
