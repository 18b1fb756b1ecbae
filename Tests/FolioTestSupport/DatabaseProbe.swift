import CSQLite
import Foundation

/// Reads (or hand-edits) a database file in-process, printing rows as the sqlite3 shell's list
/// mode does (`a|b`, NULL as nothing), so state checks need no program outside the toolchain.
public enum DatabaseProbe {
  /// Whether the file alone holds the database: no -wal beside it, or an empty one, as a folio
  /// command leaves it when it ends.
  public static func walIsEmpty(beside path: String) -> Bool {
    let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
    return (size ?? 0) == 0
  }

  /// Runs every statement of `sql` against `path` and returns the rows they print. Stops at
  /// the first error, as the shell does with SQL given as an argument; the error is returned
  /// in `error`.
  /// With `create`, a missing file is created, as the shell does; otherwise it is an error.
  public static func run(_ path: String, _ sql: String, create: Bool = false) -> (
    out: String, error: String?
  ) {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
      return ("", "cannot open \(path): " + String(cString: sqlite3_errmsg(handle)))
    }
    sqlite3_busy_timeout(handle, 5000)
    var out = ""
    var rest = Array(sql.utf8CString)
    var offset = 0
    while offset < rest.count - 1 {
      var statement: OpaquePointer?
      var tail: UnsafePointer<CChar>?
      let prepared = rest.withUnsafeBufferPointer { buffer in
        let start = buffer.baseAddress! + offset
        let code = sqlite3_prepare_v2(handle, start, -1, &statement, &tail)
        if let tail { offset += tail - start }
        return code
      }
      guard prepared == SQLITE_OK else {
        return (out, String(cString: sqlite3_errmsg(handle)))
      }
      guard let statement else { continue }  // only white space or a comment was left
      defer { sqlite3_finalize(statement) }
      while true {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else { return (out, String(cString: sqlite3_errmsg(handle))) }
        let columns = (0..<sqlite3_column_count(statement)).map { column -> String in
          guard let text = sqlite3_column_text(statement, column) else { return "" }
          return String(cString: text)
        }
        out += columns.joined(separator: "|") + "\n"
      }
    }
    rest.removeAll()
    return (out, nil)
  }

  /// The schema and every row of every table, to prove that a refused command changed
  /// nothing: equal dumps mean equal content.
  public static func dump(_ path: String) -> String {
    let schema = run(path, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
    var text = schema.out + (schema.error ?? "")
    let tables = run(
      path,
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).out.split(separator: "\n")
    for table in tables {
      let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let columns = run(path, "SELECT name FROM pragma_table_info('\(table)')").out
        .split(separator: "\n").map { "quote(\"\($0)\")" }.joined(separator: ", ")
      let rows = run(path, "SELECT \(columns) FROM \(quoted)")
      text += "-- \(table)\n" + rows.out + (rows.error ?? "")
    }
    return text
  }
}
