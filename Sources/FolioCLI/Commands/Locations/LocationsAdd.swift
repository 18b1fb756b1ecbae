import FolioService

/// `folio locations add NAME --city CITY --lat LAT --lon LON ...`: records a new place.
struct LocationsAdd: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a location.",
    discussion: """
      Latitude is -90...90 and longitude -180...180, in decimal degrees (41.8902, -0.1276).
      The link must be an http(s) URL. Name and city together must be new.
      """, createsDatabase: true)

  @Argument(help: "The name of the place, such as Colosseum.") var name: String
  @Option(help: "The city (required).") var city: String
  @Option(valueName: "degrees", help: "Latitude in decimal degrees, north positive (required).")
  var lat: String
  @Option(valueName: "degrees", help: "Longitude in decimal degrees, east positive (required).")
  var lon: String
  @Option(valueName: "text", help: "A few sentences about the place.") var description: String?
  @Option(valueName: "url", help: "An http(s) link, such as its Wikipedia page.") var link: String?
  @Option(valueName: "name", help: "An image name; repeat for several, in order.")
  var image: [String]

  func run(_ context: Context) throws {
    let input = LocationInput(
      name: name, city: city, latitude: lat, longitude: lon, description: description,
      link: link, images: image)
    let location = try LocationBook(context.store()).add(input, now: context.now)
    context.say(
      "added location \(location.id): \(location.reference.shown) "
        + "(\(GeoMath.text(location.latitude)), \(GeoMath.text(location.longitude)))")
  }
}
