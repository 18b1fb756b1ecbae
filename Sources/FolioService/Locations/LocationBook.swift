import FolioStorage
import Foundation

/// The book of locations: add, list, show, edit, delete, search near a point, and resolve the
/// references other commands accept (`ID` or `"NAME, CITY"`).
///
/// List order (used by `list`, `next` and `export`) is the order locations were added (id),
/// as the map app walked its array. Names and cities match case-insensitively for ASCII
/// letters (the columns use SQLite's NOCASE collation, https://sqlite.org/datatype3.html#collation).
public struct LocationBook {
  let store: Store

  public init(_ store: Store) { self.store = store }

  var database: Database { store.database }

  // MARK: - References

  /// Resolves `reference` — an id such as `3`, or `"NAME, CITY"` such as `"Colosseum, Rome"` —
  /// to a location id. For `folio buy/sell --location` and `tx list --location`.
  ///
  /// Throws `LocationError.notFound` (exit 66) when nothing matches, with a hint when the text
  /// is the name of exactly one location; `.ambiguous` (65) when a name or city containing a
  /// comma makes the reference match two locations; `.invalidField` (65) when it is empty.
  public func locationID(for reference: String) throws -> Int64 {
    let text = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else {
      throw LocationError.invalidField(
        field: "location", message: "a location is required: give its id or \"NAME, CITY\"")
    }
    if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
      if let id = Int64(text),
        try database.scalarInt("SELECT id FROM locations WHERE id = ?", [id]) != nil
      {
        return id
      }
      throw LocationError.notFound(reference: text, hint: nil)
    }
    // A name or city may itself hold a comma, so try every comma as the separator.
    var matches: [Int64] = []
    var index = text.startIndex
    while let comma = text[index...].firstIndex(of: ",") {
      let name = text[..<comma].trimmingCharacters(in: .whitespaces)
      let city = text[text.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      if !name.isEmpty && !city.isEmpty, let id = try findID(name: name, city: city),
        !matches.contains(id)
      {
        matches.append(id)
      }
      index = text.index(after: comma)
    }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 { throw LocationError.ambiguous(reference: text, ids: matches) }
    throw LocationError.notFound(reference: text, hint: try hint(for: text))
  }

  /// Suggests the full reference when `text` is the name of exactly one location.
  private func hint(for text: String) throws -> String? {
    let named = try database.rows(
      "SELECT id, name, city FROM locations WHERE name = ? ORDER BY id LIMIT 2", [text]
    ) { (try $0["id"] as Int64, try $0["name"] as String, try $0["city"] as String) }
    guard named.count == 1, let only = named.first else { return nil }
    return "did you mean \"\(only.1), \(only.2)\" (id \(only.0))?"
  }

  private func findID(name: String, city: String) throws -> Int64? {
    try database.scalarInt("SELECT id FROM locations WHERE name = ? AND city = ?", [name, city])
  }

  /// The duplicate error for a location with the same name and city as `existingID`.
  private func duplicate(_ valid: ValidLocation, _ existingID: Int64) throws -> LocationError {
    let existing =
      try database.row("SELECT name, city FROM locations WHERE id = ?", [existingID]) {
        "\(try $0["name"] as String), \(try $0["city"] as String)"
      } ?? ""
    return .duplicate(
      name: valid.name, city: valid.city, existingID: existingID, existing: existing)
  }

  // MARK: - Reading

  /// The location `reference` names (an id or `"NAME, CITY"`).
  public func location(_ reference: String) throws -> Location {
    try database.read { try load(try locationID(for: reference)) }
  }

  /// The location with the trades made there, oldest first.
  public func detail(_ reference: String) throws -> LocationDetail {
    try database.read {
      let location = try load(try locationID(for: reference))
      let trades = try database.rows(
        """
        SELECT id, executed_at, side, coin_id, quantity, price FROM trades
        WHERE location_id = ? ORDER BY executed_at, id
        """, [location.id]
      ) { row in
        LocationTrade(
          id: try row["id"], executedAt: try row["executed_at"], side: try row["side"],
          coinID: try row["coin_id"], quantity: try row["quantity"], price: try row["price"])
      }
      return LocationDetail(location: location, trades: trades)
    }
  }

