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
/// While it is built, it holds the database's `CreationLock`: another folio command that would
/// create the same database waits, up to its busy timeout, as it would wait for the write lock
/// of a database being imported into.
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
      sqlite3_vfs_find(FileVFS.name) != nil, Self.existingFile(of: path) == nil
    else { return nil }
    var made: [String] = []
    try Database.createPrivateFolders(for: path, made: &made)
    let lock = try CreationLock(for: path, busyTimeout: busyTimeout)
    // Again: a command that held the lock may have removed folders it had made.
    try Database.createPrivateFolders(for: path, made: &made)
    let folder = PathName.folder(of: path)
    let descriptor = open(
      folder.isEmpty ? "." : folder, Self.unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0, access("/proc/self/fd/\(descriptor)", R_OK | W_OK) == 0,
      Self.existingFile(of: path) == nil
    else {
      if descriptor >= 0 { close(descriptor) }
      for made in made.reversed() { rmdir(made) }
      return nil
    }
    (self.path, self.descriptor, self.lock, self.madeFolders) = (path, descriptor, lock, made)
  }

  /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, <bits/fcntl-linux.h>), a macro Swift
  /// does not import.
  private static let unnamedFile: Int32 = 0o20_000_000 | O_DIRECTORY

  deinit {
    close(descriptor)
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
    Database.syncFolder(of: path)
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
/// same database waits: an abstract Unix socket (Linux; no file, gone with the process) named
/// after the database's real folder and its name. Other databases, in the same folder or not,
/// are not held up.
final class CreationLock {
  private let socket: Int32

  /// Takes the lock for the database at `path`, waiting up to `busyTimeout` milliseconds for
  /// another command holding it (`FileError.beingCreated` after that). Nil when the system
  /// cannot lock (no Unix sockets, the folder unresolvable): creating goes on unlocked, and
  /// SQLite's own locks, or `publish()` never linking over a file, decide.
  init?(for path: String, busyTimeout: Int32) throws {
    guard let text = Self.name(for: path) else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    // The abstract namespace: a first byte of 0, then the name (not NUL-terminated).
    let name = Array(text.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { path in
      path[0] = 0
      for (index, byte) in name.enumerated() { path[index + 1] = byte }
    }
    // `sun_path` ends the structure: its offset is what precedes it.
    let pathOffset = MemoryLayout<sockaddr_un>.size - MemoryLayout.size(ofValue: address.sun_path)
    let length = socklen_t(pathOffset + 1 + name.count)
    let socket = Glibc.socket(
      AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
    let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1_000)
    while true {
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
      }
      if bound == 0 { break }
      guard errno == EADDRINUSE else {
        close(socket)
        return nil
      }
      guard Date() < deadline else {
        close(socket)
        throw FileError.beingCreated(path: path)
      }
      usleep(10_000)
    }
    self.socket = socket
  }

  deinit { close(socket) }

  /// The socket's name for the database at `path` (shown with a leading `@` in
  /// /proc/net/unix): from the real path of its folder and its name. Nil when the folder
  /// cannot be resolved.
  static func name(for path: String) -> String? {
    let folder = PathName.folder(of: path)
    guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
    defer { free(real) }
    let key = String(cString: real) + "/" + PathName.name(of: path)
    return "folio-create-" + SHA256.hex(Array(key.utf8)).prefix(40)
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
