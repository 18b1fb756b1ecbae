import Foundation

// The one way Folio writes bytes to a file descriptor and to a file a user named (`--out`).
// It lives in FolioStorage, the lowest layer and the one that already owns the crash-safe file
// routines it reuses (`Database.syncFolder`, `FileError.describe(errno:)`); the CLI's
// stdout/stderr and every `--out` go through it. Foundation's `FileHandle.write` is not used:
// it traps on EPIPE, ENOSPC and EBADF.

/// Writes a file a user named, with the rules every `--out` keeps:
/// - a regular file is replaced atomically: the content goes to a temporary file in the same
///   folder, is synced to disk, then renamed over it; the file keeps its mode;
/// - a new file is created with mode 0600 (it holds financial data, like the database);
/// - a symlink is followed to its target, as a shell's `>` does; the link itself stays;
/// - a directory, FIFO, device or socket is refused and left untouched, and so is a file the
///   user may not write (as a shell's `>` refuses it) and any of the `protected` files (the
///   database in use);
/// - the replaced file keeps its owner where the process may set it (root);
/// - a failure, or SIGINT, SIGTERM or SIGHUP during the write, leaves no temporary file behind
///   and the old file as it was.
///
/// Replacing by rename gives the path a new inode: other hard links to the old file keep the
/// old content.
public enum OutputFile {
  /// Throws what `write(to:protecting:_:)` would throw before it writes a byte: a path that
  /// is empty, not a regular file, protected, not writable, or in a folder that does not exist
  /// or may not be written. For a command that must know a file can be written before it
  /// commits anything (`folio daily`'s index); the write itself may still fail (a full disk).
  public static func check(_ path: String, protecting protected: [String] = []) throws {
    let (target, _) = try preflight(path, protecting: protected)
    let folder = PathName.folder(of: target)
    guard access(folder.isEmpty ? "." : folder, W_OK | X_OK) == 0 else {
      throw folderFailure(path)
    }
  }

  /// Why no temporary file can be made beside `path`, from `errno`.
  private static func folderFailure(_ path: String) -> FileError {
    FileError.cannotWrite(
      path: path,
      reason: errno == ENOENT
        ? "its folder does not exist"
        : "cannot create a temporary file in its folder: " + FileError.describe(errno: errno))
  }

  /// The target `path` resolves to, and its status when it exists; throws for a path that may
  /// not be replaced (see the rules above).
  private static func preflight(_ path: String, protecting protected: [String]) throws -> (
    target: String, existing: stat?
  ) {
    guard !path.isEmpty else {
      throw FileError.cannotWrite(path: "''", reason: "the path is empty")
    }
    let target = try resolve(path)
    // By name first: a journal file SQLite has not created yet is the database's all the same
    // (a file written there is taken for a journal and removed by the next open).
    for file in protected where PathName.namesSameEntry(target, file) {
      throw FileError.isTheDatabase(path: path)
    }
    var status = stat()
    guard lstat(target, &status) == 0 else {
      if errno != ENOENT { throw failed(path) }
      return (target, nil)
    }
    if let kind = nonRegularKind(status.st_mode) {
      throw FileError.notARegularFile(path: path, kind: kind)
    }
    for file in protected where FileIdentity(status).isAt(file) {
      throw FileError.isTheDatabase(path: path)
    }
    guard access(target, W_OK) == 0 else {
      throw failed(path)
    }
    return (target, status)
  }

  /// Writes what `body` produces to `path`; `body` writes through the given writer. Files in
  /// `protected` (compared by device and inode) are never replaced.
  public static func write(
    to path: String, protecting protected: [String] = [],
    _ body: (DescriptorWriter) throws -> Void
  ) throws {
    let (target, existing) = try preflight(path, protecting: protected)
    let folder = PathName.folder(of: target)
    // A short name of its own, so a target name near NAME_MAX still has room.
    let temporary =
      (folder.isEmpty ? "" : folder + "/")
      + ".folio-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    let slot = InterruptedWrite.begin(temporary)
    defer { InterruptedWrite.end(slot) }
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw folderFailure(path)
    }
    var closed = false
    do {
      if let status = existing {
        // The owner first (only root may give a file away; elsewhere it stays the writer's),
        // then the mode, which chown may have cleared of set-id bits.
        _ = fchown(descriptor, status.st_uid, status.st_gid)
        guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
          throw failed(path)
        }
      }
      let writer = DescriptorWriter(descriptor: descriptor)
      try body(writer)
      writer.flush()
      if let failure = writer.failure {
        throw failed(path, failure)
      }
      guard fsync(descriptor) == 0 else {
        throw failed(path)
      }
      closed = true
      guard close(descriptor) == 0 else {
        throw failed(path)
      }
      guard rename(temporary, target) == 0 else {
        throw failed(path)
      }
    } catch {
      if !closed { close(descriptor) }
      unlink(temporary)
      throw error
    }
    Database.syncFolder(of: target)
  }

  /// Writes `text` to `path` with the rules above.
  public static func write(_ text: String, to path: String, protecting: [String] = []) throws {
    try write(to: path, protecting: protecting) { $0.write(text) }
  }

  /// The path a write to `path` lands on: symlinks followed (as `open` would), the link
  /// itself never replaced. A dangling link resolves to the file it names, which is created.
  static func resolve(_ path: String) throws -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
        return current
      }
      var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &bytes, Int(PATH_MAX))
      guard count > 0 else {
        throw failed(path)
      }
      let link = String(decoding: bytes[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else {
        let folder = PathName.folder(of: current)
        current = folder.isEmpty ? link : folder + "/" + link
      }
    }
    throw failed(path, ELOOP)
  }

  /// The error for a system call on `path` that failed with `code` (default: the current errno).
  private static func failed(_ path: String, _ code: Int32 = errno) -> FileError {
    .cannotWrite(path: path, reason: FileError.describe(errno: code))
  }

  /// "a directory", "a FIFO"… for anything that is not a regular file; nil for a regular file.
  static func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }
}

// MARK: - Interrupted writes

/// Removes the temporary files of output writes when the process is interrupted (SIGINT,
/// SIGTERM, SIGHUP), then lets the signal end the process as it would have. Writes may run at
/// once on several threads (the tests run commands in parallel in one process), so each takes a
/// slot of its own under a lock; the paths are kept as C strings so the handler calls nothing
/// but `unlink`, `signal` and `raise`.
private enum InterruptedWrite {
  static let capacity = 64
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
    return slots
  }()
  nonisolated(unsafe) static var active = 0
  static let lock = NSLock()
  static let signals = [SIGINT, SIGTERM, SIGHUP]

  /// Registers `path` for removal on a signal; returns its slot for `end` (nil when every slot
  /// is taken: that write is then not cleaned up on a signal, which only costs a stray file).
  static func begin(_ path: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
    slots[slot] = strdup(path)
    active += 1
    if active == 1 {
      for number in signals {
        signal(number) { received in
          for slot in 0..<InterruptedWrite.capacity {
            if let path = InterruptedWrite.slots[slot] { unlink(path) }
          }
          signal(received, SIG_DFL)
          raise(received)
        }
      }
    }
    return slot
  }

  static func end(_ slot: Int?) {
    guard let slot else { return }
    lock.lock()
    defer { lock.unlock() }
    let path = slots[slot]
    slots[slot] = nil
    free(path)
    active -= 1
    if active == 0 {
      for number in signals { signal(number, SIG_DFL) }
    }
  }
}
