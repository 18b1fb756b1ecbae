import Foundation

/// The folder and last component of a file path, as text: Foundation's
/// `NSString.deletingLastPathComponent` and `lastPathComponent` trap on a one-character path
/// such as `a` (swift-corelibs-foundation), and every path here may come from the user.
public enum PathName {
  /// `base`, else the first of `base-2`, `base-3`… that names no file.
  public static func unused(_ base: String) -> String {
    var candidate = base
    var counter = 1
    while FileManager.default.fileExists(atPath: candidate) {
      counter += 1
      candidate = "\(base)-\(counter)"
    }
    return candidate
  }

  /// The folder holding `path`: "" for a bare name (the current folder), "/" for an entry of
  /// the root. Trailing slashes are ignored, as `dirname` does.
  public static func folder(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
    return folder.isEmpty ? "/" : folder
  }

  /// The last component of `path` ("b" for "a/b" and "a/b/"), as `basename` gives it.
  public static func name(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// True when `path` and `other` name the same entry, whether or not a file is there yet: the
  /// same last component in the same folder, the folders compared by device and inode (so `a`,
  /// `./a` and `link/a`, where `link` is a symbolic link to the current folder, agree).
  public static func namesSameEntry(_ path: String, _ other: String) -> Bool {
    guard name(of: path) == name(of: other) else { return false }
    let firstFolder = folder(of: path)
    let secondFolder = folder(of: other)
    guard let first = FileIdentity(at: firstFolder.isEmpty ? "." : firstFolder) else {
      return false
    }
    return first.isAt(secondFolder.isEmpty ? "." : secondFolder)
  }

  /// `path` without the slashes at its end, keeping a lone "/".
  private static func withoutTrailingSlashes(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }
}

/// A file by device and inode: the same file whatever path names it.
public struct FileIdentity: Sendable, Equatable {
  let device: UInt64
  let inode: UInt64

  init(_ status: stat) {
    (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
  }

  /// The file at `path` (following symbolic links), if any.
  public init?(at path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }

  /// True when `path` names this file.
  public func isAt(_ path: String) -> Bool { FileIdentity(at: path) == self }
}
