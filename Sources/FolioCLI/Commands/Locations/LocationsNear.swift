import FolioService

/// `folio locations near LAT LON [--radius KM] [--limit N]`: nearest locations first.
struct LocationsNear: RunnableCommand {
  static let spec = CommandSpec(
    name: "near",
    abstract: "List the locations nearest to a point, with great-circle distances in km.",
    discussion: """
      Distances are measured along a great circle of a sphere of radius 6,371 km (haversine).
      A negative coordinate is written as is: folio locations near -33.8568 151.2153
      """,
    arguments: [
      ArgumentSpec(name: "latitude", help: "Latitude in decimal degrees (-90...90)."),
      ArgumentSpec(name: "longitude", help: "Longitude in decimal degrees (-180...180)."),
    ],
    options: [
      .value("radius", "km", help: "Only locations within this many kilometres."),
      .value("limit", "n", help: "At most this many locations (default: 10)."),
      LegacyFormat.option([.text, .json, .csv]),
    ],
    make: { try Self($0) })

  let latitude: String
  let longitude: String
  let radius: String?
  let limit: Int
  let format: LegacyFormat

  init(_ values: ParsedValues) throws {
    latitude = values.argument(0)
    longitude = values.argument(1)
    radius = values.value("radius")
    limit =
      try values.value("limit", expected: "a whole number of at least 1") { text in
        Int(text).flatMap { $0 >= 1 ? $0 : nil }
      } ?? 10
    format = try LegacyFormat.parse(values, allowed: [.text, .json, .csv])
  }

  func run(_ context: Context) throws {
    let found = try LocationBook(context.existingStore()).near(
      latitude: latitude, longitude: longitude, radiusKm: radius, limit: limit)
    switch format {
    case .json:
      let items = found.map { item -> JSONValue in
        LocationRendering.json(item.location).appending([
          ("distance_km", .number(String(format: "%.3f", item.distanceKm)))
        ])
      }
      context.print(JSONValue.array(items).rendered())
    case .csv:
      context.out.write(CSVWriter.line(LocationRendering.csvHeader + ["distance_km"]))
      for item in found {
        context.out.write(
          CSVWriter.line(
            LocationRendering.csvFields(item.location) + [String(format: "%.3f", item.distanceKm)]))
      }
    default:
      guard !found.isEmpty else {
        context.print(radius.map { "no locations within \($0) km" } ?? "no locations yet")
        return
      }
      var table = TextTable(headers: ["ID", "NAME", "CITY", "KM"], rightAligned: [0, 3])
      table.rows = found.map {
        [
          String($0.location.id), $0.location.name, $0.location.city,
          LocationRendering.kilometres($0.distanceKm),
        ]
      }
      context.out.write(table.rendered())
    }
  }
}
