import CSQLite
import Foundation

/// A new database built where no other process can see it, and given its name only once it is
/// complete: a file made with Linux's `O_TMPFILE`, which has no name until `publish()` links
/// it at `path`.
///
/// An import into a database that does not exist yet is built this way (`Database(building:)`).
/// No one else can read or write the file while it is filled, so SQLite writes each page once,
/// into the file, instead of into the write-ahead log and then again into the file, and takes no
/// lock. The file gets its name, in WAL mode, only when it is complete and synced: a refused
/// or interrupted import leaves nothing at `path`, not even when the process is killed (the
/// system frees a file with no name when its last descriptor closes).
///
/// While it is built, the folder is locked (`flock`): another folio command that would create
/// a database in that folder waits, up to its busy timeout, as it would wait for the write lock
/// of a database being imported into.
public final class NewDatabaseFile {
  /// Where the file goes once complete.
  public let path: String
  /// The file with no name.
  let descriptor: Int32
  /// The folder, locked while the file is built.
  private let folder: Int32
  /// The folders made for the file, outermost first: removed again if it is never published.
  private let madeFolders: [String]
  private var published = false

  /// The name SQLite opens the file by (`FileVFS.name`): its descriptor in /proc.
  var sqliteName: String { "/proc/self/fd/\(descriptor)" }

  /// Makes the file for a database at `path`, locking its folder (waiting up to `busyTimeout`
  /// milliseconds for another folio command creating a database there). Nil when `path`, or a
  /// journal, WAL or shared-memory file of it, already exists (a WAL left beside no database
  /// would be read as this one's), or when the system cannot make a file without a name (no
  /// `O_TMPFILE` on that file system, no /proc): the caller opens `path` as usual.
  public init?(path: String, busyTimeout: Int32) throws {
    guard !Self.anyFile(of: path) else { return nil }
    var made: [String] = []
    let folderPath = PathName.folder(of: path)
    if !folderPath.isEmpty {
      try Database.createPrivateFolder(folderPath, for: path, made: &made)
    }
    func removeMadeFolders() { for made in made.reversed() { rmdir(made) } }
    guard let folder = try Self.lockFolder(of: path, busyTimeout: busyTimeout) else {
      removeMadeFolders()
      return nil
    }
    let descriptor = open(
      folderPath.isEmpty ? "." : folderPath, Self.unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0, access("/proc/self/fd/\(descriptor)", R_OK | W_OK) == 0,
      !Self.anyFile(of: path)
    else {
      if descriptor >= 0 { close(descriptor) }
      close(folder)
      removeMadeFolders()
      return nil
    }
    (self.path, self.descriptor, self.folder, self.madeFolders) = (path, descriptor, folder, made)
  }

  /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, <bits/fcntl-linux.h>), a macro Swift
  /// does not import.
  private static let unnamedFile: Int32 = 0o20_000_000 | O_DIRECTORY

  deinit {
    close(descriptor)
    close(folder)
    if !published { for made in madeFolders.reversed() { rmdir(made) } }
  }

  /// Gives the complete file its name, once the connection that built it is closed: marks it
  /// as a WAL database (the header's format bytes, https://sqlite.org/fileformat2.html, as
  /// `PRAGMA journal_mode = WAL` writes them), syncs it, links it at `path` (never over a file
  /// there) and syncs the folder, so that the database survives a power loss once this returns.
  public func publish() throws {
    guard !published else { return }
    let walFormat: [UInt8] = [2, 2]
    let written = walFormat.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 2, 18) }
    guard written == 2, fsync(descriptor) == 0 else {
      throw FileError.cannotCreate(path: path, reason: FileError.describe(errno: errno))
    }
    // A journal, WAL or shared-memory file made at the path meanwhile (by a program that
    // does not lock the folder) would be read as this database's.
    guard !Self.anyFile(of: path) else { throw FileError.createdMeanwhile(path: path) }
    guard linkat(AT_FDCWD, sqliteName, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else {
      if errno == EEXIST { throw FileError.createdMeanwhile(path: path) }
      throw FileError.cannotCreate(path: path, reason: FileError.describe(errno: errno))
    }
    published = true
    fsync(folder)
  }

  /// Whether the database at `path`, or a file SQLite keeps beside it, exists (a symbolic link
  /// counts, even one to nothing).
  private static func anyFile(of path: String) -> Bool {
    Database.files(of: path).contains { name in
      var status = stat()
      return lstat(name, &status) == 0
    }
  }

  /// Locks the folder of `path` (`flock`, exclusive) for a command that creates a database in
  /// it, waiting up to `busyTimeout` milliseconds; returns the folder's descriptor, which holds
  /// the lock until closed. Nil when the folder cannot be locked (a file system without
  /// `flock`): creating goes on unlocked, as SQLite's own locks then decide.
  static func lockFolder(of path: String, busyTimeout: Int32) throws -> Int32? {
    let folderPath = PathName.folder(of: path)
    let folder = open(folderPath.isEmpty ? "." : folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { return nil }
    let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1_000)
    while flock(folder, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        close(folder)
        return nil
      }
      guard Date() < deadline else {
        close(folder)
        throw FileError.beingCreated(path: path)
      }
      usleep(10_000)
    }
    return folder
  }
}

/// The SQLite VFS that opens a `NewDatabaseFile` by its /proc name
/// (`folio_register_new_file_vfs`): the system's own ("unix"), except that the name is taken as
/// it is, where the unix VFS resolves symbolic links (turning /proc/self/fd/N into a name that
/// does not exist) and opens with `O_NOFOLLOW` (which /proc's links refuse).
enum FileVFS {
  static let name = "folio-new-file"

  /// Registers the VFS; once, before the first connection opens (`Database.configureLibrary`).
  /// Without it (an SQLite without system-call hooks), opening a new file fails, and the
  /// caller opens its path as usual.
  static func register() {
    _ = folio_register_new_file_vfs(strdup(name))
  }
}
