import FolioService

/// `folio locations list`: every location, or those in a city or matching a text.
struct LocationsList: RunnableCommand {
  static let spec = CommandSpec(
    name: "list",
    abstract: "List locations in the order they were added.",
    options: [
      .value("city", "city", help: "Only locations in this city (case-insensitive)."),
      .value(
        "search", "text",
        help: "Only locations whose name, city or description contains the text."),
      LegacyFormat.option([.text, .json, .csv]),
    ],
    make: { try Self($0) })

  let city: String?
  let search: String?
  let format: LegacyFormat

  init(_ values: ParsedValues) throws {
    city = values.value("city")
    search = values.value("search")
    format = try LegacyFormat.parse(values, allowed: [.text, .json, .csv])
  }

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
    default:
      guard !locations.isEmpty else {
        context.print(city == nil && search == nil ? "no locations yet" : "no locations match")
        return
      }
      var table = TextTable(
        headers: ["ID", "NAME", "CITY", "LATITUDE", "LONGITUDE", "LINK"], rightAligned: [0, 3, 4])
      table.rows = locations.map {
        [
          String($0.id), $0.name, $0.city, GeoMath.text($0.latitude), GeoMath.text($0.longitude),
          $0.link ?? "",
        ]
      }
      context.out.write(table.rendered())
    }
  }
}
