import Foundation

/// `folio db migrate`: creates the database or brings it to the latest schema.
struct DBMigrate: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "migrate",
    abstract: "Create the database or apply pending migrations.",
    discussion: """
      Every command migrates automatically; this one does only that. A database that already
      holds data is copied to <file>.bak-v<from>-<UTC timestamp> before it is migrated.
      """, createsDatabase: true)

  func run(_ context: Context) throws {
    let store = try context.store()
    let applied = store.migration.applied
    if applied.isEmpty {
      context.print("\(store.database.path) is up to date")
    } else {
      for migration in applied {
        context.print("applied \(String(format: "%04d", migration.version))_\(migration.name)")
      }
    }
  }
}
