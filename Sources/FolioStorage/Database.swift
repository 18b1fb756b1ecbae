import CSQLite
import Foundation

/// One SQLite connection, configured the way Folio needs every connection to be (see
/// `Configuration`): extended result codes, `foreign_keys=ON`, WAL journal, `synchronous=FULL`
/// and a busy timeout.
///
/// Not `Sendable`: the CLI is synchronous and each connection stays on the thread that opened it.
public final class Database {
  /// How a connection opens its file.
  public enum Mode: Sendable {
    /// Read and write; the file and its folder are created when missing.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Read only: the connection refuses every write (`PRAGMA query_only`) and leaves the
    /// journal mode as it is, so opening a file to inspect it never changes it.
    case readOnly
  }

  /// The oldest SQLite library Folio runs on: 3.37.0 brought STRICT tables.
  public static let minimumLibraryVersion: Int32 = 3_037_000

  /// The default busy timeout: how long a writer waits for another writer before giving up.
  public static let defaultBusyTimeout: Int32 = 5_000

  /// Every setting of a connection, in one place.
  public struct Configuration: Sendable, Equatable {
    /// `PRAGMA synchronous` values (https://sqlite.org/pragma.html#pragma_synchronous).
    public enum Synchronous: String, Sendable {
      case off = "OFF"
      case normal = "NORMAL"
      case full = "FULL"
      case extra = "EXTRA"
    }

    public var mode: Mode
    /// How long, in milliseconds, the connection waits for a lock held by another one.
    public var busyTimeout: Int32
    /// Whether a writable connection switches the file to WAL (https://sqlite.org/wal.html).
    /// Without it the file keeps its journal mode (a new file: a rollback journal), which
    /// backup copies use so that they are one self-contained file.
    public var writeAheadLog: Bool
    /// How a writable connection syncs: FULL, so a commit survives a power loss.
    public var synchronous: Synchronous = .full
    /// Whether SQLite enforces the foreign keys (https://sqlite.org/foreignkeys.html).
    public var foreignKeys = true
    /// The page cache of a writable connection, in KiB: large imports touch several tables
    /// and indexes at once, and pages spilled from the cache mid-transaction are slow to find
    /// again in the WAL.
    public var cacheKiB = 24_576
    /// Whether closing the connection, when no other has the file open, checkpoints the WAL
    /// into the file and deletes the -wal and -shm files, as SQLite does by default. That takes
    /// an EXCLUSIVE lock on the file, and a reader without a busy handler (a plain `sqlite3`)
    /// opening it in that moment fails with "database is locked"; so only a connection to a
    /// file no one else reads (a restore's scratch copy) does it. The others leave both files,
    /// the WAL emptied when they can (`deinit`).
    public var removesLogOnClose = false
    /// Whether the connection refuses every write (`PRAGMA query_only`): in `.readOnly` mode.
    public var readOnly: Bool { mode == .readOnly }

    public init(
      mode: Mode = .readWriteCreate, busyTimeout: Int32 = Database.defaultBusyTimeout,
      writeAheadLog: Bool = true
    ) {
      (self.mode, self.busyTimeout, self.writeAheadLog) = (mode, busyTimeout, writeAheadLog)
    }
  }

  /// The page size, in bytes, of the databases folio creates (SQLite's default is 4,096). With
  /// 16 KiB pages an import writes a quarter as many pages, each with its WAL frame header and
  /// its write calls: 100,000 trades import in 8 % less time (docs/performance.md). Reads of a
  /// few rows cost the same; an empty database takes 0.8 MB instead of 0.25, and making one
  /// needs about 1.9 MB free. A file keeps the page size it was made with.
  public static let newFilePageSize = 16_384

  /// The page cache, in KiB, of a connection building a new file (`init(building:)`). Its
  /// pages go straight into the file, so a cache smaller than `Configuration.cacheKiB` has
  /// SQLite write them as the rows come, on the thread writing the batches, instead of most of
  /// them at the commit: 1M trades imported in 3.9 s instead of 4.3, with a peak of 49 MB
  /// instead of 84 (docs/performance.md).
  public static let newFileCacheKiB = 8_192

  /// How long, in milliseconds, a closing connection tries to empty the WAL while others use
  /// it (`deinit`): a reader's query of a millisecond or two, not a long import or an open
  /// shell transaction, which would hold up the command's end.
  static let closingCheckpointTimeout: Int32 = 20

