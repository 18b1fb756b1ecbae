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

  /// Writes on several threads at once (the tests run commands in parallel in one process):
  /// the signal cleanup's bookkeeping once freed one temporary path twice and corrupted memory.
  @Test func writesOnManyThreadsAtOnceAllLand() throws {
    let base = folder.path
    let threads = 16
    let rounds = 400
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        for round in 0..<rounds {
          do {
            try OutputFile.write("\(thread) \(round)\n", to: base + "/t\(thread).txt")
          } catch {
            Issue.record("thread \(thread) round \(round): \(error)")
          }
        }
      }
    }
    group.wait()
    for thread in 0..<threads {
      #expect(
        FileManager.default.contents(atPath: folder.file("t\(thread).txt"))
          == Data("\(thread) \(rounds - 1)\n".utf8))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: base).count == threads)
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
