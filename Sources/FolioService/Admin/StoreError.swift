import Foundation

/// Errors about the database file itself.
public enum StoreError: LocalizedError, ClassifiedError, Equatable {
  /// The command reads an existing database and there is none at the path.
  case missingDatabase(String)
  /// The same, when the path, or a folder on the way to it, is a symbolic link that leads to
  /// no file (`reason` says which and how).
  case brokenLink(path: String, reason: String)
  /// The command reads an existing database and the file at the path is empty (as `touch`
  /// leaves it), with no WAL beside it: no database yet.
  case emptyFile(String)
  /// The database cannot be opened or created at the path.
  case cannotOpen(path: String, reason: String)
  /// The file at the path is not an SQLite database, or it is damaged.
  case notADatabase(String)
  /// The integrity or foreign-key check found problems.
  case checkFailed([String])

  public var kind: FailureKind {
    switch self {
    case .missingDatabase, .brokenLink, .emptyFile: return .inputMissing
    case .cannotOpen: return .io
    case .checkFailed, .notADatabase: return .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .missingDatabase(let path):
      return "no database at \(path); record a trade or run 'folio db migrate' to create one"
    case .brokenLink(let path, let reason):
      return "no database at \(path): \(reason); give the path of a database"
    case .emptyFile(let path):
      return
        "\(path) is an empty file, not a database yet; record a trade or run 'folio db migrate' "
        + "to make it one (the file was left untouched)"
    case .cannotOpen(let path, let reason):
      return "cannot open the database at \(path): \(reason)"
    case .notADatabase(let path):
      return
        "\(path) is not an SQLite database or it is damaged; check the path "
        + "(the file was left untouched)"
    case .checkFailed(let findings):
      let more =
        findings.count > 1 ? " (and \(findings.count - 1) more, all listed in the output)" : ""
      return "the database check found \(findings.count) problem(s): "
        + (findings.first ?? "") + more
    }
  }
}
