import FolioStorage
import Foundation

/// The version of Folio, printed by `folio --version` and sent in the User-Agent.
public let folioVersion = "0.1.0"

/// Where the database lives and how to reach it, resolved from options and the environment.
public struct StoreLocation: Sendable, Equatable {
  /// The database file.
  public let path: String
  /// How long a writer waits for the lock, in milliseconds.
  public let busyTimeout: Int32

  public init(path: String, busyTimeout: Int32 = Database.defaultBusyTimeout) {
    self.path = path
    self.busyTimeout = busyTimeout
  }

  /// Resolves the database path: `--db`, else `FOLIO_DB`, else `$XDG_DATA_HOME/folio/folio.sqlite3`
  /// (an absolute XDG_DATA_HOME), else `$HOME/.local/share/folio/folio.sqlite3`; an empty or
  /// missing HOME is refused (64) rather than read as the root folder.
  /// `FOLIO_BUSY_TIMEOUT_MS` sets the busy timeout.
  public static func resolve(option: String?, environment: [String: String]) throws -> StoreLocation
  {
    let timeout: Int32
    if let text = environment["FOLIO_BUSY_TIMEOUT_MS"], !text.isEmpty {
      guard let value = Int32(text), value >= 0 else {
        throw SettingError.invalid(
          name: "FOLIO_BUSY_TIMEOUT_MS", value: text, expected: "a whole number of milliseconds")
      }
      timeout = value
    } else {
      timeout = Database.defaultBusyTimeout
    }
    if let option, !option.isEmpty { return StoreLocation(path: option, busyTimeout: timeout) }
    if let path = environment["FOLIO_DB"], !path.isEmpty {
      return StoreLocation(path: path, busyTimeout: timeout)
    }
    let base: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      base = xdg
    } else {
      guard let home = environment["HOME"], !home.isEmpty else { throw SettingError.noHome }
      base = home + "/.local/share"
    }
    return StoreLocation(path: base + "/folio/folio.sqlite3", busyTimeout: timeout)
  }
}

/// A setting from the environment or an option that cannot be used.
public enum SettingError: LocalizedError, ClassifiedError, Equatable {
  case invalid(name: String, value: String, expected: String)
  /// No database was named and HOME, which the default place is under, is empty or not set.
  case noHome

  public var kind: FailureKind {
    switch self {
    case .invalid: .badData
    case .noHome: .malformed
    }
  }
  public var errorDescription: String? {
    switch self {
    case .invalid(let name, let value, let expected):
      return "\(name) is '\(value)', expected \(expected)"
    case .noHome:
      return "HOME is not set, so the database has no default place; name it with --db PATH "
        + "or FOLIO_DB (or set HOME or XDG_DATA_HOME)"
    }
  }
}

/// An open Folio database, migrated to the schema this binary carries.
///
/// Not `Sendable`: it owns a `Database` connection.
public final class Store {
  /// The connection, for the services.
  public let database: Database
  /// What opening did to the schema (migrations applied, backup written).
  public let migration: Migrator.Outcome
  /// The file, when it was empty (as `touch` leaves it) before this store made it a database.
  public let foundEmpty: FileIdentity?

  /// Opens the database at `location`, creating and migrating it as needed.
  /// With `mustExist`, a missing file is an error instead of a new database.
  ///
  /// An existing file is first inspected through a read-only connection, so a file that is
  /// not a database, was written by a newer folio or whose migration history was altered is
  /// refused before anything (not even the switch to WAL) writes to it.
  public init(_ location: StoreLocation, mustExist: Bool = false, now: Date = Date()) throws {
    let exists = FileManager.default.fileExists(atPath: location.path)
    if mustExist && !exists { throw Self.missingDatabase(location.path) }
    // A reader never makes a database, not even of an empty file (SQLite reads one as a
    // database without tables, and migrating would write the schema into it).
    foundEmpty = Self.isEmptyFile(location.path) ? FileIdentity(at: location.path) : nil
    if mustExist && foundEmpty != nil { throw StoreError.emptyFile(location.path) }
    let migrator = try Migrator()
    database = try Self.open(location, mode: .readWriteCreate, writeAheadLog: false)
    Database.removeLeftovers(of: location.path)
    if exists { _ = try migrator.status(of: database) }
    try database.enableWriteAheadLog()
    migration = try migrator.migrate(database, now: now, completing: Self.completeMigration)
    try CoinDirectory.addBuiltInList(database)
    keepDailyHistoryCurrent()
  }

  /// Runs `body` on the database at `location`, which does not exist yet, built in a new file
  /// with no name (`NewDatabaseFile`) that gets its name once `body` has succeeded and the
  /// store is closed: no one sees a part of it, and a failed `body` leaves nothing behind. Nil,
  /// without running `body`, when the database exists or the system cannot build or open such
  /// a file: the caller opens `location` as usual.
  public static func building<T>(
    _ location: StoreLocation, now: Date, _ body: (Store) throws -> T
  ) throws -> T? {
    guard let file = try NewDatabaseFile(path: location.path, busyTimeout: location.busyTimeout)
    else { return nil }
    // The store is let go, and its connection closed, when this returns: before `publish`.
    func run() throws -> T? {
      guard let store = try? Store(building: file, location, now: now) else { return nil }
      return try body(store)
    }
    guard let result = try run() else { return nil }
    try file.publish()
    return result
  }

  /// Opens the new database `file`, migrated as a new file at `location` would be
  /// (`building`).
  private init(building file: NewDatabaseFile, _ location: StoreLocation, now: Date) throws {
    foundEmpty = nil
    database = try Database(
      building: file, .init(mode: .readWriteCreate, busyTimeout: location.busyTimeout))
    migration = try Migrator().migrate(database, now: now, completing: Self.completeMigration)
    try CoinDirectory.addBuiltInList(database)
    keepDailyHistoryCurrent()
  }

