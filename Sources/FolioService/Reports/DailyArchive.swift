import FolioStorage
import Foundation

/// Another `folio daily` holds the reports folder (75); nothing was done.
public struct DailyBusy: LocalizedError, ClassifiedError, Equatable {
  public let folder: String
  public var kind: FailureKind { .busy }
  public var errorDescription: String? {
    "another 'folio daily' is filing reports in \(folder); nothing was done (run it again "
      + "when that one has finished)"
  }
}

/// A portfolio whose name folio would not give (a database edited outside folio) cannot name
/// a report file: refused (65) before anything is written.
public struct DailyUnsafeName: LocalizedError, ClassifiedError, Equatable {
  public let name: String
  public var kind: FailureKind { .badData }
  public var errorDescription: String? {
    "portfolio '\(name)' has a name folio does not allow, so it cannot name a report file "
      + "(the database was edited outside folio); rename it with 'folio portfolio rename'"
  }
}

/// One portfolio on one day of the daily index.
public struct DailyIndexEntry: Equatable, Sendable {
  public let portfolio: Portfolio
  /// The saved value of the day; nil when none was saved or no holding was priced.
  public let value: ExactDecimal?
  /// The change in profit (unrealized plus realized) since the previous saved day: what the
  /// market gained less fees; buying and selling does not count as change.
  public let change: ExactDecimal?
  /// `change` in percent of the previous saved value.
  public let changePercent: ExactDecimal?
  /// The names of the portfolio's files in the day's folder.
  public let files: [String]
}

/// The figures of `DIR/index.html`: the dated folders, newest first, and the saved history
/// of each portfolio filed in any of them.
public struct DailyIndex: Equatable, Sendable {
  public let days: [(day: String, entries: [DailyIndexEntry])]
  /// Each portfolio's saved days, oldest first, for its chart.
  public let history: [(portfolio: Portfolio, rows: [DailyRecord])]

  public static func == (a: DailyIndex, b: DailyIndex) -> Bool {
    a.days.elementsEqual(b.days) { $0.day == $1.day && $0.entries == $1.entries }
      && a.history.elementsEqual(b.history) { $0.portfolio == $1.portfolio && $0.rows == $1.rows }
  }
}

/// The folder `folio daily` files reports in: one folder per UTC day named `YYYY-MM-DD`,
/// holding `<portfolio>.<ext>`, and `index.html`. Only the `<portfolio>.<ext>` files (and
/// Folio's stale temporary files) of expired dated folders are ever removed.
public struct DailyArchive {
  public let path: String

  public init(path: String) { self.path = path }

  /// The extensions of the files Folio writes into a dated folder.
  public static let extensions = ["html", "md", "json", "csv", "txt"]

  /// `$XDG_STATE_HOME/folio/reports` (an absolute XDG_STATE_HOME only, as the XDG base
  /// directory specification says), else `$HOME/.local/state/folio/reports`; nil without HOME.
  public static func defaultPath(environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/folio/reports"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.local/state/folio/reports"
  }

  /// The portfolios a run files: every one for nil or `all`, else the one named. A name
  /// outside folio's rule for names (letters, digits, '.', '_', '-'), which only a database
  /// edited outside folio holds, is refused: it could name a path outside the folder.
  public static func portfolios(_ store: Store, named name: String?) throws -> [Portfolio] {
    let portfolios =
      if let name, name != "all" {
        [try PortfolioService(store).resolve(name)]
      } else {
        try Portfolio.all(store.database)
      }
    for portfolio in portfolios where (try? PortfolioService.validate(name: portfolio.name)) == nil
    {
      throw DailyUnsafeName(name: portfolio.name)
    }
    return portfolios
  }

  /// The folder of `day`.
  public func folder(_ day: CalendarDay) -> String { path + "/" + day.description }

