import FolioStorage
import Foundation

/// A location the import left out because one with its name and city already existed.
public struct SkippedLocation: Sendable, Equatable {
  /// "element 3" or "feature 3" (1-based).
  public let element: String
  /// The line of the file where the element starts.
  public let line: Int
  public let name: String
  public let city: String
  public let existingID: Int64
}

/// What `folio locations import` did.
public struct LocationImportOutcome: Sendable, Equatable {
  public let imported: [Location]
  public let skipped: [SkippedLocation]
}

extension LocationBook {
  /// Imports locations from a JSON file, all or nothing: either a JSON array of location
  /// objects (the shape `export --format json` writes) or a GeoJSON FeatureCollection of
  /// points (`export --format geojson`). A location whose name and city already exist — in
  /// the database or earlier in the file — is skipped and reported; any other problem refuses
  /// the whole file with its line, element number and field.
  ///
  /// Location object members: `name`, `city`, `latitude`, `longitude` (required; numbers or
  /// decimal strings), `description`, `link`, `images` (array of strings), `created_at`,
  /// `updated_at` (optional; null means absent) and `id` (ignored: ids are assigned anew).
  /// In GeoJSON the coordinates come from the Point geometry (`[longitude, latitude]`,
  /// numbers only) and the other members from `properties`.
  public func importLocations(fromFile path: String, now: Date) throws -> LocationImportOutcome {
    let entries = try Self.readEntries(path)
    return try database.write {
      var imported: [Int64] = []
      var skipped: [SkippedLocation] = []
      for entry in entries {
        do {
          imported.append(try insert(entry.valid, input: entry.input, now: now))
        } catch LocationError.duplicate(let name, let city, let existing, _) {
          skipped.append(
            SkippedLocation(
              element: entry.element, line: entry.line, name: name, city: city,
              existingID: existing))
        }
      }
      return LocationImportOutcome(imported: try imported.map { try load($0) }, skipped: skipped)
    }
  }

  /// One checked element of an import file.
  struct ImportEntry {
    let element: String
    let line: Int
    let input: LocationInput
    let valid: ValidLocation
  }

  /// Reads, parses and checks every element of the file before anything is written.
  static func readEntries(_ path: String) throws -> [ImportEntry] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw LocationError.fileMissing(path)
    }
    guard !isFolder.boolValue else {
      throw LocationError.fileError(path: path, reason: "is a folder, not a file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw LocationError.fileError(path: path, reason: "cannot be read (permission denied?)")
    }
    return try readEntries(data: data, path: path)
  }

  /// Parses and checks every element of a file's bytes; `path` names it in messages.
  static func readEntries(data: Data, path: String) throws -> [ImportEntry] {
    let root: JSONValue
    do {
      root = try JSONValue.parse(data)
    } catch {
      throw LocationError.malformedFile(
        path: path, line: error.line, message: "column \(error.column): \(error.reason)")
    }
    var reader = ElementReader(path: path)
    switch root.kind {
    case .array(let items):
      return try items.enumerated().map { offset, node in
        reader.element = "element \(offset + 1)"
        return try reader.locationObject(node)
      }
    case .object:
      guard root["type"]?.stringValue == "FeatureCollection" else {
        throw LocationError.malformedFile(
          path: path, line: root.line,
          message:
            "expected a JSON array of locations or a GeoJSON FeatureCollection (\"type\": \"FeatureCollection\")"
        )
      }
      guard let items = root["features"]?.arrayValue else {
        throw LocationError.malformedFile(
          path: path, line: root.line, message: "the FeatureCollection has no \"features\" array")
      }
      return try items.enumerated().map { offset, node in
        reader.element = "feature \(offset + 1)"
        return try reader.feature(node)
      }
    default:
      throw LocationError.malformedFile(
        path: path, line: root.line,
        message:
          "expected a JSON array of locations or a GeoJSON FeatureCollection, found \(root.kindName)"
      )
    }
  }
}

/// Turns JSON elements into checked locations, naming the file, line, element and field of
/// any problem.
private struct ElementReader {
  let path: String
  var element = ""

  static let objectMembers: Set<String> = [
    "id", "name", "city", "latitude", "longitude", "description", "link", "images", "created_at",
    "updated_at",
  ]
  static let propertyMembers: Set<String> = [
    "name", "city", "description", "link", "images", "created_at", "updated_at",
  ]

  func fail(_ node: JSONValue, _ message: String) -> LocationError {
    .invalidElement(path: path, line: node.line, element: element, message: message)
  }

  func locationObject(_ node: JSONValue) throws -> LocationImport.Entry {
    let members = try members(of: node, allowed: ElementReader.objectMembers, what: "a location")
    let input = LocationInput(
      name: try requiredString("name", members, node),
      city: try requiredString("city", members, node),
      latitude: try degrees("latitude", members, node),
      longitude: try degrees("longitude", members, node),
      description: try optionalString("description", members),
      link: try optionalString("link", members),
      images: try images(members),
      createdAt: try timestamp("created_at", members),
      updatedAt: try timestamp("updated_at", members))
    return try check(input, node)
  }

