import FolioService

/// `folio locations edit ID ...`: changes some fields of a location.
struct LocationsEdit: RunnableCommand {
  static let spec = CommandSpec(
    name: "edit",
    abstract: "Change the fields of a location.",
    discussion: """
      Only the fields given change. An empty --description or --link removes it. --image adds
      image names after the existing ones; with --clear-images they replace them.
      """,
    arguments: [ArgumentSpec(name: "location", help: "The location's id, or \"NAME, CITY\".")],
    options: [
      .value("name", "name", help: "A new name."),
      .value("city", "city", help: "A new city."),
      .value("lat", "degrees", help: "A new latitude in decimal degrees."),
      .value("lon", "degrees", help: "A new longitude in decimal degrees."),
      .value("description", "text", help: "A new description (\"\" removes it)."),
      .value("link", "url", help: "A new http(s) link (\"\" removes it)."),
      .value("image", "name", repeating: true, help: "Add an image name; repeat for several."),
      .flag("clear-images", help: "Remove every image name first."),
    ],
    make: { try Self($0) })

  let reference: String
  let changes: LocationChanges

  init(_ values: ParsedValues) throws {
    reference = values.argument(0)
    var changes = LocationChanges()
    changes.name = values.value("name")
    changes.city = values.value("city")
    changes.latitude = values.value("lat")
    changes.longitude = values.value("lon")
    changes.description = values.value("description")
    changes.link = values.value("link")
    changes.addImages = values.values("image")
    changes.clearImages = values.flag("clear-images")
    guard !changes.isEmpty else {
      throw UsageError(
        "nothing to change; give at least one of --name, --city, --lat, --lon, --description, "
          + "--link, --image, --clear-images", commandPath: values.path)
    }
    self.changes = changes
  }

  func run(_ context: Context) throws {
    let location = try LocationBook(context.existingStore()).edit(
      reference, changes, now: context.now)
    context.print("updated location \(location.id): \(location.reference.shown)")
  }
}
