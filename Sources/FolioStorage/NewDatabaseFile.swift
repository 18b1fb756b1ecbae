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
/// While it is built, it holds the database's `CreationLock` (`<path>.creating`): another folio
/// command that would create the same database waits, up to its busy timeout, as it would wait
/// for the write lock of a database being imported into.
public final class NewDatabaseFile {
  /// Where the file goes once complete.
  public let path: String
  /// The file with no name.
  let descriptor: Int32
  /// Held until this is released: the folders are removed, when the file was never published,
  /// before another command creating the database may go on.
  private let lock: CreationLock?
  /// The folders made for the file, outermost first: removed again if it is never published.
  private var madeFolders: [String]
  private var published = false

  /// The name SQLite opens the file by (`FileVFS.name`): its descriptor in /proc.
  var sqliteName: String { "/proc/self/fd/\(descriptor)" }

  /// Makes the file for a database at `path`, holding its `CreationLock` (waiting up to
  /// `busyTimeout` milliseconds for another folio command creating it). Nil when `path`, or a
  /// journal, WAL or shared-memory file of it, already exists, when `path` names a folder
  /// (`db/`, `db/.`), or when the system cannot build such a file (no `O_TMPFILE` on that file
  /// system, no /proc, no `FileVFS`): the caller opens `path` as usual.
  public init?(path: String, busyTimeout: Int32) throws {
    Database.configureLibrary
    let name = PathName.name(of: path)
    guard !path.hasSuffix("/"), name != ".", name != "..", !name.isEmpty,
      sqlite3_vfs_find(FileVFS.name) != nil, Self.fitsSQLite(path),
      Self.existingFile(of: path) == nil
    else { return nil }
    var made: [String] = []
    let lock: CreationLock?
    do {
      lock = try CreationLock(for: path, busyTimeout: busyTimeout, made: &made)
    } catch {
      Self.remove(made)
      throw error
    }
    let folder = PathName.folder(of: path)
    let descriptor = open(
      folder.isEmpty ? "." : folder, Self.unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0, access("/proc/self/fd/\(descriptor)", R_OK | W_OK) == 0,
      Self.existingFile(of: path) == nil
    else {
      if descriptor >= 0 { close(descriptor) }
      lock?.removeFile()
      Self.remove(made)
      return nil
    }
    (self.path, self.descriptor, self.lock, self.madeFolders) = (path, descriptor, lock, made)
  }

  /// Removes the folders `made` for a database, innermost first, those left empty.
  private static func remove(_ made: [String]) {
    for folder in made.reversed() { rmdir(folder) }
  }

  /// Whether SQLite can open `path` by name: the unix VFS takes absolute paths that, with
  /// `-journal` added, fit its `mxPathname` (512 bytes). The file with no name is opened by a
  /// short /proc name, so a longer path would give a database nothing could open afterwards.
  private static func fitsSQLite(_ path: String) -> Bool {
    guard let system = sqlite3_vfs_find(nil) else { return false }
    let absolute =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return absolute.utf8.count + "-journal".utf8.count <= system.pointee.mxPathname
  }

  /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, <bits/fcntl-linux.h>), a macro Swift
  /// does not import.
  private static let unnamedFile: Int32 = 0o20_000_000 | O_DIRECTORY

  deinit {
    close(descriptor)
    guard !published else { return }
    // While the lock is held: a command waiting to create the database makes them again.
    lock?.removeFile()
    Self.remove(madeFolders)
  }

