import Foundation

/// One schema object (`sqlite_master` row) that differs from what folio's own migrations create
/// for the file's version: a trigger, view, table or index someone added, replaced or dropped.
public struct SchemaDifference: Sendable, Equatable {
  /// How the object differs.
  public enum Change: String, Sendable {
    /// Folio's migrations do not create it.
    case extra
    /// Folio creates an object of this name, with other SQL (a replaced view or trigger).
    case changed
    /// Folio's migrations create it, and the file lacks it.
    case missing
  }

  public let change: Change
  /// `table`, `index`, `view` or `trigger`.
  public let type: String
  public let name: String
  /// The table the object belongs to (its own name for a table or view).
  public let table: String

  /// One phrase for messages, such as "trigger 'rewrite' on trades, which folio did not create".
  public var description: String {
    let object =
      type == "table" || type == "view" || table == name
      ? "\(type) '\(name)'" : "\(type) '\(name)' on \(table)"
    switch change {
    case .extra: return "\(object), which folio did not create"
    case .changed: return "\(object), which differs from the one folio creates"
    case .missing: return "\(object), which folio creates, is missing"
    }
  }
}

extension Migrator {
  /// Compares the schema of `database` (every `sqlite_master` row: type, name, table and SQL
  /// with white space collapsed) with the schema these migrations create up to `version`, built
  /// on an in-memory database. SQLite's own statistics tables (`sqlite_stat1`, `sqlite_stat4`,
  /// written by ANALYZE) are not counted.
  public func schemaDifferences(of database: Database, version: Int) throws
    -> [SchemaDifference]
  {
    let expected = try Self.schema(of: try expectedDatabase(version: version))
    let found = try Self.schema(of: database)
    var differences: [SchemaDifference] = []
    for (key, object) in found.sorted(by: { $0.key < $1.key }) where expected[key] != object {
      differences.append(
        SchemaDifference(
          change: expected[key] == nil ? .extra : .changed, type: key.type, name: key.name,
          table: object.table))
    }
    for (key, object) in expected.sorted(by: { $0.key < $1.key }) where found[key] == nil {
      differences.append(
        SchemaDifference(change: .missing, type: key.type, name: key.name, table: object.table))
    }
    return differences
  }

  /// An in-memory database holding exactly what the migrations up to `version` create.
  private func expectedDatabase(version: Int) throws -> Database {
    let memory = try Database(path: ":memory:", mode: .readWrite, busyTimeout: 0)
    try Migrator(migrations: migrations.filter { $0.version <= version })
      .migrate(memory, keepingBackup: false)
    return memory
  }

  private struct Key: Hashable, Comparable {
    let type: String
    let name: String
    static func < (left: Key, right: Key) -> Bool {
      (left.type, left.name) < (right.type, right.name)
    }
  }

  private struct Object: Equatable {
    let table: String
    let sql: String?
  }

  private static func schema(of database: Database) throws -> [Key: Object] {
    let rows = try database.rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_master "
        + "WHERE name NOT IN ('sqlite_stat1', 'sqlite_stat4') OR type <> 'table'"
    ) { row in
      (
        Key(type: try row["type"], name: try row["name"]),
        Object(table: try row["tbl_name"], sql: (try row["sql"] as String?).map(normalized))
      )
    }
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }

  /// SQL with every run of white space made one space, for comparing definitions.
  static func normalized(_ sql: String) -> String {
    sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
