import FolioService

/// `folio db shell`: hands the database file to the sqlite3 shell.
struct DBShell: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "shell",
    abstract: "Open the database in the sqlite3 shell, with foreign keys on.",
    discussion: """
      Replaces folio with 'sqlite3' found on PATH, run on the database file (migrated first if
      needed) with PRAGMA foreign_keys = ON and folio's busy timeout. docs/schema.md describes
      the tables and the v_* views. Exit 69 when sqlite3 is not installed.
      """)

  func run(_ context: Context) throws {
    guard let executable = SQLiteShell.locate(searchPath: context.environment["PATH"]) else {
      throw ShellError.notInstalled
    }
    let location = try context.location()
    // Migrate (and report a backup) before handing over, then close the connection.
    _ = try context.existingStore()
    context.releaseStore()
    context.out.flush()
    context.err.flush()
    try SQLiteShell.exec(executable, arguments: SQLiteShell.arguments(for: location))
  }
}
