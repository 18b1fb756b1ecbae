import FolioStorage
import Foundation

extension Location {
  public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

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
