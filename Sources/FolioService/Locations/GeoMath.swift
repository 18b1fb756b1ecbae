import Foundation

/// A point on the Earth in degrees (WGS 84 latitude and longitude).
public struct Coordinate: Sendable, Equatable {
  public let latitude: Double
  public let longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// Distances on a sphere and the latitude/longitude box that holds a circle, for `near`.
public enum GeoMath {
  /// The mean Earth radius Folio measures with, in kilometres.
  public static let earthRadiusKm = 6_371.0

  /// The great-circle distance between two points in kilometres (haversine formula on a
  /// sphere of radius `earthRadiusKm`), accurate to a few metres even for nearby points.
  public static func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
    let lat1 = radians(a.latitude)
    let lat2 = radians(b.latitude)
    let dLat = lat2 - lat1
    let dLon = radians(b.longitude - a.longitude)
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    // Rounding can push h a hair above 1 for antipodal points; asin would then return NaN.
    return 2 * earthRadiusKm * asin(min(1, sqrt(max(0, h))))
  }

  /// A latitude range and one or two longitude ranges (two when the box crosses the
  /// antimeridian) that together hold every point within `radiusKm` of `center`.
  public struct BoundingBox: Sendable {
    public let minLatitude: Double
    public let maxLatitude: Double
    /// Longitude ranges as closed intervals; the second is empty (min > max) when unused.
    public let longitudeRanges: [(min: Double, max: Double)]

    /// True when `point` lies in the box.
    public func contains(_ point: Coordinate) -> Bool {
      point.latitude >= minLatitude && point.latitude <= maxLatitude
        && longitudeRanges.contains { point.longitude >= $0.min && point.longitude <= $0.max }
    }
  }

  /// The box around a circle (J. P. Matuschek, "Finding Points Within a Distance of a
  /// Latitude/Longitude Using Bounding Coordinates"), widened by a millionth of a degree so
  /// that rounding never drops a point on the edge. The exact distance still decides.
  public static func boundingBox(center: Coordinate, radiusKm: Double) -> BoundingBox {
    let margin = 1e-6
    let angular = radiusKm / earthRadiusKm
    let dLat = degrees(angular)
    let minLat = center.latitude - dLat - margin
    let maxLat = center.latitude + dLat + margin
    let everyLongitude = [(min: -180.0, max: 180.0), (min: 1.0, max: 0.0)]
    // A circle that reaches a pole (or wraps the globe) spans every longitude.
    guard angular < Double.pi, minLat > -90, maxLat < 90 else {
      return BoundingBox(
        minLatitude: max(minLat, -90), maxLatitude: min(maxLat, 90),
        longitudeRanges: everyLongitude)
    }
    let ratio = sin(angular) / cos(radians(center.latitude))
    guard ratio < 1 else {
      return BoundingBox(minLatitude: minLat, maxLatitude: maxLat, longitudeRanges: everyLongitude)
    }
    let dLon = degrees(asin(ratio)) + margin
    let minLon = center.longitude - dLon
    let maxLon = center.longitude + dLon
    let ranges: [(min: Double, max: Double)]
    if minLon < -180 {
      ranges = [(min: -180, max: maxLon), (min: minLon + 360, max: 180)]
    } else if maxLon > 180 {
      ranges = [(min: minLon, max: 180), (min: -180, max: maxLon - 360)]
    } else {
      ranges = [(min: minLon, max: maxLon), (min: 1, max: 0)]
    }
    return BoundingBox(minLatitude: minLat, maxLatitude: maxLat, longitudeRanges: ranges)
  }

  static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
  static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

  /// A coordinate as plain decimal text without an exponent, in the shortest form that reads
  /// back as the same Double: 41.8902, -0.00001, 12 (never "1e-05" or "-0").
  public static func text(_ value: Double) -> String {
    guard value.isFinite, let (negative, digits, point) = JSONDecimal.parts(of: "\(value)") else {
      return "0"
    }
    return JSONDecimal.plain(negative, digits, point)
  }
}
