import FolioService

/// `folio locations edit ID ...`: changes some fields of a location.
struct LocationsEdit: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "edit",
    abstract: "Change the fields of a location.",
    discussion: """
      Only the fields given change. An empty --description or --link removes it. --image adds
      image names after the existing ones; with --clear-images they replace them.
      """)

  @Argument(name: "location", help: "The location's id, or \"NAME, CITY\".") var reference: String
  @Option(help: "A new name.") var name: String?
  @Option(help: "A new city.") var city: String?
  @Option(valueName: "degrees", help: "A new latitude in decimal degrees.") var lat: String?
  @Option(valueName: "degrees", help: "A new longitude in decimal degrees.") var lon: String?
  @Option(valueName: "text", help: "A new description (\"\" removes it).") var description: String?
  @Option(valueName: "url", help: "A new http(s) link (\"\" removes it).") var link: String?
  @Option(valueName: "name", help: "Add an image name; repeat for several.") var image: [String]
  @Flag(help: "Remove every image name first.") var clearImages: Bool

  var changes: LocationChanges {
    var changes = LocationChanges()
    (changes.name, changes.city, changes.latitude, changes.longitude) = (name, city, lat, lon)
    (changes.description, changes.link) = (description, link)
    (changes.addImages, changes.clearImages) = (image, clearImages)
    return changes
  }

  func validate() throws {
    guard changes.isEmpty else { return }
    throw ValidationError(
      "nothing to change; give at least one of --name, --city, --lat, --lon, --description, "
        + "--link, --image, --clear-images")
  }

  func run(_ context: Context) throws {
    let location = try LocationBook(context.existingStore()).edit(
      reference, changes, now: context.now)
    context.print("updated location \(location.id): \(location.reference.shown)")
  }
}
