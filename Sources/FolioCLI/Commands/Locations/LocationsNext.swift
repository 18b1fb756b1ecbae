import FolioService

/// `folio locations next ID`: the map app's Next button.
struct LocationsNext: RunnableCommand {
  static let spec = CommandSpec(
    name: "next",
    abstract: "Show the location after this one in list order, wrapping to the first.",
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
    let book = LocationBook(try context.existingStore())
    let detail = try book.detail(String(try book.next(after: reference).id))
    LocationRendering.print(detail, as: format, context)
  }
}
