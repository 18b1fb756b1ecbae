/// `folio locations`: the book of places, and the places trades happened.
enum Locations {
  static let spec = CommandSpec(
    name: "locations",
    abstract: "Keep a book of places (landmarks, shops, ATMs) and find what is near a point.",
    discussion: """
      A location is named by its id or by "NAME, CITY" (case-insensitive), for example
      'folio locations show "Colosseum, Rome"'. List order is the order locations were added.
      """,
    subcommands: [
      LocationsAdd.spec, LocationsList.spec, LocationsShow.spec, LocationsEdit.spec,
      LocationsDelete.spec, LocationsNear.spec, LocationsNext.spec, LocationsImport.spec,
      LocationsExport.spec,
    ]
  )
}
