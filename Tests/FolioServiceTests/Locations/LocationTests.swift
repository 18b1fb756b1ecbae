import FolioStorage
import Testing

@testable import FolioService

@Suite struct LocationTests {
  func input(
    name: String = "Colosseum", city: String = "Rome", lat: String = "41.8902",
    lon: String = "12.4922", description: String? = nil, link: String? = nil,
    images: [String] = []
  ) -> LocationInput {
    LocationInput(
      name: name, city: city, latitude: lat, longitude: lon, description: description, link: link,
      images: images)
  }

  func refusal(_ input: LocationInput) -> (field: String, message: String)? {
    do {
      _ = try ValidLocation(input)
      return nil
    } catch {
      switch error {
      case .invalidField(let field, let message), .malformedField(let field, let message):
        return (field, message)
      default: return nil
      }
      return nil
    }
  }

  @Test func normalizesAValidLocation() throws {
    let valid = try ValidLocation(
      input(
        name: "  Colosseum ", city: "Rome\n", lat: "+41.890200", lon: " -12.4922",
        description: "  ", link: " HTTPS://en.wikipedia.org/wiki/Colosseum ",
        images: [" a ", "b"]))
    #expect(valid.name == "Colosseum")
    #expect(valid.city == "Rome")
    #expect(valid.latitude == 41.8902)
    #expect(valid.longitude == -12.4922)
    #expect(valid.description == nil)
    #expect(valid.link == "https://en.wikipedia.org/wiki/Colosseum")
    #expect(valid.images == ["a", "b"])
  }

  @Test func rangeLimitsAreInclusiveAndExact() throws {
    #expect(try ValidLocation(input(lat: "90", lon: "-180")).latitude == 90)
    #expect(try ValidLocation(input(lat: "-90.000", lon: "180.0")).longitude == 180)
    // 90.000000000000000001 rounds to the Double 90, but the decimal is out of range.
    #expect(refusal(input(lat: "90.000000000000000001"))?.field == "latitude")
    #expect(refusal(input(lon: "-180.000000000000000001"))?.field == "longitude")
  }

  @Test func refusalsNameTheField() {
    let cases: [(LocationInput, String, String)] = [
      (
        input(lat: "91"), "latitude", "latitude '91' is out of range: it must be between -90 and 90"
      ),
      (input(lat: "-90.5"), "latitude", "out of range"),
      (input(lon: "180.01"), "longitude", "longitude '180.01' is out of range"),
      (input(lat: "abc"), "latitude", "latitude 'abc' is not a number"),
      (input(lat: "NaN"), "latitude", "is not a number"),
      (input(lon: "inf"), "longitude", "is not a number"),
      (input(lat: "4e3"), "latitude", "out of range"),
      (input(lon: "12,49"), "longitude", "is not a number"),
      (input(lat: ""), "latitude", "latitude must not be empty"),
      (input(lat: "1234567890123456789012"), "latitude", "out of range"),
      (input(lat: "1.0000000000000000001"), "latitude", "more than 18 decimal places"),
      (input(name: ""), "name", "name must not be empty"),
      (input(name: "   "), "name", "name must not be empty"),
      (input(name: "a\nb"), "name", "control character"),
      (input(name: String(repeating: "x", count: 201)), "name", "longer than 200"),
      (input(city: ""), "city", "city must not be empty"),
      (input(link: "ftp://example.org"), "link", "link 'ftp://example.org' is not an http(s) URL"),
      (input(link: "example.org"), "link", "not an http(s) URL"),
      (input(link: "https://"), "link", "not an http(s) URL"),
      (input(link: "https://exa mple.org"), "link", "not an http(s) URL"),
      (input(link: "javascript:alert(1)"), "link", "not an http(s) URL"),
      (input(images: ["a", "a"]), "image", "image 'a' is listed more than once"),
      (input(images: [""]), "image", "image must not be empty"),
    ]
    for (input, field, message) in cases {
      let result = refusal(input)
      #expect(result?.field == field, "\(input)")
      #expect(result?.message.contains(message) == true, "\(result?.message ?? "accepted")")
    }
  }

  @Test func mapLinkIsCentredAtTheDetailZoom() {
    let location = Location(
      id: 1, name: "Colosseum", city: "Rome", latitude: 41.8902, longitude: 12.4922,
      description: nil, link: nil, images: [], createdAt: "", updatedAt: "")
    #expect(
      location.mapURL
        == "https://www.openstreetmap.org/?mlat=41.8902&mlon=12.4922#map=16/41.8902/12.4922")
    // Zoom 16 shows about the app's 0.01° span on a phone-sized (≈ 460 px) map.
    let degreesPerPixel = 360.0 / (256 * 65_536)
    #expect(abs(degreesPerPixel * 460 - 0.01) < 0.0005)
    #expect(location.reference == "Colosseum, Rome")
  }

  @Test func errorsMapToExitKinds() {
    #expect(LocationError.notFound(reference: "9", hint: nil).kind == .inputMissing)
    #expect(LocationError.fileMissing("x.json").kind == .inputMissing)
    #expect(LocationError.fileError(path: "x", reason: "r").kind == .io)
    #expect(LocationError.invalidField(field: "name", message: "m").kind == .badData)
    #expect(LocationError.hasTrades(id: 1, reference: "a, b", count: 2).kind == .badData)
    #expect(LocationError.ambiguous(reference: "a, b, c", ids: [1, 2]).kind == .badData)
  }
}
