import FolioStorage
import Foundation

/// A fresh temporary folder for one test, removed when the value goes away.
final class TemporaryFolder {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "folio-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }
}
