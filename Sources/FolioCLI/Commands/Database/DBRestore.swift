import FolioService

/// `folio db restore FILE`: puts a checked backup in place of the database.
struct DBRestore: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "restore",
    abstract: "Replace the database with a checked copy of a backup file.",
    discussion: """
      FILE must pass SQLite's integrity and foreign-key checks and be a folio database whose
      schema this folio knows; an older one is migrated (FILE itself is never changed). The
      content is replaced in one step, even while other processes use the database, and the
      content it replaces is kept as <database>.replaced-<UTC timestamp>. A file that fails a
      check is refused (exit 65) and the database is left as it was.
      """)

  @Argument(help: "The backup to restore.") var file: String

  func run(_ context: Context) throws {
    let outcome = try DatabaseRestorer(context.location()).restore(from: file, now: context.now)
    context.print("checked \(outcome.source): sound, schema version \(outcome.sourceVersion)")
    if !outcome.migrated.isEmpty {
      context.print(
        "migrated the restored copy: applied \(outcome.migrated.joined(separator: ", "))")
    }
    context.print("restored \(outcome.source) into \(outcome.database)")
    if let replaced = outcome.replacedPath {
      context.print("the replaced database was kept as \(replaced)")
    }
  }
}
