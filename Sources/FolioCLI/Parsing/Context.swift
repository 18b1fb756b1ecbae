import FolioService
import FolioStorage
import Foundation

/// Where a command writes text: the terminal's stdout/stderr, or a buffer in tests.
protocol TextSink: AnyObject {
  func write(_ text: String)
  /// Writes out anything buffered (before the process is replaced, for example).
  func flush()
  /// True once a write has failed (a closed pipe, a full disk): nothing more gets through.
  var failed: Bool { get }
}

extension TextSink {
  var failed: Bool { false }
}

/// stdout, stderr and `--out` files are written through storage's `DescriptorWriter`
/// (`write(2)`, never a trap; a failure is kept and mapped to exit 74 by `FolioCLI.main`).
extension DescriptorWriter: TextSink {
  var failed: Bool { failure != nil }
}

/// Thrown by a listing whose output can no longer be written (`folio tx list | head`): it stops
/// reading instead of formatting rows nobody will see. Nothing is written to the database by
/// a listing, and the exit code is the failed write's (74, quiet for a closed pipe).
struct OutputFailed: Error {}

/// Collects output in memory, for in-process tests.
final class StringSink: TextSink {
  private(set) var text = ""
  func write(_ text: String) { self.text += text }
  func flush() {}
}

/// What a running command may use: output streams, the environment, the clock and the store.
///
/// Not `Sendable`: one command runs at a time on one thread.
final class Context {
  let out: TextSink
  let err: TextSink
  let environment: [String: String]
  let globals: GlobalOptions
  /// The current time; fixed in tests.
  let now: Date
  /// True when stdout is a terminal (colour and progress are allowed).
  let stdoutIsTerminal: Bool
  /// True when stderr is a terminal (progress bars are allowed).
  let stderrIsTerminal: Bool
  /// True when the command writes records and so may create a missing database.
  let createsDatabase: Bool
  /// The columns text output fits (`TextLayout.width`): tables drop or shorten columns and
  /// prose lines wrap to it.
  let width: Int
  private var openStore: Store?
  /// The database a command uses when it is not the one `--db` names (a dry run's temporary
  /// one, `demo`'s): messages about the file name it.
  var databaseInUse: String?

  init(
    out: TextSink, err: TextSink, environment: [String: String], globals: GlobalOptions,
    now: Date, createsDatabase: Bool = false, width: Int = 80, stdoutIsTerminal: Bool = false,
    stderrIsTerminal: Bool = false
  ) {
    self.createsDatabase = createsDatabase
    self.width = width
    self.out = out
    self.err = err
    self.environment = environment
    self.globals = globals
    self.now = now
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
  }

  /// Whether text output is coloured: `--color always` or `never` decides; otherwise (auto)
  /// only on a terminal, never when NO_COLOR is set (to anything but the empty string) or
  /// TERM is `dumb`.
  var useColor: Bool {
    switch globals.color ?? .auto {
    case .always: return true
    case .never: return false
    case .auto:
      return stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        && environment["TERM"] != "dumb"
    }
  }

  /// Where the database is, from `--db`, the environment or the default.
  func location() throws -> StoreLocation {
    try StoreLocation.resolve(option: globals.database, environment: environment)
  }

  /// Writes a file the user named with `--out` through the one output-file writer, which
  /// never replaces the database in use or its journal files.
  func writeOutput(to path: String, _ body: (DescriptorWriter) throws -> Void) throws {
    try OutputFile.write(to: path, protecting: databaseFiles, body)
  }

  /// Throws what `writeOutput(to:_:)` would throw before writing anything to `path`.
  func checkOutput(_ path: String) throws {
    try OutputFile.check(path, protecting: databaseFiles)
  }

  /// The database and its side files, which no output may replace.
  private var databaseFiles: [String] {
    (try? location().path).map(Database.files(of:)) ?? []
  }

  /// The database, opened (migrated if needed) on first use; created when missing only for a
  /// command that writes (`createsDatabase`), else a missing file is "no database at PATH".
  func store() throws -> Store {
    if let openStore { return openStore }
    return try opened(Store(try location(), mustExist: !createsDatabase, now: now))
  }

  /// Runs `body` with the store a command writes to, `store()`. A dry run changes nothing, not
  /// even the schema: an existing file with pending migrations is refused ("run 'folio db
  /// migrate' first") instead of upgraded, and without a database the dry run looks at a new,
  /// empty one in a temporary folder, removed after, so that it creates none.
  /// A refused import into a database it created leaves no new file behind
  /// (`removingNewDatabase`).
  func withStore<T>(dryRun: Bool, _ body: (Store) throws -> T) throws -> T {
    guard dryRun, openStore == nil else { return try buildingNewDatabase(body) }
    let location = try location()
    guard FileManager.default.fileExists(atPath: location.path) else {
      return try withScratchStore { try body(store()) }
    }
    _ = try Store(readOnly: location)
    return try body(store())
  }

  /// The database, which must already exist; migrated if needed.
  func existingStore() throws -> Store {
    if let openStore { return openStore }
    return try opened(Store(try location(), mustExist: true, now: now))
  }

  /// The existing database opened read-only and as it is (not migrated), for commands that
  /// only look at or copy the file.
  func inspectedStore() throws -> Store {
    if let openStore { return openStore }
    return opened(try Store(readOnly: try location(), requireCurrentSchema: false))
  }

