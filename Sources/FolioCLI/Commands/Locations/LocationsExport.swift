import FolioService

/// `folio locations export [--format json|geojson] [--out FILE]`.
struct LocationsExport: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write every location as JSON or as a GeoJSON FeatureCollection.",
    discussion: """
      GeoJSON (RFC 7946) opens in any map tool: one Point per location, coordinates in
      [longitude, latitude] order. 'folio locations import' reads both formats back.
      """)

  enum Format: String, OutputFormat { case json, geojson }

  @Option var format = Format.json
  @OptionGroup var output: OutputOption

  func run(_ context: Context) throws {
    let locations = try LocationBook(context.existingStore()).list()
    let document: JSONValue
    switch format {
    case .json: document = .array(locations.map(LocationRendering.json))
    case .geojson: document = LocationRendering.geoJSON(locations)
    }
    if let file = try output.write(context, { $0.write(document.rendered() + "\n") }) {
      context.print("exported \(locations.count) location(s) to \(file)")
    }
  }
}
