import FolioStorage
import Foundation

// MARK: - Records

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
  public let images: [String]
  /// UTC ISO-8601.
  public let createdAt: String
  /// UTC ISO-8601.
  public let updatedAt: String

  public init(
    id: Int64, name: String, city: String, latitude: Double, longitude: Double,
    description: String?, link: String?, images: [String], createdAt: String, updatedAt: String
  ) {
    self.id = id
    self.name = name
    self.city = city
    self.latitude = latitude
    self.longitude = longitude
    self.description = description
    self.link = link
    self.images = images
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

  /// The `"NAME, CITY"` form that every locations command accepts in place of the id.
  public var reference: String { "\(name), \(city)" }

  /// The OpenStreetMap zoom level for a location's detail map. The map app showed a 0.01° span
  /// around the point; at zoom 16 one 256-pixel tile covers 360° / 2¹⁶ ≈ 0.0055°, so a
  /// phone-sized map about 460 pixels wide shows the same 0.01°.
  public static let detailZoom = 16

  /// A link that opens OpenStreetMap centred on the point, with a marker, at the detail zoom.
  public var mapURL: String {
    let lat = GeoMath.text(latitude)
    let lon = GeoMath.text(longitude)
    return
      "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=\(Location.detailZoom)/\(lat)/\(lon)"
  }

  static let columns =
    "id, name, city, latitude, longitude, description, link, created_at, updated_at"

  /// Reads the columns listed in `columns`; the images are loaded separately.
  init(row: Row, images: [String]) throws {
    self.init(
      id: try row["id"], name: try row["name"], city: try row["city"],
      latitude: try row["latitude"], longitude: try row["longitude"],
      description: try row["description"], link: try row["link"], images: images,
      createdAt: try row["created_at"], updatedAt: try row["updated_at"])
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
}

/// A location with the trades made there, for `folio locations show`.
public struct LocationDetail: Sendable, Equatable {
  public let location: Location
  /// Oldest first.
  public let trades: [LocationTrade]
}

/// A location and its great-circle distance from the point `near` searched around.
public struct NearbyLocation: Sendable, Equatable {
  public let location: Location
  public let distanceKm: Double
}

/// What `delete` removed.
public struct DeletedLocation: Sendable, Equatable {
  public let location: Location
  /// How many trades had their location cleared (only with `force`).
  public let detachedTrades: Int
}

// MARK: - Input

/// A new location as the user typed it. Every field is text so that the book can check it
/// and name the field that is wrong.
public struct LocationInput: Sendable, Equatable {
  public var name: String
  public var city: String
  public var latitude: String
  public var longitude: String
  public var description: String?
  public var link: String?
  public var images: [String]
  /// Kept from an import file; new locations get the current time.
  public var createdAt: String?
  public var updatedAt: String?

  public init(
    name: String, city: String, latitude: String, longitude: String, description: String? = nil,
    link: String? = nil, images: [String] = [], createdAt: String? = nil, updatedAt: String? = nil
  ) {
    self.name = name
    self.city = city
    self.latitude = latitude
    self.longitude = longitude
    self.description = description
    self.link = link
    self.images = images
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// The changes `edit` makes; nil leaves a field as it is. An empty description or link
/// removes it.
public struct LocationChanges: Sendable, Equatable {
  public var name: String?
  public var city: String?
  public var latitude: String?
  public var longitude: String?
  public var description: String?
  public var link: String?
  /// Remove every image before adding `addImages`.
  public var clearImages = false
  /// Image names appended in order.
  public var addImages: [String] = []

  public init() {}

  /// True when nothing would change.
  public var isEmpty: Bool {
    name == nil && city == nil && latitude == nil && longitude == nil && description == nil
      && link == nil && !clearImages && addImages.isEmpty
  }
}

/// A location whose fields passed every rule, ready to store.
struct ValidLocation: Equatable {
  let name: String
  let city: String
  let latitude: Double
  let longitude: Double
  let description: String?
  let link: String?
  let images: [String]

  /// Checks every field of `input` and normalizes it: surrounding spaces trimmed, an empty
  /// description or link dropped, the link's scheme lower-cased. Coordinates are parsed as
  /// exact decimals, so the range check is exact (90.000000000000000001 is refused even
  /// though it rounds to the Double 90), then stored as the nearest Double.
  init(_ input: LocationInput) throws(LocationError) {
    name = try ValidLocation.label(input.name, field: "name")
    city = try ValidLocation.label(input.city, field: "city")
    latitude = try ValidLocation.degrees(input.latitude, field: "latitude", limit: 90)
    longitude = try ValidLocation.degrees(input.longitude, field: "longitude", limit: 180)
    description = try ValidLocation.description(input.description)
    link = try ValidLocation.link(input.link)
    images = try ValidLocation.images(input.images)
  }

  static let maximumLabelLength = 200
  static let maximumDescriptionLength = 10_000

  private static func label(_ text: String, field: String) throws(LocationError) -> String {
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !value.isEmpty else {
      throw .invalidField(field: field, message: "\(field) must not be empty")
    }
    guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .invalidField(
        field: field, message: "\(field) '\(value)' contains a control character such as a newline")
    }
    guard value.unicodeScalars.count <= maximumLabelLength else {
      throw .invalidField(
        field: field, message: "\(field) is longer than \(maximumLabelLength) characters")
    }
    return value
  }

  /// Parses degrees exactly and checks -limit...limit.
  static func degrees(_ text: String, field: String, limit: Int) throws(LocationError) -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let value: ExactDecimal
    do {
      value = try ExactDecimal(parsing: trimmed)
    } catch .empty {
      throw .invalidField(field: field, message: "\(field) must not be empty")
    } catch .tooPrecise {
      throw .invalidField(
        field: field, message: "\(field) '\(trimmed)' has more than 18 decimal places")
    } catch .invalid(_, let reason) {
      let detail = reason == "not a number" ? "" : " (\(reason))"
      throw .invalidField(
        field: field,
        message: "\(field) '\(trimmed)' is not a number of degrees such as 41.8902\(detail)")
    } catch {
      throw outOfRange(field, trimmed, limit)
    }
    guard value >= ExactDecimal(-limit) && value <= ExactDecimal(limit) else {
      throw outOfRange(field, trimmed, limit)
    }
    return value.doubleValue
  }

  private static func outOfRange(_ field: String, _ text: String, _ limit: Int) -> LocationError {
    .invalidField(
      field: field,
      message: "\(field) '\(text)' is out of range: it must be between -\(limit) and \(limit)")
  }

  private static func description(_ text: String?) throws(LocationError) -> String? {
    guard let value = text?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
      return nil
    }
    guard value.unicodeScalars.count <= maximumDescriptionLength else {
      throw .invalidField(
        field: "description",
        message: "description is longer than \(maximumDescriptionLength) characters")
    }
    return value
  }

  /// An http(s) URL with a host and no spaces; the scheme is lower-cased.
  static func link(_ text: String?) throws(LocationError) -> String? {
    guard let value = text?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
      return nil
    }
    let refused = LocationError.invalidField(
      field: "link",
      message: "link '\(value)' is not an http(s) URL: it must start with http:// or https:// "
        + "followed by a host name")
    guard !value.unicodeScalars.contains(where: { $0.properties.isWhitespace }),
      let components = URLComponents(string: value),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      let separator = value.range(of: "://")
    else { throw refused }
    return scheme + value[separator.lowerBound...]
  }

  private static func images(_ names: [String]) throws(LocationError) -> [String] {
    var result: [String] = []
    for name in names {
      let value = try label(name, field: "image")
      guard !result.contains(value) else {
        throw .invalidField(field: "image", message: "image '\(value)' is listed more than once")
      }
      result.append(value)
    }
    return result
  }
}

