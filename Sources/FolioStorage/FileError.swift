import Foundation

/// Why a database file, a copy of it or a file named by `--out` cannot be opened, created or
/// written, before SQLite itself is involved. Nothing at the path is changed in any case.
public enum FileError: LocalizedError, Equatable {
  /// The SQLite library linked at run time is older than Folio needs.
  case libraryTooOld(found: String, required: String)
  /// The database file or its folder cannot be created.
  case cannotCreate(path: String, reason: String)
  /// A file that must be new (a backup copy) already exists.
  case alreadyExists(String)
  /// The database path names a directory, FIFO, device or socket, not a database file.
  case notADatabaseFile(path: String, kind: String)
  /// A copy of the database (`db backup`) could not be written; nothing was left at its path.
  case cannotWriteCopy(path: String, reason: String)
  /// An `--out` path names something that is not a regular file (a directory, a FIFO, a
  /// device, a socket); it is left as it is.
  case notARegularFile(path: String, kind: String)
  /// Creating, writing, syncing or renaming an `--out` file failed.
  case cannotWrite(path: String, reason: String)
  /// An `--out` or backup path is the database in use (or one of its journal files, created or
  /// not).
  case isTheDatabase(path: String)
  /// The database file was removed or replaced after this connection opened it (by the user,
  /// or by a refused command that had made it): a write would be lost with the old file.
  case moved(path: String)
  /// Another program put `file` (the database's path, or its journal, WAL or shared-memory
  /// file) there while this command built the new database (`NewDatabaseFile`): the new one
  /// was not given the name.
  case createdMeanwhile(path: String, file: String)
  /// Another folio command was still creating the database when the busy timeout ran out
  /// (`CreationLock`).
  case beingCreated(path: String)

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
    case .notADatabaseFile(let path, let kind):
      return "\(path) is \(kind), not a database file; give the path of a regular file"
    case .cannotWriteCopy(let path, let reason):
      return "cannot write the copy at \(path): \(reason); nothing was left at \(path)"
    case .notARegularFile(let path, let kind):
      return
        "\(path): cannot be written (it is \(kind), not a regular file); --out replaces only "
        + "regular files, and nothing was changed"
    case .cannotWrite(let path, let reason):
      return "\(path): cannot be written (\(reason)); the file, if any, was left as it was"
    case .isTheDatabase(let path):
      return
        "\(path) is the database folio is using, or one of its journal files; folio never "
        + "writes over it (choose another file name; nothing was changed)"
    case .moved(let path):
      return
        "the database file at \(path) was removed or replaced while this command had it "
        + "open; nothing was written"
    case .createdMeanwhile(let path, let file):
      return
        "another program created \(file) while this command was building \(path) as a new "
        + "database; nothing was written there (run the command again)"
    case .beingCreated(let path):
      return
        "cannot create the database at \(path): another folio command is still creating it; "
        + "try again once it ends"
    }
  }

  /// The C library's description of `code` (an `errno` value), such as "permission denied".
  public static func describe(errno code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
