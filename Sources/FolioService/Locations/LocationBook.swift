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
      if let id = Int64(text), try Location.exists(id: id, database) { return id }
      throw LocationError.notFound(reference: text, hint: nil)
    }
    // A name or city may itself hold a comma, so try every comma as the separator.
    var matches: [Int64] = []
    var index = text.startIndex
    while let comma = text[index...].firstIndex(of: ",") {
      let name = text[..<comma].trimmingCharacters(in: .whitespaces)
      let city = text[text.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      if !name.isEmpty && !city.isEmpty, let id = try Location.id(name: name, city: city, database),
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

  /// The `"NAME, CITY"` of every location, by id: how trade listings name a trade's location.
  public func references() throws -> [Int64: String] {
    try database.read { try Location.references(database) }
  }

  /// The reference that names location `id` in a file read back by `import trades`: its
  /// `"NAME, CITY"` when that resolves to `id` alone, else the id (a name or city holding a
  /// comma can make the text match two locations). `references` is from `references()`.
  public func portableReference(_ id: Int64, references: [Int64: String]) throws -> String {
    guard let reference = references[id], (try? locationID(for: reference)) == id else {
      return String(id)
    }
    return reference
  }

  /// Suggests the full reference when `text` is the name of exactly one location.
  private func hint(for text: String) throws -> String? {
    let named = try Location.named(text, database)
    guard named.count == 1, let only = named.first else { return nil }
    return "did you mean \"\(only.reference)\" (id \(only.id))?"
  }

  /// The duplicate error for a location with the same name and city as `existingID`.
  private func duplicate(_ valid: ValidLocation, _ existingID: Int64) throws -> LocationError {
    let existing = try Location.find(id: existingID, database)?.reference ?? ""
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
      return LocationDetail(
        location: location, trades: try Location.trades(at: location.id, database))
    }
  }

  /// Every location in list order, optionally only those in `city` (case-insensitive) and
  /// those whose name, city or description contains `search` (case-insensitive).
  public func list(city: String? = nil, search: String? = nil) throws -> [Location] {
    let all = try database.read { try Location.all(database) }
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
      return try load(try Location.id(after: id, database) ?? id)
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
      let box = radius.map { radius -> Location.Box in
        let box = GeoMath.boundingBox(center: center, radiusKm: radius)
        return ((box.minLatitude, box.maxLatitude), box.longitudeRanges)
      }
      try Location.eachPosition(in: box, database) { id, latitude, longitude in
        let distance = GeoMath.distanceKm(
          center, Coordinate(latitude: latitude, longitude: longitude))
        if radius.map({ distance <= $0 }) ?? true { candidates.append((id, distance)) }
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
    let message = "radius '\(trimmed)' must be a positive number of kilometres"
    let value: ExactDecimal
    do {
      value = try ExactDecimal(parsing: trimmed)
    } catch {
      // Why it is not read (too large, too many digits) rather than a rule it may meet.
      let reason = error.errorDescription.map { ": \($0)" } ?? ""
      throw .malformedField(field: "radius", message: message + reason)
    }
    guard value.isPositive else { throw .invalidField(field: "radius", message: message) }
    return value.doubleValue
  }

  /// Reads one location and its images; the id must exist.
  func load(_ id: Int64) throws -> Location {
    guard let location = try Location.find(id: id, database) else {
      throw LocationError.notFound(reference: String(id), hint: nil)
    }
    return location
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
    if let existing = try Location.id(name: valid.name, city: valid.city, database) {
      throw try duplicate(valid, existing)
    }
    let created = input.createdAt ?? Timestamp.format(now)
    return try valid.location(id: 0, createdAt: created, updatedAt: input.updatedAt ?? created)
      .insert(database)
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
      if let existing = try Location.id(name: valid.name, city: valid.city, database),
        existing != current.id
      {
        throw try duplicate(valid, existing)
      }
      try valid.location(
        id: current.id, createdAt: current.createdAt, updatedAt: Timestamp.format(now)
      ).update(database)
      return try load(current.id)
    }
  }

  /// Deletes the location and its images. Refused while trades point at it, unless `force`,
  /// which first clears those trades' location.
  public func delete(_ reference: String, force: Bool) throws -> DeletedLocation {
    try database.write {
      let location = try load(try locationID(for: reference))
      let trades = try Location.tradeCount(at: location.id, database)
      if trades > 0 && !force {
        throw LocationError.hasTrades(
          id: location.id, reference: location.reference, count: trades)
      }
      try Location.delete(id: location.id, database)
      return DeletedLocation(location: location, detachedTrades: trades)
    }
  }
}