  /// Every location in list order, optionally only those in `city` (case-insensitive) and
  /// those whose name, city or description contains `search` (case-insensitive).
  public func list(city: String? = nil, search: String? = nil) throws -> [Location] {
    let all = try database.read {
      // One pass over the images instead of one query per location.
      var images: [Int64: [String]] = [:]
      let pairs = try database.rows(
        "SELECT location_id, name FROM location_images ORDER BY location_id, position"
      ) { (try $0["location_id"] as Int64, try $0["name"] as String) }
      for (id, name) in pairs { images[id, default: []].append(name) }
      return try database.rows("SELECT \(Location.columns) FROM locations ORDER BY id") {
        try Location(row: $0, images: images[try $0["id"], default: []])
      }
    }
    let cityFilter = city?.trimmingCharacters(in: .whitespaces)
    let searchFilter = search?.trimmingCharacters(in: .whitespaces)
    return all.filter { location in
      if let cityFilter, !cityFilter.isEmpty,
        location.city.compare(cityFilter, options: .caseInsensitive) != .orderedSame
      {
        return false
      }
      if let searchFilter, !searchFilter.isEmpty {
        let fields = [location.name, location.city, location.description ?? ""]
        return fields.contains { $0.range(of: searchFilter, options: .caseInsensitive) != nil }
      }
      return true
    }
  }

  /// The location after `reference` in list order, wrapping from the last to the first
  /// (the map app's Next button). With one location, that location itself.
  public func next(after reference: String) throws -> Location {
    try database.read {
      let id = try locationID(for: reference)
      let following =
        try database.scalarInt(
          "SELECT id FROM locations WHERE id > ? ORDER BY id LIMIT 1", [id])
        ?? database.scalarInt("SELECT min(id) FROM locations")
      return try load(following ?? id)
    }
  }

