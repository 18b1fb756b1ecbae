import FolioTestSupport
import Foundation
import Testing

/// docs/architecture.md cannot drift from Package.swift: its module table names every target
/// the package declares, and no target the package does not.
@Suite struct ArchitectureDocumentTests {
  static let root = URL(fileURLWithPath: Fixtures.package)

  /// The names of the targets declared in Package.swift (`name: "…"` inside a target).
  static func declaredTargets() throws -> Set<String> {
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var names = Set<String>()
    let kinds = ["target", "executableTarget", "testTarget", "systemLibrary", "plugin"]
    for kind in kinds {
      for part in manifest.components(separatedBy: ".\(kind)(").dropFirst() {
        guard let open = part.range(of: "name: \""),
          let close = part[open.upperBound...].firstIndex(of: "\"")
        else { continue }
        names.insert(String(part[open.upperBound..<close]))
      }
    }
    return names
  }

  /// The target names in the first column of the document's module table: each `name` in
  /// backticks before the first `|` separator of a row.
  static func documentedTargets() throws -> Set<String> {
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    var names = Set<String>()
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cell = line.dropFirst(2).prefix { $0 != "|" }
      for (index, piece) in cell.split(separator: "`", omittingEmptySubsequences: false)
        .enumerated()
      where index % 2 == 1 {
        names.insert(String(piece))
      }
    }
    return names
  }

  @Test func theModuleTableNamesExactlyThePackagesTargets() throws {
    let declared = try Self.declaredTargets()
    let documented = try Self.documentedTargets()
    #expect(declared.count >= 15, "\(declared)")
    #expect(
      declared.subtracting(documented).isEmpty,
      "targets missing from docs/architecture.md: \(declared.subtracting(documented).sorted())")
    #expect(
      documented.subtracting(declared).isEmpty,
      "docs/architecture.md names targets Package.swift lacks: \(documented.subtracting(declared).sorted())"
    )
  }
}
