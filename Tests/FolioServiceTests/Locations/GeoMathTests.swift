import Foundation
import Testing

@testable import FolioService

@Suite struct GeoMathTests {
  let colosseum = Coordinate(latitude: 41.8902, longitude: 12.4922)
  let pantheon = Coordinate(latitude: 41.8986, longitude: 12.4769)
  let eiffel = Coordinate(latitude: 48.8584, longitude: 2.2945)

  @Test func colosseumToEiffelTowerIsAbout1109Km() {
    let distance = GeoMath.distanceKm(colosseum, eiffel)
    #expect(abs(distance - 1_109.42) < 0.01, "\(distance)")
  }

  @Test func colosseumToPantheonIsAbout1Point57Km() {
    let distance = GeoMath.distanceKm(colosseum, pantheon)
    #expect(abs(distance - 1.5736) < 0.0005, "\(distance)")
  }

  @Test func distanceIsSymmetricAndZeroAtThePoint() {
    #expect(GeoMath.distanceKm(colosseum, colosseum) == 0)
    #expect(GeoMath.distanceKm(colosseum, eiffel) == GeoMath.distanceKm(eiffel, colosseum))
  }

  @Test func knownLongDistancesOnThe6371KmSphere() {
    // A quarter of a great circle: equator to pole, and a quarter of the equator.
    let quarter = Double.pi * 6_371 / 2
    let equator = Coordinate(latitude: 0, longitude: 0)
    #expect(
      abs(GeoMath.distanceKm(equator, Coordinate(latitude: 90, longitude: 0)) - quarter) < 1e-6)
    #expect(
      abs(GeoMath.distanceKm(equator, Coordinate(latitude: 0, longitude: 90)) - quarter) < 1e-6)
    // Antipodes: half a circumference, never NaN. Haversine is ill-conditioned there and
    // loses a few decimetres, which does not matter for finding what is near.
    let antipode = GeoMath.distanceKm(
      Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: -10, longitude: -160))
    #expect(abs(antipode - 2 * quarter) < 0.001)
    // Across the antimeridian the short way round: 0.2° of longitude on the equator.
    let across = GeoMath.distanceKm(
      Coordinate(latitude: 0, longitude: 179.9), Coordinate(latitude: 0, longitude: -179.9))
    #expect(abs(across - 0.2 * .pi / 180 * 6_371) < 1e-6)
  }

  @Test func boundingBoxHoldsEveryPointOfTheCircle() {
    // Points at exactly the radius in 72 directions, around centres chosen to stress the box:
    // mid latitudes, near a pole, and on both sides of the antimeridian.
    let centres = [
      Coordinate(latitude: 41.8902, longitude: 12.4922),
      Coordinate(latitude: -33.8568, longitude: 151.2153),
      Coordinate(latitude: 89.5, longitude: 0),
      Coordinate(latitude: 10, longitude: 179.95),
      Coordinate(latitude: -10, longitude: -179.95),
      Coordinate(latitude: 0, longitude: 0),
    ]
    for centre in centres {
      for radius in [0.5, 5, 100, 2_000] {
        let box = GeoMath.boundingBox(center: centre, radiusKm: radius)
        for step in 0..<72 {
          let point = destination(from: centre, km: radius * 0.999_999, bearing: Double(step) * 5)
          #expect(box.contains(point), "\(centre) r=\(radius) bearing \(step * 5): \(point)")
        }
      }
    }
  }

  @Test func boundingBoxIsTightAwayFromThePoles() {
    let box = GeoMath.boundingBox(center: colosseum, radiusKm: 5)
    // 5 km is about 0.045° of latitude and 0.06° of longitude at 41.9° N.
    #expect(abs(box.maxLatitude - box.minLatitude - 0.0899) < 0.001)
    #expect(abs(box.longitudeRanges[0].max - box.longitudeRanges[0].min - 0.1207) < 0.001)
    #expect(box.longitudeRanges[1].min > box.longitudeRanges[1].max)  // unused
    #expect(!box.contains(pantheon) == (GeoMath.distanceKm(colosseum, pantheon) > 5))
  }

  @Test func boundingBoxWrapsAcrossTheAntimeridian() {
    let box = GeoMath.boundingBox(center: Coordinate(latitude: 0, longitude: 179.99), radiusKm: 5)
    #expect(box.contains(Coordinate(latitude: 0, longitude: -179.99)))
    #expect(!box.contains(Coordinate(latitude: 0, longitude: 0)))
  }

  @Test func coordinatesPrintAsPlainDecimals() {
    #expect(GeoMath.text(41.8902) == "41.8902")
    #expect(GeoMath.text(-0.00001) == "-0.00001")
    #expect(GeoMath.text(1.5e-7) == "0.00000015")
    #expect(GeoMath.text(12) == "12")
    #expect(GeoMath.text(-0.0) == "0")
    #expect(GeoMath.text(-180) == "-180")
  }

  /// The point `km` away from `start` along `bearing` degrees (spherical direct problem).
  private func destination(from start: Coordinate, km: Double, bearing: Double) -> Coordinate {
    let angular = km / GeoMath.earthRadiusKm
    let theta = bearing * .pi / 180
    let lat1 = start.latitude * .pi / 180
    let lon1 = start.longitude * .pi / 180
    let lat2 = asin(sin(lat1) * cos(angular) + cos(lat1) * sin(angular) * cos(theta))
    let lon2 =
      lon1 + atan2(sin(theta) * sin(angular) * cos(lat1), cos(angular) - sin(lat1) * sin(lat2))
    var longitude = lon2 * 180 / .pi
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return Coordinate(latitude: lat2 * 180 / .pi, longitude: longitude)
  }
}