  /// The locations nearest to (`latitude`, `longitude`), nearest first (ties by id), with
  /// their great-circle distances. `radiusKm` keeps only those within it; `limit` caps the
  /// count. With a radius, SQL first narrows to the bounding box on the
  /// `locations_by_position` index, then the exact distance decides.
  public func near(
    latitude: String, longitude: String, radiusKm: String? = nil, limit: Int? = nil
  ) throws -> [NearbyLocation] {
    let center = Coordinate(
      latitude: try ValidLocation.degrees(latitude, field: "latitude", limit: 90),
      longitude: try ValidLocation.degrees(longitude, field: "longitude", limit: 180))
    let radius = try radiusKm.map { try Self.radius($0) }
    return try database.read {
      var candidates: [(id: Int64, distance: Double)] = []
      let collect: (Row) throws -> Void = { row in
        let point = Coordinate(latitude: try row["latitude"], longitude: try row["longitude"])
        let distance = GeoMath.distanceKm(center, point)
        if radius.map({ distance <= $0 }) ?? true {
          candidates.append((try row["id"], distance))
        }
      }
      if let radius {
        let box = GeoMath.boundingBox(center: center, radiusKm: radius)
        let ranges = box.longitudeRanges
        try database.cached(
          """
          SELECT id, latitude, longitude FROM locations
          WHERE latitude BETWEEN ? AND ?
            AND (longitude BETWEEN ? AND ? OR longitude BETWEEN ? AND ?)
          """
        ).forEachRow(
          [
            box.minLatitude, box.maxLatitude, ranges[0].min, ranges[0].max, ranges[1].min,
            ranges[1].max,
          ], collect)
      } else {
        try database.cached("SELECT id, latitude, longitude FROM locations").forEachRow([], collect)
      }
      candidates.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.id < $1.id) }
      if let limit { candidates = Array(candidates.prefix(max(0, limit))) }
      return try candidates.map {
        NearbyLocation(location: try load($0.id), distanceKm: $0.distance)
      }
    }
  }

  private static func radius(_ text: String) throws(LocationError) -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let refused = LocationError.invalidField(
      field: "radius", message: "radius '\(trimmed)' must be a positive number of kilometres")
    guard let value = try? ExactDecimal(parsing: trimmed), value.isPositive else { throw refused }
    return value.doubleValue
  }

  /// Reads one location and its images; the id must exist.
  func load(_ id: Int64) throws -> Location {
    guard
      let location = try database.row(
        "SELECT \(Location.columns) FROM locations WHERE id = ?", [id],
        { try Location(row: $0, images: []) }
      )
    else { throw LocationError.notFound(reference: String(id), hint: nil) }
    return try withImages(location)
  }

  private func withImages(_ location: Location) throws -> Location {
    let images = try database.rows(
      "SELECT name FROM location_images WHERE location_id = ? ORDER BY position", [location.id]
    ) { try $0["name"] as String }
    return Location(
      id: location.id, name: location.name, city: location.city, latitude: location.latitude,
      longitude: location.longitude, description: location.description, link: location.link,
      images: images, createdAt: location.createdAt, updatedAt: location.updatedAt)
  }

  // MARK: - Writing

  /// Adds a location after checking every field; refuses a second location with the same name
  /// in the same city.
  public func add(_ input: LocationInput, now: Date) throws -> Location {
    let valid = try ValidLocation(input)
    return try database.write {
      try load(try insert(valid, input: input, now: now))
    }
  }

  /// Inserts a checked location inside the caller's transaction and returns its id.
  func insert(_ valid: ValidLocation, input: LocationInput, now: Date) throws -> Int64 {
    if let existing = try findID(name: valid.name, city: valid.city) {
      throw try duplicate(valid, existing)
    }
    let created = input.createdAt ?? Timestamp.format(now)
    try database.execute(
      """
      INSERT INTO locations (name, city, latitude, longitude, description, link, created_at,
        updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        valid.name, valid.city, valid.latitude, valid.longitude, valid.description, valid.link,
        created, input.updatedAt ?? created,
      ])
    let id = database.lastInsertRowID
    try insertImages(valid.images, for: id)
    return id
  }

  private func insertImages(_ images: [String], for id: Int64) throws {
    for (offset, name) in images.enumerated() {
      try database.execute(
        "INSERT INTO location_images (location_id, position, name) VALUES (?, ?, ?)",
        [id, offset + 1, name])
    }
  }

  /// Applies `changes` to the location `reference` names; the result must pass every rule that
  /// a new location does.
  public func edit(_ reference: String, _ changes: LocationChanges, now: Date) throws -> Location {
    try database.write {
      let current = try load(try locationID(for: reference))
      let input = LocationInput(
        name: changes.name ?? current.name, city: changes.city ?? current.city,
        latitude: changes.latitude ?? GeoMath.text(current.latitude),
        longitude: changes.longitude ?? GeoMath.text(current.longitude),
        description: changes.description ?? current.description,
        link: changes.link ?? current.link,
        images: (changes.clearImages ? [] : current.images) + changes.addImages)
      let valid = try ValidLocation(input)
      if let existing = try findID(name: valid.name, city: valid.city), existing != current.id {
        throw try duplicate(valid, existing)
      }
      try database.execute(
        """
        UPDATE locations SET name = ?, city = ?, latitude = ?, longitude = ?, description = ?,
          link = ?, updated_at = ?
        WHERE id = ?
        """,
        [
          valid.name, valid.city, valid.latitude, valid.longitude, valid.description, valid.link,
          Timestamp.format(now), current.id,
        ])
      try database.execute("DELETE FROM location_images WHERE location_id = ?", [current.id])
      try insertImages(valid.images, for: current.id)
      return try load(current.id)
    }
  }

  /// Deletes the location and its images. Refused while trades point at it, unless `force`,
  /// which first clears those trades' location.
  public func delete(_ reference: String, force: Bool) throws -> DeletedLocation {
    try database.write {
      let location = try load(try locationID(for: reference))
      let trades = Int(
        try database.scalarInt(
          "SELECT count(*) FROM trades WHERE location_id = ?", [location.id]) ?? 0)
      if trades > 0 && !force {
        throw LocationError.hasTrades(
          id: location.id, reference: location.reference, count: trades)
      }
      if trades > 0 {
        try database.execute(
          "UPDATE trades SET location_id = NULL WHERE location_id = ?", [location.id])
      }
      try database.execute("DELETE FROM locations WHERE id = ?", [location.id])
      return DeletedLocation(location: location, detachedTrades: trades)
    }
  }
}
