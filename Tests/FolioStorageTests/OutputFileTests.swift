import FolioStorage
import FolioTestSupport
import Foundation
import Testing

/// The one output-file writer, below the CLI: what a failing body or write leaves behind.
@Suite struct OutputFileWriterTests {
  let folder = TemporaryFolder()

  struct Stop: Error {}

  @Test func aFailingBodyLeavesTheOldFileAndNoTemporaryFile() throws {
    let path = folder.file("out.csv")
    try OutputFile.write("old\n", to: path)
    #expect(throws: Stop.self) {
      try OutputFile.write(to: path) { writer in
        writer.write(String(repeating: "x", count: 200_000))  // flushed into the temporary file
        throw Stop()
      }
    }
    #expect(FileManager.default.contents(atPath: path) == Data("old\n".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
  }

  @Test func aFailedWriteIsReportedNotTrapped() throws {
    let writer = DescriptorWriter(descriptor: -1)
    writer.write("lost")
    writer.flush()
    #expect(writer.failure == EBADF)
    writer.write("dropped")  // later writes are dropped, not retried
    writer.flush()
    #expect(writer.failure == EBADF)
  }

  @Test func aPathInAMissingFolderIsAnError() throws {
    let path = folder.file("missing/out.csv")
    #expect(throws: FileError.self) { try OutputFile.write("x", to: path) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
