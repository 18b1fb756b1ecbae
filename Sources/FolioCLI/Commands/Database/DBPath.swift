/// `folio db path`: prints the resolved database path without opening it.
struct DBPath: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "path",
    abstract: "Print the database path (from --db, $FOLIO_DB or the default).")

  func run(_ context: Context) throws {
    context.print(try context.location().path)
  }
}
