import FolioService
import FolioStorage
import Foundation

/// `folio locations export [--format json|geojson] [--out FILE]`.
struct LocationsExport: RunnableCommand {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Write every location as JSON or as a GeoJSON FeatureCollection.",
    discussion: """
      GeoJSON (RFC 7946) opens in any map tool: one Point per location, coordinates in
      [longitude, latitude] order. 'folio locations import' reads both formats back.
      """,
    options: [
      .value("format", "json|geojson", help: "Output format (default: json)."),
      .value("out", "file", help: "Write to this file (replacing it) instead of stdout."),
    ],
    make: { try Self($0) })

  let geoJSON: Bool
  let out: String?

  init(_ values: ParsedValues) throws {
    geoJSON =
      try values.value("format", expected: "json, geojson") { text in
        text == "json" ? false : text == "geojson" ? true : nil
      } ?? false
    out = values.value("out")
  }

  func run(_ context: Context) throws {
    let locations = try LocationBook(context.existingStore()).list()
    let document =
      geoJSON
      ? LocationRendering.geoJSON(locations)
      : JSONValue.array(locations.map(LocationRendering.json))
    let text = document.rendered() + "\n"
    guard let out else {
      context.out.write(text)
      return
    }
    try context.writeOutput(to: out) { $0.write(text) }
    context.print("exported \(locations.count) location(s) to \(FolioCLI.visible(out))")
  }
}
