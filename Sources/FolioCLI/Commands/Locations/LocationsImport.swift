import FolioService

/// `folio locations import FILE`: adds the locations of a JSON or GeoJSON file.
struct LocationsImport: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Import locations from a JSON or GeoJSON file, all or nothing.",
    discussion: """
      Reads what 'folio locations export' writes, in either format. Each location needs name,
      city, latitude and longitude; description, link, images, created_at and updated_at are
      optional and ids are assigned anew. A location whose name and city already exist is
      reported and skipped; any other problem refuses the whole file (exit 65, nothing written).
      """, createsDatabase: true)

  @Argument(name: "file", help: "The JSON or GeoJSON file to read.") var path: String

  func run(_ context: Context) throws {
    let outcome = try LocationBook(context.store()).importLocations(
      fromFile: path, now: context.now)
    for skipped in outcome.skipped {
      context.warn(
        "\(path):\(skipped.line): \(skipped.element): '\(skipped.name), \(skipped.city)' "
          + "already exists (id \(skipped.existingID)); skipped")
    }
    var line = "imported \(outcome.imported.count) location(s) from \(path)"
    if !outcome.skipped.isEmpty { line += "; skipped \(outcome.skipped.count) duplicate(s)" }
    context.print(line)
  }
}