  /// Starts writing what the connection has written so far to the disk, without waiting: the
  /// sync of `publish` then waits for the last pages only, not the whole file.
  func startWriteback() {
    folio_start_writeback(descriptor)
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
    // does not take the lock) would be read as this database's.
    if let file = Self.existingFile(of: path) {
      throw FileError.createdMeanwhile(path: path, file: file)
    }
    var linked = linkat(AT_FDCWD, sqliteName, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    if !linked && errno == ENOENT {
      // The folder was removed meanwhile, with the other new databases in it (a refused import
      // removes the folders it made, which a file with no name does not keep): made again.
      try Database.createPrivateFolders(for: path, made: &madeFolders)
      linked = linkat(AT_FDCWD, sqliteName, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    }
    guard linked else {
      if errno == EEXIST { throw FileError.createdMeanwhile(path: path, file: path) }
      throw FileError.cannotCreate(path: path, reason: FileError.describe(errno: errno))
    }
    published = true
    // The new name, and those of the folders made for it, survive a power loss.
    Database.syncFolder(of: path)
    for folder in madeFolders { Database.syncFolder(of: folder) }
  }

  /// The database at `path`, or the first file SQLite keeps beside it, that exists (a
  /// symbolic link counts, even one to nothing); nil when none does.
  static func existingFile(of path: String) -> String? {
    Database.files(of: path).first { name in
      var status = stat()
      return lstat(name, &status) == 0
    }
  }
}

/// What a command holds while it creates the database at a path, so that another creating the
/// same database waits: an exclusive `flock` on `<path>.creating`, a file folio makes for it
/// beside the database (holding `marker`) and removes when the lock is let go. One left by a
/// killed command holds no lock: the next command creating the database takes it over and
/// removes it; so is an empty one, which a command killed between making the file and writing
/// `marker` in it leaves (the lock, not the content, decides who holds it). A file of that
/// name that folio did not make (holding anything but `marker`) is never locked nor removed:
/// creating then goes on unlocked. It is a file, so the folder's
/// permissions say who may take it, and every path and mount that reaches the folder reaches it.
final class CreationLock {
  /// The lock file.
  let path: String
  private let descriptor: Int32
  /// The lock file, to tell it from one another command made at its name after this one was
  /// removed.
  private let file: FileIdentity
  private var removed = false

  /// What a lock file holds: a file at the name that holds anything else is not folio's.
  static let marker = Array("folio: a database is being created here\n".utf8)

  /// Takes the lock for the database at `database`, making its missing folders (added to
  /// `made`), waiting up to `busyTimeout` milliseconds for another command holding it
  /// (`FileError.beingCreated` after that). Nil when the lock file cannot be made or is not
  /// folio's (a folder that is not writable, a symbolic link or another file there): creating
  /// goes on unlocked, and SQLite's own locks, or `NewDatabaseFile.publish()` never linking
  /// over a file, decide.
  init?(for database: String, busyTimeout: Int32, made: inout [String]) throws {
    let path = database + ".creating"
    let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1_000)
    while true {
      // Made again each time: a command that held the lock may have removed folders it made.
      try Database.createPrivateFolders(for: database, made: &made)
      var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      let new = descriptor >= 0
      if !new {
        guard errno == EEXIST else {
          guard errno == ENOENT, Date() < deadline else { return nil }
          continue
        }
        // Only a regular file is opened: opening a device or a FIFO someone put there could
        // do more than open it.
        var status = stat()
        guard lstat(path, &status) == 0 else {
          guard errno == ENOENT, Date() < deadline else { return nil }
          continue
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
          guard errno == ENOENT, Date() < deadline else { return nil }
          continue
        }
      }
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, lstat(path, &named) == 0,
          FileIdentity(held) == FileIdentity(named)
        else {
          // Removed by its holder as it let go: a new one.
          close(descriptor)
          continue
        }
        let written =
          new || held.st_size == 0
          ? Self.marker.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
          : Self.marker.count
        guard written == Self.marker.count, Self.isFolios(descriptor, held) else {
          // One this made and could not fill (a full disk) is not left behind.
          if new && written != Self.marker.count { unlink(path) }
          close(descriptor)
          return nil
        }
        (self.path, self.descriptor, self.file) = (path, descriptor, FileIdentity(held))
        return
      }
      let code = errno
      close(descriptor)
      guard code == EWOULDBLOCK || code == EINTR else { return nil }
      guard Date() < deadline else { throw FileError.beingCreated(path: database) }
      usleep(10_000)
    }
  }

  /// Whether `path` names a regular file (not following a symbolic link).
  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }

  /// Whether the open file is a lock file folio made: a regular file with one name, holding
  /// exactly `marker`.
  private static func isFolios(_ descriptor: Int32, _ status: stat) -> Bool {
    guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else { return false }
    var content = [UInt8](repeating: 0, count: marker.count + 1)
    let read = content.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    return read == marker.count && content.prefix(marker.count).elementsEqual(marker)
  }

  /// Removes the lock file of the database at `database` that a command killed just after
  /// naming the database left: the database exists, so no command creating it comes to take
  /// the file over. Only when no one holds it and it is folio's (`marker`).
  static func removeStale(of database: String) {
    let path = database + ".creating"
    guard isRegularFile(database), isRegularFile(path) else { return }
    let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var held = stat()
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &held) == 0,
      FileIdentity(at: path) == FileIdentity(held), isFolios(descriptor, held)
    else { return }
    unlink(path)
  }

  /// Removes the lock file, still holding the lock, once: a command waiting for it then makes
  /// a new one. Before the folders it is in are removed.
  func removeFile() {
    guard !removed else { return }
    removed = true
    if FileIdentity(at: path) == file { unlink(path) }
  }

  deinit {
    removeFile()
    close(descriptor)
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
