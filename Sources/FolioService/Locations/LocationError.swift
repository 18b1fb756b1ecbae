import Foundation

/// Why a locations command was refused. Nothing is written when one is thrown.
public enum LocationError: LocalizedError, ClassifiedError, Equatable {
  /// A field broke a rule; the message names the field (65).
  case invalidField(field: String, message: String)
  /// A field's text does not parse, such as a latitude that is not a number (64).
  case malformedField(field: String, message: String)
  /// Another location already has this name in this city (65); `existing` is its
  /// `"NAME, CITY"` as stored, which may differ in case.
  case duplicate(name: String, city: String, existingID: Int64, existing: String)
  /// No location matches the id or `"NAME, CITY"` reference (66).
  case notFound(reference: String, hint: String?)
  /// A `"NAME, CITY"` reference matches more than one location, which can happen only when
  /// names or cities themselves contain commas (65).
  case ambiguous(reference: String, ids: [Int64])
  /// Trades point at the location and `--force` was not given (65).
  case hasTrades(id: Int64, reference: String, count: Int)
  /// The file to import does not exist (66).
  case fileMissing(String)
  /// A file to import or export cannot be read or written (74).
  case fileError(path: String, reason: String)
  /// The import file is not valid JSON, or not the expected shape (65).
  case malformedFile(path: String, line: Int, message: String)
  /// One element of the import file is wrong; nothing was imported (65).
  case invalidElement(path: String, line: Int, element: String, message: String)

  public var kind: FailureKind {
    switch self {
    case .notFound, .fileMissing: return .inputMissing
    case .malformedField: return .malformed
    case .fileError: return .io
    default: return .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .invalidField(_, let message), .malformedField(_, let message):
      return message
    case .duplicate(let name, let city, let id, let existing):
      return
        "a location named '\(name)' in city '\(city)' already exists: id \(id) (\(existing)); "
        + "name and city must be unique together"
    case .notFound(let reference, let hint):
      return "no location matches '\(reference)'; "
        + (hint ?? "give its id or \"NAME, CITY\" (see 'folio locations list')")
    case .ambiguous(let reference, let ids):
      return "'\(reference)' matches more than one location (ids "
        + ids.map(String.init).joined(separator: ", ") + "); give the id instead"
    case .hasTrades(let id, let reference, let count):
      return
        "location \(id) (\(reference)) has \(count) trade(s) recorded there; "
        + "use --force to delete it and clear their location"
    case .fileMissing(let path):
      return "\(path): no such file"
    case .fileError(let path, let reason):
      return "\(path): \(reason)"
    case .malformedFile(let path, let line, let message):
      return "\(path):\(line): \(message); nothing was imported"
    case .invalidElement(let path, let line, let element, let message):
      return "\(path):\(line): \(element): \(message); nothing was imported"
    }
  }
}
