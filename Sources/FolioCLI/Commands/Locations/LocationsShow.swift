import FolioService

/// `folio locations show ID|"NAME, CITY"`: every field, the images, the trades made there and
/// an OpenStreetMap link.
struct LocationsShow: RunnableCommand {
  static let spec = CommandSpec(
    name: "show",
    abstract: "Show a location: its fields, images, map link and the trades made there.",
    arguments: [ArgumentSpec(name: "location", help: "The location's id, or \"NAME, CITY\".")],
    options: [LegacyFormat.option([.text, .json])],
    make: { try Self($0) })

  let reference: String
  let format: LegacyFormat

  init(_ values: ParsedValues) throws {
    reference = values.argument(0)
    format = try LegacyFormat.parse(values, allowed: [.text, .json])
  }

  func run(_ context: Context) throws {
    let detail = try LocationBook(context.existingStore()).detail(reference)
    LocationRendering.print(detail, as: format, context)
  }
}