  func feature(_ node: JSONValue) throws -> LocationImport.Entry {
    guard node["type"]?.stringValue == "Feature" else {
      throw fail(node, "expected a GeoJSON Feature object (\"type\": \"Feature\")")
    }
    guard let geometry = node["geometry"], geometry["type"]?.stringValue == "Point" else {
      throw fail(node, "geometry must be a GeoJSON Point")
    }
    guard let position = geometry["coordinates"]?.arrayValue,
      position.count == 2 || position.count == 3
    else {
      throw fail(geometry, "geometry coordinates must be [longitude, latitude]")
    }
    guard let properties = node["properties"] else {
      throw fail(node, "properties are missing (they hold name and city)")
    }
    let members = try self.members(
      of: properties, allowed: ElementReader.propertyMembers, what: "properties")
    let input = LocationInput(
      name: try requiredString("name", members, properties),
      city: try requiredString("city", members, properties),
      latitude: try number(position[1], field: "latitude", allowString: false),
      longitude: try number(position[0], field: "longitude", allowString: false),
      description: try optionalString("description", members),
      link: try optionalString("link", members),
      images: try images(members),
      createdAt: try timestamp("created_at", members),
      updatedAt: try timestamp("updated_at", members))
    return try check(input, node)
  }

  private func check(_ input: LocationInput, _ node: JSONValue) throws
    -> LocationImport.Entry
  {
    do {
      return LocationImport.Entry(
        element: element, line: node.line, input: input, valid: try ValidLocation(input))
    } catch .invalidField(_, let message), .malformedField(_, let message) {
      throw fail(node, message)
    } catch {
      throw error
    }
  }

  private func members(of node: JSONValue, allowed: Set<String>, what: String) throws
    -> [String: JSONValue]
  {
    guard let object = node.objectValue else {
      throw fail(node, "expected \(what) object, found \(node.kindName)")
    }
    var result: [String: JSONValue] = [:]
    for member in object.members {
      guard allowed.contains(member.key) else {
        throw fail(
          member.value,
          "unknown field '\(member.key)'; expected "
            + allowed.sorted().filter { $0 != "id" }.joined(separator: ", "))
      }
      result[member.key] = member.value
    }
    return result
  }

  private func requiredString(
    _ key: String, _ members: [String: JSONValue], _ parent: JSONValue
  ) throws -> String {
    guard let node = members[key] else { throw fail(parent, "\(key) is missing") }
    guard let text = node.stringValue else {
      throw fail(node, "\(key) must be a string, found \(node.kindName)")
    }
    return text
  }

  private func optionalString(_ key: String, _ members: [String: JSONValue]) throws
    -> String?
  {
    guard let node = members[key] else { return nil }
    switch node.kind {
    case .null: return nil
    case .string(let text): return text
    default: throw fail(node, "\(key) must be a string or null, found \(node.kindName)")
    }
  }

  private func degrees(
    _ key: String, _ members: [String: JSONValue], _ parent: JSONValue
  ) throws -> String {
    guard let node = members[key] else { throw fail(parent, "\(key) is missing") }
    return try number(node, field: key)
  }

  /// A coordinate given as a JSON number, or (`allowString`) a decimal string, as written
  /// (the location checks parse it exactly, exponent included). GeoJSON positions are numbers
  /// (RFC 7946), so a feature's coordinates may not be strings.
  private func number(_ node: JSONValue, field: String, allowString: Bool = true) throws -> String {
    switch node.kind {
    case .number(let text): return text
    case .string(let text) where allowString: return text
    default: throw fail(node, "\(field) must be a number, found \(node.kindName)")
    }
  }

  private func images(_ members: [String: JSONValue]) throws -> [String] {
    guard let node = members["images"] else { return [] }
    switch node.kind {
    case .null: return []
    case .array(let items):
      return try items.map { item in
        guard let text = item.stringValue else {
          throw fail(item, "images must hold strings, found \(item.kindName)")
        }
        return text
      }
    default: throw fail(node, "images must be an array of strings, found \(node.kindName)")
    }
  }

  private func timestamp(_ key: String, _ members: [String: JSONValue]) throws -> String? {
    guard let node = members[key], let text = try optionalString(key, members) else { return nil }
    guard (try? Timestamp(parsing: text, .stored)) != nil else {
      throw fail(node, "\(key) '\(text)' must be a UTC time such as 2024-03-01T12:00:00Z")
    }
    return text
  }
}

/// Helpers of the import that do not need a reader.
enum LocationImport {
  typealias Entry = LocationBook.ImportEntry
}