  /// The connection, for the thread that holds it (see `handle`).
  private let raw: OpaquePointer
  /// The connection, once the batch writer, if one runs, has written what it was handed
  /// (`writingBehind`).
  var handle: OpaquePointer {
    pending.waitForWriter()
    return raw
  }
  /// The file this connection opened.
  public let path: String
  /// The settings the connection was opened with.
  public let configuration: Configuration
  /// How long, in milliseconds, this connection waits for a lock held by another one.
  public var busyTimeout: Int32 { configuration.busyTimeout }
  private var statementCache: [String: Statement] = [:]
  /// Rows of `BatchedInsert`s not written yet: written before anything else runs here.
  let pending = PendingWrites()
  /// Kept alive while `restrictToReads` has an authorizer pointing at it.
  var authorizerLog: AuthorizerLog?
  /// What opening this connection made: the file, when it was not there (`.readWriteCreate`);
  /// nil when it was.
  public let made: MadeFile?
  /// The new file this connection builds, which has no name yet (`init(building:)`).
  private let building: NewDatabaseFile?

  /// A database file this process created, and the folders it created for it.
  public struct MadeFile: Sendable, Equatable {
    /// The file, to tell it from one another process put at its path.
    public let file: FileIdentity
    /// The folders made for it, outermost first.
    public let folders: [String]
  }

  /// Opens (and, in `.readWriteCreate` mode, creates) the database at `path`.
  ///
  /// A new file is created with mode 0600 and a new folder with mode 0700, because the file
  /// holds someone's financial records.
  public convenience init(
    path: String, mode: Mode = .readWriteCreate, busyTimeout: Int32 = defaultBusyTimeout
  ) throws {
    try self.init(path: path, Configuration(mode: mode, busyTimeout: busyTimeout))
  }

  /// Opens (and, in `.readWriteCreate` mode, creates) the database at `path` with
  /// `configuration`.
  public convenience init(path: String, _ configuration: Configuration) throws {
    try self.init(path: path, configuration, fileReadOnly: nil)
  }

  /// Opens a connection that builds the new database `file` (`NewDatabaseFile`), which no
  /// other process can see: pages of `newFilePageSize` bytes, written straight into the file
  /// (the rollback journal in memory, `synchronous = OFF`: until `publish()` syncs it, the file
  /// has no name to come back to after a crash) under an exclusive lock held from the first
  /// read. The file is not in WAL mode until `publish()` marks it so.
  public convenience init(building file: NewDatabaseFile, _ configuration: Configuration) throws {
    try self.init(path: file.path, configuration, fileReadOnly: nil, building: file)
  }