  /// The existing database opened read-only, so SQLite refuses every write on the connection.
  /// A file with pending migrations is migrated first (as any command would), then reopened.
  func readOnlyStore() throws -> Store {
    let location = try location()
    let inspected = try Store(readOnly: location, requireCurrentSchema: false)
    guard try !inspected.isCurrent() else { return opened(inspected) }
    _ = opened(try Store(location, mustExist: true, now: now))
    openStore = nil
    return opened(try Store(readOnly: location))
  }

  /// Runs `body` with `store()` a new database in a temporary folder, removed after.
  private func withScratchStore<T>(_ body: () throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-scratch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    defer {
      openStore = nil
      try? FileManager.default.removeItem(at: folder)
    }
    let path = folder.appendingPathComponent("folio.sqlite3").path
    databaseInUse = path
    openStore = try Store(StoreLocation(path: path), now: now)
    let result = try body()
    databaseInUse = nil
    return result
  }

  /// Runs `body` (an import) on a database that does not exist yet in a new file with no name
  /// (`NewDatabaseFile`), which is given the database's name once `body` has succeeded and the
  /// store is closed: no one sees a part of it, and a refused import leaves nothing behind.
  /// Where the database exists, or the system cannot build such a file (or open it: then
  /// `body` has not run), `body` runs on the database at its path (`removingNewDatabase`).
  private func buildingNewDatabase<T>(_ body: (Store) throws -> T) throws -> T {
    if openStore == nil,
      let result = try Store.building(
        try location(), now: now,
        { store in
          defer { openStore = nil }
          return try body(opened(store))
        })
    {
      return result
    }
    return try removingNewDatabase { try body(store()) }
  }

  /// Runs `body` (an import); when it fails after this command made a database no one has
  /// used, the database is undone, so a refused import leaves no new file: a file it created
  /// is removed with the folders made for it, and an empty file it found (as `touch` leaves
  /// it) is emptied again. Only when nothing else can be using it: it holds no one's records,
  /// settings or coin list, the path still names the same file (device and inode), and closing
  /// this command's connection removed the WAL and shared-memory files, which SQLite does
  /// (`Database.removeLogOnClose`) only when no other connection has the database open.
  private func removingNewDatabase<T>(onFailureOf body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      // What to undo, read before the store is let go (a reference held here would keep the
      // connection open past `openStore = nil`).
      let undo: (path: String, file: FileIdentity, made: Database.MadeFile?)? =
        openStore.flatMap { store in
          guard let file = store.database.made?.file ?? store.foundEmpty,
            (try? Migrator.holdsOnlyMigratedRows(store.database)) == true
          else { return nil }
          store.database.removeLogOnClose()
          return (store.database.path, file, store.database.made)
        }
      guard let undo else { throw error }
      openStore = nil
      let path = undo.path
      guard undo.file.isAt(path),
        !FileManager.default.fileExists(atPath: path + "-wal"),
        !FileManager.default.fileExists(atPath: path + "-shm")
      else { throw error }
      if let made = undo.made {
        unlink(path)
        unlink(path + "-journal")
        for folder in made.folders.reversed() { rmdir(folder) }
      } else {
        truncate(path, 0)
      }
      throw error
    }
  }

  /// Closes the store opened for this command, if no one else holds it (before `exec`).
  func releaseStore() {
    openStore = nil
  }

  private func opened(_ store: Store) -> Store {
    if let backup = store.migration.backupPath {
      err.write(
        "folio: note: upgraded the database schema; the previous file was saved as \(backup)\n")
    }
    openStore = store
    return store
  }

  /// Writes a line to stdout as it is (JSON, a table already fitted, an id).
  func print(_ line: String = "") { out.write(line + "\n") }

  /// Writes prose to stdout wrapped to `width`; a continuation line starts with `indent`
  /// spaces more than the line it continues.
  func say(_ text: String, indent: Int = 2) {
    out.write(TextLayout.wrap(text, width: width, indent: indent) + "\n")
  }

  /// Throws `OutputFailed` once stdout can no longer be written: a listing calls it per row.
  func stopIfOutputFailed() throws { if out.failed { throw OutputFailed() } }

  /// Writes a warning line to stderr.
  func warn(_ message: String) { err.write("folio: warning: \(FolioCLI.oneLine(message))\n") }

  /// Writes a note line to stderr: something the user should know that is not a problem.
  func note(_ message: String) { err.write("folio: note: \(FolioCLI.oneLine(message))\n") }
}

extension Context {
  /// The portfolio named by `--portfolio`, else `FOLIO_PORTFOLIO`, else the default one.
  func portfolio() throws -> Portfolio {
    let name = globals.portfolio ?? environment["FOLIO_PORTFOLIO"]
    return try PortfolioService(store()).resolve(name)
  }

  /// The portfolios to use: every one for `--portfolio all` (of one currency unless
  /// `oneCurrency` is false), else the one `portfolio()` gives.
  func portfolios(oneCurrency: Bool = true) throws -> [Portfolio] {
    let name = globals.portfolio ?? environment["FOLIO_PORTFOLIO"]
    return try PortfolioService(store()).resolveMany(name, oneCurrency: oneCurrency)
  }
}

extension Context {
  /// The id of the coin `text` names for a command that may name a coin the directory does
  /// not know yet; a note on stderr says which coin an ambiguous symbol chose.
  func resolve(_ text: String, in store: Store) throws -> String {
    let coin = try CoinDirectory(store).resolve(text, unknown: .accept)
    if let text = coin.note { note(text) }
    return coin.id
  }
}
