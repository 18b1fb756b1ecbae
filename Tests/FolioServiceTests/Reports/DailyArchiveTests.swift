import FolioStorage
import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct DailyArchiveTests {
  let temporary = TemporaryFolder("folio-archive")

  /// A database that sits in an expired dated folder under a name the daily job writes
  /// (`main.json`) is the database in use, not a report: `--keep-days` leaves it and the
  /// folder, and removes the reports beside it.
  @Test func expiringNeverRemovesTheDatabaseInUse() throws {
    let archive = DailyArchive(path: temporary.path)
    let dated = temporary.file("2024-01-01")
    try FileManager.default.createDirectory(atPath: dated, withIntermediateDirectories: true)
    let store = try Store(StoreLocation(path: dated + "/main.json"))
    FileManager.default.createFile(atPath: dated + "/main.html", contents: Data("<p>".utf8))
    let kept = try archive.removeExpired(
      keep: 1, today: try #require(CalendarDay("2024-01-10")), store)
    #expect(kept.map(\.day) == [try #require(CalendarDay("2024-01-01"))])
    let left = try FileManager.default.contentsOfDirectory(atPath: dated)
    #expect(left.contains("main.json"))
    #expect(!left.contains("main.html"))
    #expect(try PortfolioService(store).resolve(nil).name == "main")
  }

  /// A dated folder that is a link to a folder (as `makeFolder` accepts for today) is one of
  /// the days; expiring never removes anything through it.
  @Test func aLinkedDatedFolderIsADayAndIsNeverEmptiedThroughTheLink() throws {
    let archive = DailyArchive(path: temporary.file("reports"))
    let elsewhere = temporary.file("elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: archive.path, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: elsewhere + "/main.html", contents: Data("<p>".utf8))
    let day = try #require(CalendarDay("2024-01-01"))
    try FileManager.default.createSymbolicLink(
      atPath: archive.folder(day), withDestinationPath: elsewhere)
    #expect(try archive.days().map(\.day) == [day])
    let store = try Store(StoreLocation(path: temporary.file("folio.sqlite3")))
    let kept = try archive.removeExpired(
      keep: 1, today: try #require(CalendarDay("2024-01-10")), store)
    #expect(kept.map(\.day) == [day] && kept.map(\.isLink) == [true])
    #expect(FileManager.default.fileExists(atPath: elsewhere + "/main.html"))
  }
}
