import FolioService
import Foundation

/// `folio db status`: file, size, schema version, applied and pending migrations.
struct DBStatus: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "status",
    abstract: "Show the database file, its size, schema version and migrations.",
    discussion: "Looks at the file as it is: pending migrations are listed, not applied.")

  enum Format: String, OutputFormat { case text, json }

  @Option var format = Format.text

  func run(_ context: Context) throws {
    let status = try DatabaseAdmin(context.inspectedStore()).status()
    if format == .json {
      let applied = status.applied.map { migration -> JSONValue in
        .object([
          ("version", .int(migration.version)), ("name", .string(migration.name)),
          ("checksum", .string(migration.checksum)), ("applied_at", .string(migration.appliedAt)),
        ])
      }
      context.print(
        JSONValue.object([
          ("path", .string(status.path)), ("size_bytes", .int(status.sizeBytes)),
          ("schema_version", .int(status.version)), ("latest_version", .int(status.latestVersion)),
          ("sqlite_version", .string(status.sqliteVersion)), ("applied", .array(applied)),
          ("pending", .array(status.pending.map { .string($0) })),
        ]).rendered())
      return
    }
    context.print("file:           \(status.path)")
    context.print("size:           \(status.sizeBytes) bytes")
    context.print("schema version: \(status.version) (this folio knows \(status.latestVersion))")
    context.print("sqlite:         \(status.sqliteVersion)")
    context.print("applied:")
    for migration in status.applied {
      context.print(
        "  \(String(format: "%04d", migration.version))_\(migration.name)  \(migration.appliedAt)")
    }
    context.print("pending:" + (status.pending.isEmpty ? " none" : ""))
    for name in status.pending { context.print("  \(name)") }
    if !status.pending.isEmpty { context.print("run 'folio db migrate' to apply them") }
  }
}