// MARK: - Errors

/// Why a locations command was refused. Nothing is written when one is thrown.
public enum LocationError: LocalizedError, ClassifiedError, Equatable {
  /// A field broke a rule; the message names the field (65).
  case invalidField(field: String, message: String)
  /// Another location already has this name in this city (65); `existing` is its
  /// `"NAME, CITY"` as stored, which may differ in case.
  case duplicate(name: String, city: String, existingID: Int64, existing: String)
  /// No location matches the id or `"NAME, CITY"` reference (66).
  case notFound(reference: String, hint: String?)
  /// A `"NAME, CITY"` reference matches more than one location, which can happen only when
  /// names or cities themselves contain commas (65).
  case ambiguous(reference: String, ids: [Int64])
  /// Trades point at the location and `--force` was not given (65).
  case hasTrades(id: Int64, reference: String, count: Int)
  /// The file to import does not exist (66).
  case fileMissing(String)
  /// A file to import or export cannot be read or written (74).
  case fileError(path: String, reason: String)
  /// The import file is not valid JSON, or not the expected shape (65).
  case malformedFile(path: String, line: Int, message: String)
  /// One element of the import file is wrong; nothing was imported (65).
  case invalidElement(path: String, line: Int, element: String, message: String)

  public var kind: FailureKind {
    switch self {
    case .notFound, .fileMissing: return .inputMissing
    case .fileError: return .io
    default: return .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .invalidField(_, let message):
      return message
    case .duplicate(let name, let city, let id, let existing):
      return
        "a location named '\(name)' in city '\(city)' already exists: id \(id) (\(existing)); "
        + "name and city must be unique together"
    case .notFound(let reference, let hint):
      return "no location matches '\(reference)'; "
        + (hint ?? "give its id or \"NAME, CITY\" (see 'folio locations list')")
    case .ambiguous(let reference, let ids):
      return "'\(reference)' matches more than one location (ids "
        + ids.map(String.init).joined(separator: ", ") + "); give the id instead"
    case .hasTrades(let id, let reference, let count):
      return
        "location \(id) (\(reference)) has \(count) trade(s) recorded there; "
        + "use --force to delete it and clear their location"
    case .fileMissing(let path):
      return "\(path): no such file"
    case .fileError(let path, let reason):
      return "\(path): \(reason)"
    case .malformedFile(let path, let line, let message):
      return "\(path):\(line): \(message); nothing was imported"
    case .invalidElement(let path, let line, let element, let message):
      return "\(path):\(line): \(element): \(message); nothing was imported"
    }
  }
}
