import FolioService

/// `folio locations delete ID [--force]`: removes a location and its images.
struct LocationsDelete: RunnableCommand {
  static let spec = CommandSpec(
    name: "delete",
    abstract: "Delete a location and its images.",
    discussion: """
      Refused while trades point at the location; --force deletes it anyway and clears those
      trades' location (the trades themselves stay).
      """,
    arguments: [ArgumentSpec(name: "location", help: "The location's id, or \"NAME, CITY\".")],
    options: [.flag("force", help: "Delete even if trades were made there, detaching them.")],
    make: { try Self($0) })

  let reference: String
  let force: Bool

  init(_ values: ParsedValues) throws {
    reference = values.argument(0)
    force = values.flag("force")
  }

  func run(_ context: Context) throws {
    let deleted = try LocationBook(context.existingStore()).delete(reference, force: force)
    var line = "deleted location \(deleted.location.id): \(deleted.location.reference.shown)"
    if deleted.detachedTrades > 0 {
      line += "; cleared the location of \(deleted.detachedTrades) trade(s)"
    }
    context.print(line)
  }
}
