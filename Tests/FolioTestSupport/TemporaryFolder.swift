import Foundation
import Synchronization

/// A fresh folder under the system's temporary folder, for one test: removed with everything in
/// it when the value goes away, or, for a template shared by a whole test run (`forTheRun`),
/// when the process exits. The one temporary-folder helper of every test target.
public final class TemporaryFolder: @unchecked Sendable {
  // @unchecked: `path` never changes after init, and the folder is only removed in deinit.

  /// The folder's absolute path.
  public let path: String
  private let removesOnDeinit: Bool

  /// Creates the folder, named `<label>-<UUID>`.
  public convenience init(_ label: String = "folio-test") {
    self.init(label, removesOnDeinit: true)
  }

  private init(_ label: String, removesOnDeinit: Bool) {
    path = NSTemporaryDirectory() + label + "-" + UUID().uuidString
    self.removesOnDeinit = removesOnDeinit
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    if removesOnDeinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  /// A folder that lives until the test process exits, for templates built once per run.
  public static func forTheRun(_ label: String) -> TemporaryFolder {
    let folder = TemporaryFolder(label, removesOnDeinit: false)
    runFolders.withLock { $0.append(folder.path) }
    _ = removeAtExit
    return folder
  }

  private static let runFolders = Mutex<[String]>([])
  private static let removeAtExit: Void = {
    atexit {
      for path in TemporaryFolder.runFolders.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
  }()
}
