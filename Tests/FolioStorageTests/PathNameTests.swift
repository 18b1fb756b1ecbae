import FolioStorage
import FolioTestSupport
import Foundation
import Testing

/// Folders and names of paths, including the one-character ones Foundation traps on.
@Suite struct PathNameTests {
  @Test(arguments: [
    ("a", "", "a"), ("ü", "", "ü"), ("-", "", "-"), ("./a", ".", "a"), ("/a", "/", "a"),
    ("/", "/", "/"), ("a/b", "a", "b"), ("a/b/", "a", "b"), ("/x//y", "/x", "y"),
    ("../f.sqlite3", "..", "f.sqlite3"), ("dir/sub/file.csv", "dir/sub", "file.csv"),
  ])
  func folderAndName(path: String, folder: String, name: String) {
    #expect(PathName.folder(of: path) == folder, "folder of \(path)")
    #expect(PathName.name(of: path) == name, "name of \(path)")
  }

  @Test func anUnusedNameSkipsEveryNameAFileHas() throws {
    let folder = TemporaryFolder("unused-name")
    let base = folder.file("f.bak")
    #expect(PathName.unused(base) == base)
    try Data().write(to: URL(fileURLWithPath: base))
    try Data().write(to: URL(fileURLWithPath: base + "-2"))
    #expect(PathName.unused(base) == base + "-3")
  }
}
