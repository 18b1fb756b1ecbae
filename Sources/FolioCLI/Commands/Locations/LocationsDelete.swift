import FolioService

/// `folio locations delete ID [--force]`: removes a location and its images.
struct LocationsDelete: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "delete",
    abstract: "Delete a location and its images.",
    discussion: """
      Refused while trades point at the location; --force deletes it anyway and clears those
      trades' location (the trades themselves stay).
      """)

  @Argument(name: "location", help: "The location's id, or \"NAME, CITY\".") var reference: String
  @Flag(help: "Delete even if trades were made there, detaching them.") var force: Bool

  func run(_ context: Context) throws {
    let deleted = try LocationBook(context.existingStore()).delete(reference, force: force)
    var line = "deleted location \(deleted.location.id): \(deleted.location.reference.shown)"
    if deleted.detachedTrades > 0 {
      line += "; cleared the location of \(deleted.detachedTrades) trade(s)"
    }
    context.print(line)
  }
}
