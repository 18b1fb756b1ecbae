import FolioService

/// `folio db backup FILE`: a consistent copy made with SQLite's online backup API.
struct DBBackup: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "backup",
    abstract: "Write a consistent copy of the database to a new file.",
    discussion: """
      Safe while other processes write. The file is copied as it is (not migrated first);
      an existing file is never overwritten.
      """)

  @Argument(name: "file", help: "Where to write the copy.") var destination: String

  func run(_ context: Context) throws {
    try DatabaseAdmin(context.inspectedStore()).backup(to: destination)
    context.print("backed up to \(destination)")
  }
}