  /// Saved days that a change makes stale (the triggers of `portfolio_daily` mark them) are
  /// recomputed in the transaction of that change, before it commits: a back-dated trade never
  /// leaves the saved history, and the returns worked out from it, as they were.
  private func keepDailyHistoryCurrent() {
    // Weak: the store owns the connection that holds this.
    database.beforeCommit = { [weak self] in
      guard let self else { return }
      try ReportService(self).refreshStaleDays(now: Date())
    }
  }

  /// True when the regular file at `path` holds no byte and no WAL beside it holds any either
  /// (a new database can be all in its WAL until the first checkpoint).
  static func isEmptyFile(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0
    else { return false }
    return stat(path + "-wal", &status) != 0 || status.st_size == 0
  }

  /// What the migrations leave to folio, inside their transaction: the `position_days` rows of
  /// a database that has trades but was written before that table.
  static func completeMigration(_ database: Database) throws {
    try Ledger(database).writeMissingDays()
  }

  /// Opens an existing database read-only: SQLite itself refuses every write on it.
  /// With `requireCurrentSchema`, a schema with pending migrations is an error; without it
  /// the file is opened as it is, for commands that only inspect or copy it.
  public init(readOnly location: StoreLocation, requireCurrentSchema: Bool = true) throws {
    guard FileManager.default.fileExists(atPath: location.path) else {
      throw Self.missingDatabase(location.path)
    }
    // An empty file is no database: nothing to inspect or copy.
    if Self.isEmptyFile(location.path) { throw StoreError.emptyFile(location.path) }
    foundEmpty = nil
    database = try Self.open(location, mode: .readOnly)
    Database.removeLeftovers(of: location.path)
    migration = Migrator.Outcome(applied: [], backupPath: nil)
    guard requireCurrentSchema else { return }
    let status = try Migrator().status(of: database)
    if !status.pending.isEmpty {
      throw StoreError.cannotOpen(
        path: location.path,
        reason: "its schema is at version \(status.version); run 'folio db migrate' first")
    }
  }

  /// True when the file's schema is the latest this folio knows (no pending migrations).
  public func isCurrent() throws -> Bool {
    try Migrator().status(of: database).pending.isEmpty
  }

  /// Opens a connection, turning SQLite's "cannot open" and "not a database" into
  /// messages about the file.
  private static func open(
    _ location: StoreLocation, mode: Database.Mode, writeAheadLog: Bool = true
  ) throws -> Database {
    do {
      return try Database(
        path: location.path,
        .init(mode: mode, busyTimeout: location.busyTimeout, writeAheadLog: writeAheadLog))
    } catch let error as SQLiteError {
      switch error.category {
      case .cannotOpen:
        throw StoreError.cannotOpen(
          path: location.path, reason: cannotOpenReason(location.path, error.message))
      case .damaged: throw StoreError.notADatabase(location.path)
      default: throw error
      }
    }
  }

  /// Why SQLite could not open an existing file, when the folder or the file says more than
  /// SQLite's "unable to open database file".
  private static func cannotOpenReason(_ path: String, _ message: String) -> String {
    let folder = PathName.folder(of: path)
    let name = PathName.name(of: path)
    if FileManager.default.fileExists(atPath: path)
      && access(folder.isEmpty ? "." : folder, W_OK) != 0
    {
      return
        "its folder is not writable, and SQLite needs to create \(name)-wal and \(name)-shm "
        + "beside it (\(message)); make the folder writable or copy the file elsewhere"
    }
    if FileManager.default.fileExists(atPath: path) && access(path, R_OK) != 0 {
      return "the file cannot be read (\(message)); check its permissions"
    }
    if let link = brokenLink(path) {
      return link.namesNoFile
        ? "it is \(link.description), and folio creates no file through a link; create that "
          + "file first (an empty one will do) or give its path"
        : "it is \(link.description)"
    }
    return message
  }

  /// "no database at PATH", or, when PATH or a missing folder on the way to it is a symbolic
  /// link that leads to no file, what the link is.
  static func missingDatabase(_ path: String) -> StoreError {
    if let link = brokenLink(path) {
      return .brokenLink(path: path, reason: "it is \(link.description)")
    }
    var folder = PathName.folder(of: path)
    while !folder.isEmpty && folder != "/" && !FileManager.default.fileExists(atPath: folder) {
      if let link = brokenLink(folder) {
        return .brokenLink(path: path, reason: "its folder \(folder) is \(link.description)")
      }
      folder = PathName.folder(of: folder)
    }
    return .missingDatabase(path)
  }

  /// What the symbolic link at `path` is, when it leads to no file the system can reach: "a
  /// symbolic link to END, which names no file", END being the last name of the chain of
  /// links (a relative one shown from its link's folder); or why the system does not follow it
  /// (a loop or more than 40 links, a folder it may not enter). Nil for anything else.
  private static func brokenLink(_ path: String) -> (description: String, namesNoFile: Bool)? {
    guard let first = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
      return nil
    }
    var status = stat()
    guard stat(path, &status) != 0 else { return nil }
    let failure = errno
    if failure == ELOOP {
      return (
        "a symbolic link that leads back to itself or through more than 40 links (the first to "
          + "\(first))", false
      )
    }
    var end = path
    for _ in 0..<40 {
      guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: end) else {
        break
      }
      let folder = PathName.folder(of: end)
      end = next.hasPrefix("/") || folder.isEmpty ? next : folder + "/" + next
    }
    guard failure == ENOENT else {
      return (
        "a symbolic link to \(end), which cannot be reached (\(FileError.describe(errno: failure)))",
        false
      )
    }
    return ("a symbolic link to \(end), which names no file", true)
  }
}
