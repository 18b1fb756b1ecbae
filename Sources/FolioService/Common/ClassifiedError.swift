import FolioStorage
import Foundation

/// The kind of failure, which the CLI turns into a sysexits exit code.
public enum FailureKind: Sendable, Equatable {
  /// Text given on the command line does not parse, such as a malformed date (64). A file
  /// whose content does not parse is `badData`: an import wraps these in its own error.
  case malformed
  /// The input is well-formed but breaks a rule (65).
  case badData
  /// A named input file, or a named record (trade, portfolio, location, coin), does not
  /// exist (66).
  case inputMissing
  /// A remote service could not be used (69).
  case unavailable
  /// Reading or writing a file failed (74).
  case io
  /// Another process held the database for longer than the busy timeout (75).
  case busy
  /// A bug or an unexpected state (70).
  case internalFailure
}

/// An error that knows which kind of failure it is.
public protocol ClassifiedError: Error {
  var kind: FailureKind { get }
}

extension DecimalError: ClassifiedError {
  public var kind: FailureKind { .badData }
}

extension SQLQueryError: ClassifiedError {
  public var kind: FailureKind { .badData }
}

extension MigrationError: ClassifiedError {
  public var kind: FailureKind { .badData }
}

extension FileError: ClassifiedError {
  public var kind: FailureKind {
    switch self {
    case .libraryTooOld: .unavailable
    case .createdMeanwhile, .beingCreated: .busy
    default: .io
    }
  }
}

extension SQLiteError: ClassifiedError {
  public var kind: FailureKind {
    switch category {
    case .busy: .busy
    case .damaged, .constraint, .mismatch: .badData
    case .readOnly, .ioError, .full, .cannotOpen: .io
    case .denied, .other: .internalFailure
    }
  }
}
