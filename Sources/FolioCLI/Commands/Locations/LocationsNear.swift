import FolioService

/// `folio locations near LAT LON [--radius KM] [--limit N]`: nearest locations first.
struct LocationsNear: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "near",
    abstract: "List the locations nearest to a point, with great-circle distances in km.",
    discussion: """
      Distances are measured along a great circle of a sphere of radius 6,371 km (haversine).
      A negative coordinate is written as is: folio locations near -33.8568 151.2153
      """)

  enum Format: String, OutputFormat { case text, json, csv }

  @Argument(help: "Latitude in decimal degrees (-90...90).") var latitude: String
  @Argument(help: "Longitude in decimal degrees (-180...180).") var longitude: String
  @Option(valueName: "km", help: "Only locations within this many kilometres.") var radius: String?
  @Option(help: "At most this many locations (default: 10).") var limit = Limit(10)
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let found = try LocationBook(context.existingStore()).near(
      latitude: latitude, longitude: longitude, radiusKm: radius, limit: limit.value)
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
    case .text:
      guard !found.isEmpty else {
        context.print(radius.map { "no locations within \($0) km" } ?? "no locations yet")
        return
      }
      var table = TextTable(
        headers: ["ID", "NAME", "CITY", "KM"], rightAligned: [0, 3], shortenable: [1: 12, 2: 8])
      table.rows = found.map {
        [
          String($0.location.id), $0.location.name, $0.location.city,
          LocationRendering.kilometres($0.distanceKm),
        ]
      }
      context.out.write(table.rendered(width: context.width))
    }
  }
}
