import FolioService

/// `folio locations list`: every location, or those in a city or matching a text.
struct LocationsList: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List locations in the order they were added.")

  enum Format: String, OutputFormat { case text, json, csv }

  @Option(help: "Only locations in this city (case-insensitive).") var city: String?
  @Option(
    valueName: "text", help: "Only locations whose name, city or description contains the text.")
  var search: String?
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let locations = try LocationBook(context.existingStore()).list(city: city, search: search)
    switch format {
    case .json:
      context.print(JSONValue.array(locations.map(LocationRendering.json)).rendered())
    case .csv:
      context.out.write(CSVWriter.line(LocationRendering.csvHeader))
      for location in locations {
        context.out.write(CSVWriter.line(LocationRendering.csvFields(location)))
      }
    case .text:
      guard !locations.isEmpty else {
        context.print(city == nil && search == nil ? "no locations yet" : "no locations match")
        return
      }
      var table = TextTable(
        headers: ["ID", "NAME", "CITY", "LATITUDE", "LONGITUDE", "LINK"], rightAligned: [0, 3, 4],
        shortenable: [1: 12, 2: 8], dropOrder: [5, 4, 3])
      table.rows = locations.map {
        [
          String($0.id), $0.name, $0.city, GeoMath.text($0.latitude), GeoMath.text($0.longitude),
          $0.link ?? "",
        ]
      }
      context.out.write(table.rendered(width: context.width))
    }
  }
}