  /// `fileReadOnly` says whether SQLite opens the file read-only underneath; nil decides as the
  /// comment below says. `building`: the new file this connection fills instead of `path`.
  private init(
    path: String, _ configuration: Configuration, fileReadOnly: Bool?,
    building: NewDatabaseFile? = nil
  ) throws {
    let mode = configuration.mode
    try Database.checkLibraryVersion()
    Database.configureLibrary
    let made: MadeFile?
    if building == nil {
      try Database.checkRegularFile(path)
      made =
        mode == .readWriteCreate
        ? try Database.createPrivateFile(at: path, busyTimeout: configuration.busyTimeout) : nil
    } else {
      made = nil
    }
    // `.readOnly` never changes the file it looks at. When a -wal file is there (a copy taken
    // with its WAL, or a database in use), the connection is opened read-only, so it can
    // neither checkpoint the WAL into the file nor delete it
    // (https://sqlite.org/wal.html#readonly). Without one, it opens read-write underneath and
    // leaves the empty -wal and the -shm its reading created (unless `removesLogOnClose`);
    // `query_only` below refuses every write either way.
    let keepsWAL =
      fileReadOnly ?? (mode == .readOnly && FileManager.default.fileExists(atPath: path + "-wal"))
    let access = keepsWAL ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(
      building?.sqliteName ?? path, &connection, flags, building == nil ? nil : FileVFS.name)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError(connection: connection, code: code)
      sqlite3_close_v2(connection)
      throw error
    }
    self.raw = connection
    self.path = path
    self.configuration = configuration
    self.made = made
    self.building = building
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, busyTimeout)
    _ = folio_sqlite3_skip_checkpoint_on_close(connection, configuration.removesLogOnClose ? 0 : 1)
    try execute("PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
    // Reading the header makes "file is not a database" fail here, before anything is written.
    _ = try scalarInt("PRAGMA schema_version")
    if configuration.readOnly {
      try execute("PRAGMA query_only = ON")
    } else if building != nil {
      try execute(
        "PRAGMA page_size = \(Self.newFilePageSize); PRAGMA locking_mode = EXCLUSIVE; "
          + "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; "
          + "PRAGMA cache_size = -\(Self.newFileCacheKiB)")
    } else {
      if configuration.writeAheadLog { try enableWriteAheadLog() }
      try execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
      try execute("PRAGMA cache_size = -\(configuration.cacheKiB)")
    }
  }

  deinit {
    statementCache.removeAll()
    let connection = handle
    if !configuration.readOnly && building == nil {
      // The WAL into the file and emptied, as the checkpoint-on-close turned off in `init`
      // would have, but under the WAL's own locks, which no reader waits for: so the file alone
      // holds the database once the command ends, and the next connection to open it, when
      // none is open, has no frames to read back (SQLite's WAL recovery, during which a reader
      // without a busy handler that opens the file fails). PASSIVE copies the pages without the
      // write lock, so other writers go on; TRUNCATE then takes it only to empty the WAL, and
      // fails at once while another connection writes or reads from the WAL. It is tried again
      // for a short read to end, without holding a lock meanwhile; what cannot be done is left
      // to the next connection to close, or to the next commit's automatic checkpoint.
      sqlite3_busy_timeout(connection, 0)
      sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      let deadline = Date().addingTimeInterval(Double(Self.closingCheckpointTimeout) / 1_000)
      while sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        == SQLITE_BUSY && Date() < deadline
      {
        sqlite3_sleep(1)
      }
    }
    sqlite3_close_v2(connection)
  }

  /// Has closing this connection, when no other has the file open, checkpoint the WAL and
  /// delete the -wal and -shm files (`Configuration.removesLogOnClose`): for a database this
  /// command made and is undoing, whose side files tell whether anyone else opened it.
  public func removeLogOnClose() {
    _ = folio_sqlite3_skip_checkpoint_on_close(handle, 0)
  }

  /// Process-wide SQLite settings, applied once before the first connection opens.
  static let configureLibrary: Void = {
    // Nothing depends on the statistics; failing (SQLite already initialized) changes nothing.
    _ = folio_sqlite3_disable_memory_statistics()
    FileVFS.register()
  }()

  /// Fails when the SQLite library linked at run time (or `version`, in tests) is older than
  /// Folio needs. Every `Database.init` calls it, so no command touches a file with a library
  /// that cannot read Folio's STRICT tables.
  public static func checkLibraryVersion(_ version: Int32 = sqlite3_libversion_number()) throws {
    guard version >= minimumLibraryVersion else {
      throw FileError.libraryTooOld(
        found: versionString(version), required: versionString(minimumLibraryVersion))
    }
  }

  /// The dotted form of a `sqlite3_libversion_number()` value: 3037000 → "3.37.0"
  /// (see https://sqlite.org/c3ref/libversion.html).
  public static func versionString(_ number: Int32) -> String {
    "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
  }

  /// The version of the SQLite library in use, such as "3.40.1".
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// Switches the file to WAL (https://sqlite.org/wal.html) unless it already is. The switch
  /// needs an exclusive lock and SQLite does not call the busy handler for it, so when two
  /// processes open a new file at the same moment the second one retries here, for up to
  /// the busy timeout. An empty file gets pages of `newFilePageSize` bytes first.
  public func enableWriteAheadLog() throws {
    // A new file being built gets WAL mode when it is published.
    if building != nil { return }
    if try scalarText("PRAGMA journal_mode") == "wal" { return }
    // An empty file takes its page size from its first write, which the switch is. SQLite
    // turned the cache's size in KiB into pages of the old size: again with the new one (else
    // a cache of 24 MiB holds 96 MiB).
    if try scalarInt("PRAGMA page_count") == 0 {
      try execute("PRAGMA page_size = \(Self.newFilePageSize)")
      try execute("PRAGMA cache_size = -\(configuration.cacheKiB)")
    }
    let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1_000)
    while true {
      do {
        try execute("PRAGMA journal_mode = WAL")
        return
      } catch let error as SQLiteError where error.isBusy && Date() < deadline {
        sqlite3_sleep(10)
      }
    }
  }

  /// Refuses a path that names a directory, FIFO, device or socket before SQLite opens it:
  /// opening a FIFO would block, and SQLite would create `-journal` files beside a device
  /// (`--db /dev/null` in /dev). A missing path and a symlink to a regular file pass.
  static func checkRegularFile(_ path: String) throws {
    var status = stat()
    guard stat(path, &status) == 0, let kind = OutputFile.nonRegularKind(status.st_mode) else {
      return
    }
    throw FileError.notADatabaseFile(path: path, kind: kind)
  }

  /// Creates the file (mode 0600) with its missing folders (0700) and returns what it made;
  /// nil when a file was there (or another process made it first).
  /// The database's `CreationLock` is held meanwhile, so that the same database another
  /// command is building (`NewDatabaseFile`) gets its name first. A WAL or rollback journal
  /// beside no database is refused: SQLite would delete it, and with it what it holds of a
  /// database moved or removed without it.
  private static func createPrivateFile(at path: String, busyTimeout: Int32) throws -> MadeFile? {
    guard !FileManager.default.fileExists(atPath: path) else { return nil }
    var folders: [String] = []
    let lock = try CreationLock(for: path, busyTimeout: busyTimeout, made: &folders)
    defer { withExtendedLifetime(lock) {} }
    try refuseStrayJournal(beside: path)
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST { return nil }
      throw FileError.cannotCreate(path: path, reason: FileError.describe(errno: errno))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return MadeFile(file: FileIdentity(status), folders: folders)
  }

  /// Refuses to make a database at `path`, where none is, beside its WAL or rollback journal
  /// (a database moved or removed without it): SQLite would delete the journal, or read it as
  /// the new database's. An empty one, as folio leaves the -wal when a command ends, holds
  /// nothing to lose.
  static func refuseStrayJournal(beside path: String) throws {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    for journal in [path + "-wal", path + "-journal"] {
      var status = stat()
      guard lstat(journal, &status) == 0, status.st_size > 0 else { continue }
      throw FileError.cannotCreate(
        path: path,
        reason:
          "\(journal) is there without its database (moved or removed without it?); put it "
          + "back beside its database, or remove it if it holds nothing you need")
    }
  }

  /// Creates the folder of `path` and any missing parent with mode 0700, adding each one made
  /// to `made`.
  static func createPrivateFolders(for path: String, made: inout [String]) throws {
    let folder = PathName.folder(of: path)
    if !folder.isEmpty { try createPrivateFolder(folder, for: path, made: &made) }
  }

  /// Creates `folder` and any missing parent with mode 0700, adding each one made to `made`.
  private static func createPrivateFolder(
    _ folder: String, for path: String, made: inout [String]
  ) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw FileError.cannotCreate(path: path, reason: "\(folder) is not a folder")
      }
      return
    }
    let parent = PathName.folder(of: folder)
    if !parent.isEmpty && parent != folder {
      try createPrivateFolder(parent, for: path, made: &made)
    }
    let code = mkdir(folder, 0o700) == 0 ? 0 : errno
    if code == 0 {
      made.append(folder)
    } else if code == EEXIST, !FileManager.default.fileExists(atPath: folder),
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder)
    {
      // Not another process's new folder: a symbolic link to nothing, which folio does not
      // follow to make a folder.
      throw FileError.cannotCreate(
        path: path, reason: "\(folder) is a symbolic link to \(target), which names no folder")
    } else if code != EEXIST {
      throw FileError.cannotCreate(
        path: path,
        reason: "cannot create the folder \(folder): \(FileError.describe(errno: code))")
    }
  }

  // MARK: - Running SQL

  /// Runs one or more SQL statements that return no rows.
  public func execute(_ sql: String) throws {
    try pending.flush()
    try executeAlone(sql)
  }

  /// Runs `sql` without writing the batched rows first (a rollback, which drops them).
  private func executeAlone(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw SQLiteError(connection: handle, code: code, sql: sql)
    }
  }

  /// Prepares a new statement.
  public func prepare(_ sql: String) throws -> Statement {
    try Statement(connection: handle, sql: sql, pending: pending)
  }

  /// Runs `body` while a second thread writes the full batches of this connection's
  /// `BatchedInsert`s (`PendingWrites.writingBehind`): on two cores, making rows and SQLite's
  /// writing of them overlap. Every other use of the connection waits until the writer is idle.
  /// A new file being built has the pages written meanwhile sent on to the disk as it goes,
  /// so that the sync of `publish` waits for the last of them only (7 ms instead of 17–20 for
  /// 100,000 trades).
  public func writingBehind<T>(_ body: () throws -> T) throws -> T {
    try pending.writingBehind(written: building.map { file in file.startWriteback }, body)
  }

  /// Prepares `insert` (`INSERT INTO table (columns…)`, without `VALUES`) to add rows of
  /// `columns` values in batches (`BatchedInsert`).
  public func prepareBatch(_ insert: String, columns: Int) throws -> BatchedInsert {
    try BatchedInsert(insert, columns: columns, connection: handle, pending: pending)
  }

  /// Prepares only the first statement of `sql` and returns it with the text after it
  /// (see https://sqlite.org/c3ref/prepare.html). The statement is nil when `sql` holds only
  /// whitespace and comments; whether `rest` holds another statement is the caller's question.
  public func prepareFirst(_ sql: String) throws -> (statement: Statement?, rest: String) {
    let bytes = Array(sql.utf8CString)
    return try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return (nil, "") }
      let end = buffer.count - 1  // the NUL terminator
      var statement: OpaquePointer?
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v2(handle, base, Int32(clamping: buffer.count), &statement, &tail)
      guard code == SQLITE_OK else {
        sqlite3_finalize(statement)
        throw SQLiteError(connection: handle, code: code, sql: sql)
      }
      let consumed = min(max(tail.map { base.distance(to: $0) } ?? end, 0), end)
      func text(_ range: Range<Int>) -> String {
        String(decoding: buffer[range].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      let rest = text(consumed..<end)
      guard let statement else { return (nil, rest) }
      return (
        Statement(
          prepared: statement, connection: handle, sql: text(0..<consumed), pending: pending),
        rest
      )
    }
  }

  /// Returns a prepared statement for `sql`, reusing the one prepared earlier on this connection.
  public func cached(_ sql: String) throws -> Statement {
    if let statement = statementCache[sql] {
      statement.reset()
      return statement
    }
    let statement = try prepare(sql)
    statementCache[sql] = statement
    return statement
  }

  /// Runs one statement with `values` bound.
  public func execute(_ sql: String, _ values: [any SQLBindable]) throws {
    try cached(sql).execute(values)
  }

  /// Runs a query and decodes each row.
  public func rows<T>(
    _ sql: String, _ values: [any SQLBindable] = [], _ decode: (Row) throws -> T
  ) throws -> [T] {
    try cached(sql).rows(values, decode)
  }

  /// Runs a query and decodes the first row, if any.
  public func row<T>(_ sql: String, _ values: [any SQLBindable] = [], _ decode: (Row) throws -> T)
    throws -> T?
  {
    let statement = try cached(sql)
    statement.reset()
    try statement.bind(values)
    defer { statement.reset() }
    return try statement.step() ? decode(Row(statement: statement)) : nil
  }

  /// The first column of the first row (nil when there is no row or it is NULL); another
  /// storage class than `T`'s throws.
  public func scalar<T: RowDecodable>(_ sql: String, _ values: [any SQLBindable] = []) throws
    -> T?
  {
    try row(sql, values) { try $0.value(at: 0, named: $0.statement.columnName(0)) as T? } ?? nil
  }

  /// The first column of the first row as an integer (nil when there is no row or it is NULL).
  public func scalarInt(_ sql: String, _ values: [any SQLBindable] = []) throws -> Int64? {
    try scalar(sql, values)
  }

  /// The first column of the first row as text (nil when there is no row or it is NULL).
  public func scalarText(_ sql: String, _ values: [any SQLBindable] = []) throws -> String? {
    try scalar(sql, values)
  }

  /// The rowid of the last row inserted on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// How many rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// True while a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  // MARK: - Transactions

  /// What a transaction body decides: keep its changes or undo them.
  public enum Completion: Sendable {
    case commit, rollback
  }

  /// How many transactions are open on this connection, counting savepoints.
  private var depth = 0

  /// Runs inside every outermost write transaction that commits, just before it does: the
  /// service layer keeps derived rows that SQL alone cannot recompute (the saved daily
  /// history) in step with the change, in the same transaction. An error rolls it all back.
  public var beforeCommit: (() throws -> Void)?

  /// Runs `body` in a write transaction and keeps or undoes its changes as `body` decides. At
  /// the outermost level it is a `BEGIN IMMEDIATE` transaction: the write lock is taken up
  /// front, waiting up to the busy timeout. It is refused, and rolled back, when the file was
  /// removed or replaced since the connection opened it (`FileError.moved`), checked when it
  /// begins and before it commits. Inside another transaction it is a savepoint
  /// (https://sqlite.org/lang_savepoint.html), whose rollback undoes only its own changes.
  /// An error rolls this level back and is rethrown: the first error, not one raised while
  /// rolling back.
  public func transaction<T>(_ body: () throws -> (T, Completion)) throws -> T {
    let savepoint = isInTransaction ? "folio_savepoint_\(depth)" : nil
    try execute(savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN IMMEDIATE")
    depth += 1
    defer {
      depth -= 1
      if depth == 0 { pending.transactionEnded() }
    }
    func undo() throws {
      // Entering a level wrote every batched row: those pending now were added in this one.
      pending.discard()
      if let savepoint {
        try executeAlone("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
      } else if isInTransaction {
        try executeAlone("ROLLBACK")
      }
    }
    do {
      if savepoint == nil { try refuseIfMoved() }
      let (result, completion) = try body()
      switch completion {
      case .commit:
        if let savepoint {
          try execute("RELEASE \(savepoint)")
        } else {
          // Again at the end: a file removed or replaced while the body ran (a long import)
          // would take the commit with it, or, replaced, get this one's WAL. The batch writer,
          // which uses the connection, is done first.
          try pending.flush()
          try beforeCommit?()
          try refuseIfMoved()
          try execute("COMMIT")
        }
      case .rollback:
        // A batched row that fails fails the transaction, even one rolled back.
        try pending.flush()
        try undo()
      }
      return result
    } catch {
      try? undo()
      throw error
    }
  }

  /// Throws `FileError.moved` when the file was removed, or another put at its path, since
  /// this connection opened it
  /// (https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html#sqlitefcntlhasmoved): what it
  /// wrote would be lost with the old file, which no path names any more.
  private func refuseIfMoved() throws {
    var moved: Int32 = 0
    if sqlite3_file_control(raw, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 {
      throw FileError.moved(path: path)
    }
  }

  /// Runs `body` in a write transaction (see `transaction`) that commits unless `body` throws.
  public func write<T>(_ body: () throws -> T) throws -> T {
    try transaction { (try body(), .commit) }
  }

  /// Runs `body` in a read transaction, so every query in it sees the same snapshot even
  /// while other processes commit (see https://sqlite.org/isolation.html). Inside a
  /// transaction already open on this connection, `body` simply runs in that one.
  public func read<T>(_ body: () throws -> T) throws -> T {
    if isInTransaction { return try body() }
    try execute("BEGIN DEFERRED")
    defer { if isInTransaction { try? execute("COMMIT") } }
    return try body()
  }

  // MARK: - Backup

  /// Copies the whole database to a new file at `destination` with SQLite's online backup API,
  /// which gives a consistent copy even while other connections write
  /// (see https://sqlite.org/backup.html). The copy is created with mode 0600.
  ///
  /// The pages go to `<destination>.partial-<pid>` first; only a complete copy, synced to disk,
  /// is then linked to `destination`, so a copy interrupted by a crash or a full disk never
  /// leaves a file at `destination` that looks like a backup. A failed copy is removed.
  public func backup(to destination: String) throws {
    guard !destination.isEmpty else {
      throw FileError.cannotWriteCopy(path: "''", reason: "the path is empty")
    }
    let target = (try? OutputFile.resolve(destination)) ?? destination
    guard !Database.files(of: path).contains(where: { PathName.namesSameEntry(target, $0) }) else {
      throw FileError.isTheDatabase(path: destination)
    }
    guard !FileManager.default.fileExists(atPath: destination) else {
      throw FileError.alreadyExists(destination)
    }
    Database.removeLeftovers(of: destination)
    let partial = "\(destination).partial-\(getpid())"
    do {
      Database.removeFiles(of: partial)
      try copy(to: partial)
      try Database.publish(partial, as: destination)
    } catch let error as SQLiteError where error.code == SQLITE_FULL || error.code == SQLITE_IOERR {
      // The copy's disk failed, not this database's: the message names the copy.
      Database.removeFiles(of: partial)
      throw FileError.cannotWriteCopy(
        path: destination,
        reason: error.code == SQLITE_FULL
          ? "the disk holding it is full" : "writing it failed (\(error.message))")
    } catch {
      Database.removeFiles(of: partial)
      throw error
    }
  }

  /// Writes the pages into a new file at `path` with a rollback journal (so no -wal file is
  /// left beside it); the connection to it is closed when this returns.
  private func copy(to path: String) throws {
    let target = try Database(
      path: path, Configuration(busyTimeout: busyTimeout, writeAheadLog: false))
    try pending.flush()
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw SQLiteError(connection: target.handle, code: sqlite3_errcode(target.handle))
    }
    let code = Database.step(backup, pages: -1, timeout: busyTimeout)
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else {
      throw SQLiteError(connection: target.handle, code: code)
    }
  }

  /// Runs `sqlite3_backup_step` until it returns something other than OK or, for up to
  /// `timeout` milliseconds, BUSY or LOCKED; returns that code.
  private static func step(_ backup: OpaquePointer, pages: Int32, timeout: Int32) -> Int32 {
    let deadline = Date().addingTimeInterval(Double(timeout) / 1_000)
    var code: Int32
    repeat {
      code = sqlite3_backup_step(backup, pages)
      if code == SQLITE_BUSY || code == SQLITE_LOCKED {
        guard Date() < deadline else { break }
        sqlite3_sleep(10)
      } else if pages >= 0 {
        break
      }
    } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
    return code
  }

  /// Replaces the whole content of this database with that of `source` in one write
  /// transaction, through SQLite's backup API writing into this connection
  /// (https://sqlite.org/backup.html): other connections, in this process or others, see either
  /// the old content or the new one, and a crash leaves the old one.
  ///
  /// `whileLocked` runs once this connection holds the write lock and before anything is
  /// copied, so it can keep the old content aside knowing nobody can change it meanwhile; when
  /// it throws, nothing is replaced. The page sizes must match when this file uses WAL.
  public func replaceContent(with source: Database, whileLocked: () throws -> Void) throws {
    try source.pending.flush()
    guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
      throw SQLiteError(connection: handle, code: sqlite3_errcode(handle))
    }
    var finished = false
    defer { if !finished { sqlite3_backup_finish(backup) } }
    // A step of zero pages takes the write lock on this database and copies nothing.
    var code = Database.step(backup, pages: 0, timeout: busyTimeout)
    guard code == SQLITE_OK || code == SQLITE_DONE else {
      throw SQLiteError(connection: handle, code: code)
    }
    try whileLocked()
    code = Database.step(backup, pages: -1, timeout: busyTimeout)
    finished = true
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else {
      throw SQLiteError(connection: handle, code: code)
    }
    statementCache.removeAll()
  }

  /// The size of a page of this database, in bytes.
  public var pageSize: Int64 {
    get throws { try scalarInt("PRAGMA page_size") ?? 0 }
  }

  // MARK: - Checks

  /// What `PRAGMA integrity_check` reports other than "ok"
  /// (https://sqlite.org/pragma.html#pragma_integrity_check).
  public func integrityProblems() throws -> [String] {
    try rows("PRAGMA integrity_check") { try $0["integrity_check"] as String }.filter { $0 != "ok" }
  }

  /// Runs `work` on a second connection to the same file, opened as this one was, on a second
  /// thread, while `body` runs on this connection (`concurrently`): a scan of the whole file
  /// (`PRAGMA integrity_check`) costs no time beside work that reads as long. Each side reads
  /// its own snapshot. When there is no second connection (an in-memory database; a second
  /// connection that cannot be opened, or runs out of memory, under a process's limits),
  /// `work` runs on this one, after `body`: what the two would do one after the other.
  public func onSecondConnection<Work: Sendable, Value>(
    _ work: @Sendable (Database) throws -> Work, while body: () throws -> Value
  ) -> (Result<Work, any Error>, Result<Value, any Error>) {
    guard path != ":memory:" else {
      let value = Result { try body() }
      return (Result { try work(self) }, value)
    }
    // With this one's settings, but the file opened read-write underneath even where this one
    // has it read-only (a -wal was there): on a read-only file SQLite does not parse the CHECK
    // constraints, so `PRAGMA integrity_check` would skip them. `query_only` still refuses
    // every write, and this connection, open until the second has closed, holds the file:
    // closing the second neither checkpoints the WAL nor removes it.
    let (path, configuration) = (self.path, self.configuration)
    let (second, value) = concurrently(
      { () -> Result<Work, any Error>? in
        guard let connection = try? Database(path: path, configuration, fileReadOnly: false)
        else { return nil }
        let outcome = Result { try work(connection) }
        if case .failure(let error as SQLiteError) = outcome, error.code == SQLITE_NOMEM {
          return nil
        }
        return outcome
      }, while: body)
    return ((try? second.get()).flatMap { $0 } ?? Result { try work(self) }, value)
  }

  /// The rows that refer to a missing row: their table, rowid (nil in a WITHOUT ROWID table)
  /// and the table referred to (https://sqlite.org/pragma.html#pragma_foreign_key_check).
  public func foreignKeyViolations() throws -> [(table: String, rowID: Int64?, parent: String)] {
    try rows("PRAGMA foreign_key_check") { (try $0["table"], try $0["rowid"], try $0["parent"]) }
  }

  /// The options that give the sqlite3 shell folio's settings: foreign keys on (the shell's
  /// default is off) and the same busy timeout.
  public static func shellSettings(busyTimeout: Int32) -> [String] {
    ["-cmd", "PRAGMA foreign_keys = ON", "-cmd", ".timeout \(busyTimeout)"]
  }

  /// Whether the database has a table named `name`.
  public func hasTable(_ name: String) throws -> Bool {
    try scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [name])
      == 1
  }

  /// Whether the table `name` has no row.
  public func isEmpty(table name: String) throws -> Bool {
    try scalarInt("SELECT EXISTS (SELECT 1 FROM \"\(name)\")") == 0
  }

  /// Rewrites the file with pages of `size` bytes: the page size of a WAL file cannot change,
  /// so the file goes back to a rollback journal first, then VACUUM rebuilds it.
  public func rebuild(pageSize size: Int64) throws {
    try execute("PRAGMA journal_mode = DELETE")
    try execute("PRAGMA page_size = \(size)")
    try execute("VACUUM")
  }

  /// Runs `body` with the CHECK constraints off
  /// (https://sqlite.org/pragma.html#pragma_ignore_check_constraints), for rows already checked.
  /// Nested, the inner call leaves them off.
  public func ignoringCheckConstraints<T>(_ body: () throws -> T) throws -> T {
    guard try scalarInt("PRAGMA ignore_check_constraints") == 0 else { return try body() }
    try execute("PRAGMA ignore_check_constraints = ON")
    pending.checksIgnored = true
    defer {
      // The body's batched rows are written first, with the checks still off; after a failed
      // write (`PendingWrites.failure`) they are gone and the checks go back on all the same.
      if (try? execute("PRAGMA ignore_check_constraints = OFF")) == nil {
        try? executeAlone("PRAGMA ignore_check_constraints = OFF")
      }
      pending.checksIgnored = false
    }
    return try body()
  }

  // MARK: - Files

  /// Links the finished file `partial` to `destination` without ever replacing an existing
  /// file, removes `partial`, and syncs the folder so the new name survives a power loss.
  /// The database's `CreationLock` is held meanwhile (waiting up to `busyTimeout`), so that
  /// the same database an import is building gets its name first.
  public static func publish(
    _ partial: String, as destination: String, busyTimeout: Int32 = defaultBusyTimeout
  ) throws {
    var made: [String] = []
    let lock = try CreationLock(for: destination, busyTimeout: busyTimeout, made: &made)
    defer { withExtendedLifetime(lock) {} }
    try refuseStrayJournal(beside: destination)
    try syncFile(partial)
    if link(partial, destination) == 0 {
      unlink(partial)
    } else if errno == EEXIST {
      throw FileError.alreadyExists(destination)
    } else {
      // A file system without hard links: rename, after checking the name is still free.
      guard !FileManager.default.fileExists(atPath: destination) else {
        throw FileError.alreadyExists(destination)
      }
      guard rename(partial, destination) == 0 else {
        throw FileError.cannotCreate(
          path: destination, reason: FileError.describe(errno: errno))
      }
    }
    syncFolder(of: destination)
  }

  /// Flushes a file's data to the disk (`fsync`).
  public static func syncFile(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileError.cannotCreate(
        path: path, reason: FileError.describe(errno: errno))
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw FileError.cannotCreate(
        path: path, reason: FileError.describe(errno: errno))
    }
  }

  /// Flushes the folder holding `path`, so a file created or renamed in it survives a power
  /// loss. Best effort: some file systems cannot sync a folder.
  public static func syncFolder(of path: String) {
    let folder = PathName.folder(of: path)
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// Removes what a folio process killed part-way left beside `path`: the copies
  /// `<path>.partial-<pid>`, `<path>.restore-<pid>` and `<path>.<name>.partial-<pid>` (a backup,
  /// a restore's scratch copy, the copy kept aside by a restore or before a migration), with
  /// their journal files and creation lock file (a copy is a new database, made under one),
  /// when process `<pid>` is no longer running, and, beside a database
  /// that exists, its creation lock file when no one holds it (`CreationLock.removeStale`). A
  /// copy still being written belongs to a live process and is left alone.
  public static func removeLeftovers(of path: String) {
    CreationLock.removeStale(of: path)
    let folder = PathName.folder(of: path)
    let prefix = PathName.name(of: path) + "."
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    var stale: Set<String> = []
    for name in names where name.hasPrefix(prefix) {
      var base = Substring(name)
      for suffix in ["-journal", "-wal", "-shm", ".creating"] where base.hasSuffix(suffix) {
        base = base.dropLast(suffix.count)
      }
      guard let dash = base.lastIndex(of: "-"),
        let pid = Int32(base[base.index(after: dash)...]), pid > 0
      else { continue }
      let kind = base[..<dash]
      guard kind.hasSuffix(".partial") || kind.hasSuffix(".restore") else { continue }
      // Signal 0 only asks whether the process exists (EPERM: it does, under another user).
      guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
      stale.insert(String(base))
    }
    for base in stale {
      let copy = folder.isEmpty ? base : folder + "/" + base
      removeFiles(of: copy)
      unlink(copy + ".creating")
    }
  }

  /// Removes a database file and the journal, WAL and shared-memory files beside it.
  public static func removeFiles(of path: String) {
    for suffix in sideSuffixes { unlink(path + suffix) }
  }

  /// The database file itself, then the journal, WAL and shared-memory files SQLite keeps
  /// beside it.
  private static let sideSuffixes = ["", "-wal", "-shm", "-journal"]

  /// The files no output may be written to while the database at `path` is in use: the file
  /// and the ones SQLite keeps beside it, whether they exist or not, beside `path` and beside
  /// the file a symbolic link at `path` names (where SQLite puts them).
  public static func files(of path: String) -> [String] {
    let real = (try? OutputFile.resolve(path)) ?? path
    return Set([path, real]).sorted().flatMap { base in sideSuffixes.map { base + $0 } }
  }
}
