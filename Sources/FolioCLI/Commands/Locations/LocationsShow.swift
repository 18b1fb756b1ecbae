import FolioService

/// `folio locations show ID|"NAME, CITY"`: every field, the images, the trades made there and
/// an OpenStreetMap link.
struct LocationsShow: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show a location: its fields, images, map link and the trades made there.")

  @OptionGroup var view: LocationView

  func run(_ context: Context) throws {
    try view.print(LocationBook(context.existingStore()).detail(view.location), context)
  }
}

/// `folio locations next ID`: the map app's Next button.
struct LocationsNext: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "next",
    abstract: "Show the location after this one in list order, wrapping to the first.")

  @OptionGroup var view: LocationView

  func run(_ context: Context) throws {
    let book = LocationBook(try context.existingStore())
    try view.print(book.detail(String(try book.next(after: view.location).id)), context)
  }
}

/// What `show` and `next` take: a location and the format of its detail.
struct LocationView: ParsableArguments {
  enum Format: String, OutputFormat { case text, json }

  @Argument(help: "The location's id, or \"NAME, CITY\".") var location: String
  @Option var format = Format.text

  /// Prints `detail` in the format asked for.
  func print(_ detail: LocationDetail, _ context: Context) {
    switch format {
    case .json: context.print(LocationRendering.json(detail).rendered())
    case .text: context.out.write(LocationRendering.text(detail, width: context.width))
    }
  }
}
