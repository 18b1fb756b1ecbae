import Foundation

/// The package's Fixtures/ folder, found from this source file's location.
public enum Fixtures {
  /// The absolute path of the package: the folder that holds Package.swift.
  public static let package: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FolioTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .path

  /// The absolute path of Fixtures/.
  public static let root = package + "/Fixtures"

  /// The absolute path of `name` inside Fixtures/, such as "coingecko/global_usd.json".
  public static func path(_ name: String) -> String { root + "/" + name }

  /// The bytes of a fixture file.
  public static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
  }

  /// The text of a fixture file.
  public static func text(_ name: String) throws -> String {
    String(decoding: try bytes(name), as: UTF8.self)
  }
}
