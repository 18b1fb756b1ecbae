import Foundation

/// Why a database file cannot be opened, created or written, before SQLite itself is involved.
public enum DatabaseFileError: LocalizedError, Equatable {
  /// The SQLite library linked at run time is older than Folio needs.
  case libraryTooOld(found: String, required: String)
  /// The database file or its folder cannot be created.
  case cannotCreate(path: String, reason: String)
  /// A file that must be new (a backup copy) already exists.
  case alreadyExists(String)
  /// The path names a directory, FIFO, device or socket, not a database file.
  case notARegularFile(path: String, kind: String)
  /// A copy of the database (`db backup`) could not be written; nothing was left at its path.
  case cannotWriteCopy(path: String, reason: String)

  public var errorDescription: String? {
    switch self {
    case .libraryTooOld(let found, let required):
      return
        "the SQLite library on this system is version \(found), but folio needs \(required) "
        + "or newer; install a newer libsqlite3"
    case .cannotCreate(let path, let reason):
      return "cannot create the database at \(path): \(reason)"
    case .alreadyExists(let path):
      return "\(path) already exists; choose a new file name (nothing was overwritten)"
    case .notARegularFile(let path, let kind):
      return "\(path) is \(kind), not a database file; give the path of a regular file"
    case .cannotWriteCopy(let path, let reason):
      return "cannot write the copy at \(path): \(reason); nothing was left at \(path)"
    }
  }

  /// The C library's description of `code` (an `errno` value), such as "permission denied".
  public static func describe(errno code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
