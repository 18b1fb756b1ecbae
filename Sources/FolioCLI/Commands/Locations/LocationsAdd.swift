import FolioService

/// `folio locations add NAME --city CITY --lat LAT --lon LON ...`: records a new place.
struct LocationsAdd: RunnableCommand {
  var createsDatabase: Bool { true }

  static let spec = CommandSpec(
    name: "add",
    abstract: "Add a location.",
    discussion: """
      Latitude is -90...90 and longitude -180...180, in decimal degrees (41.8902, -0.1276).
      The link must be an http(s) URL. Name and city together must be new.
      """,
    arguments: [ArgumentSpec(name: "name", help: "The name of the place, such as Colosseum.")],
    options: [
      .value("city", "city", help: "The city (required)."),
      .value("lat", "degrees", help: "Latitude in decimal degrees, north positive (required)."),
      .value("lon", "degrees", help: "Longitude in decimal degrees, east positive (required)."),
      .value("description", "text", help: "A few sentences about the place."),
      .value("link", "url", help: "An http(s) link, such as its Wikipedia page."),
      .value(
        "image", "name", repeating: true, help: "An image name; repeat for several, in order."),
    ],
    make: { try Self($0) })

  let input: LocationInput

  init(_ values: ParsedValues) throws {
    func required(_ name: String) throws -> String {
      guard let value = values.value(name) else {
        throw UsageError("missing option '--\(name)'", commandPath: values.path)
      }
      return value
    }
    input = LocationInput(
      name: values.argument(0), city: try required("city"), latitude: try required("lat"),
      longitude: try required("lon"), description: values.value("description"),
      link: values.value("link"), images: values.values("image"))
  }

  func run(_ context: Context) throws {
    let location = try LocationBook(context.store()).add(input, now: context.now)
    context.print(
      "added location \(location.id): \(location.reference.shown) "
        + "(\(GeoMath.text(location.latitude)), \(GeoMath.text(location.longitude)))")
  }
}