  /// Creates the folder (with its parents, mode 0700) when missing and takes its lock: an
  /// exclusive `flock` on `.folio-daily.lock` inside it, held until the descriptor returned
  /// is closed or the process ends (so a killed run never leaves it taken). Another run
  /// holding it: `DailyBusy` (75).
  public func lock() throws -> Int32 {
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw FileError.cannotWrite(path: path, reason: Self.notAFolder(path) ?? Self.reason(error))
    }
    let descriptor = open(path + "/.folio-daily.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FileError.cannotWrite(path: path, reason: FileError.describe(errno: errno))
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(descriptor)
      if code == EWOULDBLOCK { throw DailyBusy(folder: path) }
      throw FileError.cannotWrite(path: path, reason: FileError.describe(errno: code))
    }
    return descriptor
  }

  /// Creates the folder of `day` (mode 0700) when missing.
  public func makeFolder(_ day: CalendarDay) throws {
    do {
      try FileManager.default.createDirectory(
        atPath: folder(day), withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
    } catch CocoaError.fileWriteFileExists {
      // Kept as it is, and refused unless it is a folder (or a link to one).
      var status = stat()
      guard stat(folder(day), &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        throw FileError.cannotWrite(
          path: folder(day), reason: "it is not a folder; move it away and run again")
      }
    } catch {
      throw FileError.cannotWrite(path: folder(day), reason: Self.reason(error))
    }
  }

  /// The dated folders (named as Folio names them, folders or links to folders, as
  /// `makeFolder` accepts), newest first, with the names of the entries found in each.
  public func days() throws -> [(day: CalendarDay, files: [String])] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.compactMap { name -> (CalendarDay, [String])? in
      guard let day = CalendarDay(name), day.description == name,
        isFolder(folder(day), following: true)
      else {
        return nil
      }
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder(day))) ?? []
      return (day, files.sorted())
    }.sorted { $0.0 > $1.0 }
  }

  /// The days of `days` that `--keep-days keep` removes on `today`: those before the last
  /// `keep` days up to today (so `1` keeps today only). Later days are kept.
  public static func expired(_ days: [CalendarDay], keep: Int, today: CalendarDay)
    -> [CalendarDay]
  {
    days.filter { $0 <= today.adding(days: -max(1, keep)) }
  }

  /// `--keep-days keep`: removes what Folio wrote in the dated folders before the last `keep`
  /// days (see `remove`), the files of every portfolio of `store`. Returns the days whose
  /// folder was kept: one holding something else, or a link (nothing is removed through one).
  public func removeExpired(keep: Int, today: CalendarDay, _ store: Store) throws
    -> [(day: CalendarDay, isLink: Bool)]
  {
    let names = try Portfolio.all(store.database).map(\.name)
    var kept: [(day: CalendarDay, isLink: Bool)] = []
    for day in Self.expired(try days().map(\.day), keep: keep, today: today) {
      if !isFolder(folder(day)) {
        kept.append((day, true))
      } else if try !remove(
        day, portfolios: names, keeping: Database.files(of: store.database.path))
      {
        kept.append((day, false))
      }
    }
    return kept
  }

  /// Removes what Folio wrote in the folder of `day`: the regular files named
  /// `<portfolio>.<ext>` for one of `portfolios` and one of Folio's formats, and the temporary
  /// files (`.folio-<pid>-<n>.tmp`) a killed write left; then the folder itself if that left
  /// it empty. Anything else (a user's notes, a link, a folder) stays, and so does the folder:
  /// returns false then. The files of `keeping` (the database in use and its journals) are
  /// never removed, whatever their names.
  public func remove(_ day: CalendarDay, portfolios: [String], keeping: [String] = []) throws
    -> Bool
  {
    let dated = folder(day)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: dated)) ?? []
    where Self.isTemporary(name) || portfolios.contains(where: { Self.named(name, $0 + ".") }) {
      if keeping.contains(where: { PathName.namesSameEntry(dated + "/" + name, $0) }) { continue }
      var status = stat()
      guard lstat(dated + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        continue
      }
      guard unlink(dated + "/" + name) == 0 else {
        throw FileError.cannotWrite(path: dated, reason: FileError.describe(errno: errno))
      }
    }
    return rmdir(dated) == 0
  }

  /// The index of the dated folders: each portfolio with files in any of them, its saved
  /// value and change on each of those days, and its saved history.
  public func index(_ store: Store) throws -> DailyIndex {
    let days = try days()
    var columns: [(portfolio: Portfolio, rows: [DailyRecord], byDay: [String: DailyIndexEntry])] =
      []
    for portfolio in try Portfolio.all(store.database) {
      let prefix = portfolio.name + "."
      guard days.contains(where: { $0.files.contains(where: { Self.named($0, prefix) }) }) else {
        continue
      }
      let rows = try DailyRecord.list(
        portfolioID: portfolio.id, from: nil, through: nil, store.database)
      var byDay: [String: DailyIndexEntry] = [:]
      var previous: DailyRecord?
      for row in rows {
        var change: ExactDecimal?
        var percent: ExactDecimal?
        if let before = previous, let profit = Self.profit(row), let earlier = Self.profit(before) {
          change = try? profit - earlier
          if let change, let value = before.value, value.isPositive {
            percent = try? ExactDecimal.scaled(change, by: .hundred, dividedBy: value)
          }
        }
        byDay[row.day] = DailyIndexEntry(
          portfolio: portfolio, value: row.value, change: change, changePercent: percent,
          files: [])
        previous = row
      }
      columns.append((portfolio, rows, byDay))
    }
    return DailyIndex(
      days: days.map { day, files in
        (
          day.description,
          columns.compactMap { column in
            let prefix = column.portfolio.name + "."
            let own = files.filter { Self.named($0, prefix) }
            guard !own.isEmpty else { return nil }
            let saved = column.byDay[day.description]
            return DailyIndexEntry(
              portfolio: column.portfolio, value: saved?.value, change: saved?.change,
              changePercent: saved?.changePercent, files: own)
          }
        )
      }, history: columns.map { ($0.portfolio, $0.rows) })
  }

  // MARK: Internals

  /// Unrealized plus realized profit of a saved day; nil when either is unknown.
  static func profit(_ row: DailyRecord) -> ExactDecimal? {
    guard let unrealized = row.unrealized, let realized = row.realized else { return nil }
    return try? unrealized + realized
  }

  /// True for `<prefix><ext>` with one of the extensions Folio writes.
  static func named(_ name: String, _ prefix: String) -> Bool {
    name.hasPrefix(prefix) && extensions.contains(String(name.dropFirst(prefix.count)))
  }

  /// True for the name of the temporary file of Folio's output-file writer:
  /// `.folio-<pid>-<n>.tmp`, digits only between.
  static func isTemporary(_ name: String) -> Bool {
    guard name.hasPrefix(".folio-"), name.hasSuffix(".tmp") else { return false }
    let middle = name.dropFirst(".folio-".count).dropLast(".tmp".count).split(
      separator: "-", omittingEmptySubsequences: false)
    return middle.count == 2
      && middle.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
  }

  /// Whether `path` is a folder; with `following`, a symbolic link to one counts too.
  func isFolder(_ path: String, following: Bool = false) -> Bool {
    var status = stat()
    let found = following ? stat(path, &status) : lstat(path, &status)
    return found == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// "X is not a folder" when `path`, or the nearest part of it that exists, is something
  /// other than a folder (a file where the reports folder, or one of its parents, should be).
  static func notAFolder(_ path: String) -> String? {
    var candidate = path
    while !candidate.isEmpty {
      var status = stat()
      if stat(candidate, &status) == 0 {
        return status.st_mode & S_IFMT == S_IFDIR ? nil : "\(candidate) is not a folder"
      }
      guard let slash = candidate.lastIndex(of: "/") else { return nil }
      candidate = String(candidate[..<slash])
    }
    return nil
  }

  static func reason(_ error: any Error) -> String {
    SystemErrorText.words(error)
  }
}
