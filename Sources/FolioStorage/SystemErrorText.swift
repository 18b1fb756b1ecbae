import Foundation

/// A system error (Foundation's file errors, POSIX errors) said in words, as every message
/// folio prints must be: never Foundation's own text ("The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)", "Error Domain=NSCocoaErrorDomain Code=512 …").
public enum SystemErrorText {
  /// What went wrong, in lowercase words such as "permission denied" or "no space left on
  /// device"; folio's own errors keep their description.
  public static func words(_ error: any Error) -> String {
    if let posix = posixCode(of: error) { return FileError.describe(errno: posix) }
    if isFoundationError(error), (error as NSError).domain == NSCocoaErrorDomain,
      let cocoa = error as? CocoaError
    {
      return words(cocoa)
    }
    if !isFoundationError(error), let text = (error as? LocalizedError)?.errorDescription {
      return text
    }
    if !isFoundationError(error) { return String(describing: error) }
    return "an unexpected system error"
  }

  /// The errno behind `error`: a POSIX error, or the one a Foundation error wraps.
  static func posixCode(of error: any Error) -> Int32? {
    if let posix = error as? POSIXError { return posix.code.rawValue }
    guard isFoundationError(error) || error is CocoaError else { return nil }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return Int32(underlying.code)
    }
    return nil
  }

  /// True for an error Foundation made (an `NSError` or one of its bridged structs), whose
  /// description is Foundation's text rather than folio's.
  static func isFoundationError(_ error: any Error) -> Bool {
    error is CocoaError || error is URLError || type(of: error) is NSError.Type
  }

  private static func words(_ error: CocoaError) -> String {
    switch error.code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on device"
    case .fileWriteVolumeReadOnly: return "read-only file system"
    case .fileWriteFileExists: return "the file already exists"
    case .fileReadTooLarge: return "the file is too large to read"
    case .fileReadInapplicableStringEncoding, .fileReadUnknownStringEncoding:
      return "the file is not valid text"
    case .fileReadCorruptFile: return "the file is damaged"
    case .fileLocking: return "the file is locked"
    default:
      if error.isFileError && (500...599).contains(error.code.rawValue) {
        return "it could not be written"
      }
      if error.isFileError { return "it could not be read" }
      return "an unexpected system error"
    }
  }
}
