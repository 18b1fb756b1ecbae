/// `folio locations`: the book of places, and the places trades happened.
enum Locations: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "locations",
    abstract: "Keep a book of places (landmarks, shops, ATMs) and find what is near a point.",
    discussion: """
      A location is named by its id or by "NAME, CITY" (case-insensitive), for example
      'folio locations show "Colosseum, Rome"'. List order is the order locations were added.
      """,
    subcommands: [
      LocationsAdd.self, LocationsList.self, LocationsShow.self, LocationsEdit.self,
      LocationsDelete.self, LocationsNear.self, LocationsNext.self, LocationsImport.self,
      LocationsExport.self,
    ])
}
