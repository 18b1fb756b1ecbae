import FolioStorage
import Foundation

/// Why `folio db shell` could not start the sqlite3 shell.
public enum ShellError: LocalizedError, ClassifiedError, Equatable {
  /// No `sqlite3` executable on PATH.
  case notInstalled
  /// `exec` failed.
  case cannotStart(path: String, reason: String)

  public var kind: FailureKind { .unavailable }

  public var errorDescription: String? {
    switch self {
    case .notInstalled:
      return
        "the sqlite3 shell is not installed (no 'sqlite3' on PATH); install it "
        + "(for example 'apt-get install sqlite3') or query with 'folio sql'"
    case .cannotStart(let path, let reason):
      return "cannot start \(path): \(reason)"
    }
  }
}

/// The sqlite3 command-line shell, which `folio db shell` hands the database file to.
public enum SQLiteShell {
  /// The `sqlite3` executable in the first folder of `searchPath` (a PATH value) that has one.
  /// Empty entries are skipped rather than read as the current folder.
  public static func locate(searchPath: String?) -> String? {
    for folder in (searchPath ?? "").split(separator: ":") {
      let candidate = folder.hasSuffix("/") ? folder + "sqlite3" : folder + "/sqlite3"
      if FileManager.default.isExecutableFile(atPath: String(candidate)) {
        return String(candidate)
      }
    }
    return nil
  }

  /// The command line: foreign keys on (the shell's default is off), the same busy timeout as
  /// folio, then the file; a path beginning with '-' as `./-…`, which sqlite3 cannot read as
  /// one of its options (`--db=-bail` would open an empty in-memory database).
  public static func arguments(for location: StoreLocation) -> [String] {
    let path = location.path.hasPrefix("-") ? "./" + location.path : location.path
    return ["sqlite3"] + Database.shellSettings(busyTimeout: location.busyTimeout) + [path]
  }

  /// Replaces this process with `executable` (see execv(3)); returns only by throwing.
  public static func exec(_ executable: String, arguments: [String]) throws -> Never {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    // folio ignores SIGPIPE and SIGXFSZ; the shell gets the defaults back (an ignored signal
    // survives exec).
    signal(SIGPIPE, SIG_DFL)
    signal(SIGXFSZ, SIG_DFL)
    execv(executable, &argv)
    let reason = String(cString: strerror(errno))
    for pointer in argv { free(pointer) }
    throw ShellError.cannotStart(path: executable, reason: reason)
  }
}
