/// `folio db path`: prints the resolved database path without opening it.
struct DBPath: RunnableCommand {
  static let spec = CommandSpec(
    name: "path",
    abstract: "Print the database path (from --db, $FOLIO_DB or the default).",
    make: { try Self($0) })

  init(_ values: ParsedValues) throws {}

  func run(_ context: Context) throws {
    context.print(try context.location().path)
  }
}
