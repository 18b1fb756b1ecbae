import FolioStorage
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
