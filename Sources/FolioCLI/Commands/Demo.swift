import FolioService
import FolioStorage
import Foundation

/// `folio demo`: builds a demo database and prints today's report from it.
struct Demo: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract: "Build a demo database from the built-in fixtures and print today's report.",
    discussion: """
      Creates a new database (with --db, that file, which must not exist yet; else a fresh
      file in the system temporary folder, never $FOLIO_DB or your own database) holding the
      five sample locations, 120 days of made-up daily market snapshots ending with the
      fixture prices (taken now), four months of trades in two portfolios ('main', fifo, and
      'savings', average cost) with fees, sells, locations and a back-dated trade, and the
      saved daily history of both. Then prints today's report of 'main'. Works offline and
      from any folder: the fixtures are built into the binary. Exit codes: 0 ok, 74 the file
      exists or cannot be created.
      """)

  func run(_ context: Context) throws {
    let path = context.globals.database ?? DemoBuilder.defaultPath(now: context.now)
    context.databaseInUse = path
    let busyTimeout = try context.location().busyTimeout
    let (outcome, report) = try DemoBuilder.create(
      at: StoreLocation(path: path, busyTimeout: busyTimeout), now: context.now)
    // The path whole on its line, to copy.
    context.print("Demo database: \(path)")
    let portfolios = outcome.portfolios.map { "'\($0.name)' (\($0.trades) trades)" }
    let days = Set(outcome.historyDays)
    let history =
      days.count == 1
      ? "\(days.first ?? 0) days × \(outcome.historyDays.count) portfolios"
      : zip(outcome.portfolios, outcome.historyDays).map { "\($1) days of '\($0.name)'" }
        .joined(separator: " and ")
    context.say(
      "It holds \(outcome.locations) locations, \(outcome.marketSnapshots) daily market "
        + "snapshots since \(outcome.firstDay), portfolios "
        + portfolios.joined(separator: " and ")
        + " and their saved daily history: \(history).")
    context.print()
    context.out.write(ReportText.render(report, useColor: context.useColor, width: context.width))
    let db = Self.quoted(path)
    // As the user can type it: `folio` when that is this program on PATH, else this
    // program's own path (after `swift run folio demo`, say).
    let folio = Self.invocation(
      path: context.environment["PATH"], folder: FileManager.default.currentDirectoryPath)
    context.print()
    context.print("Try next:")
    for line in [
      "\(folio) --db \(db) report --format html --out report.html",
      "\(folio) --db \(db) --portfolio savings report --format md",
      "\(folio) --db \(db) report history",
      "\(folio) --db \(db) stats",
      "\(folio) --db \(db) coins list --limit 10",
      "\(folio) --db \(db) tx list",
      "\(folio) --db \(db) locations near 41.9 12.5",
    ] {
      context.print("  " + line)
    }
    if context.globals.database == nil {
      context.print()
      context.print("The demo database is yours to remove when you are done: rm \(db)")
    }
  }

  /// How a shell reaches the running program: `folio` when the first `folio` on `path` (the
  /// PATH variable) is this very program, else its path relative to `folder` (the current
  /// one) when it lies below it (`.build/debug/folio` after `swift run folio demo`), else its
  /// absolute path; quoted.
  static func invocation(path: String?, folder: String) -> String {
    let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var shortest = running
    let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
    if running.hasPrefix(base + "/") {
      let relative = String(running.dropFirst(base.count + 1))
      shortest = relative.hasPrefix(".") ? relative : "./" + relative
      // SwiftPM's own short links to its build folders, when they lead here.
      for link in [".build/debug/folio", ".build/release/folio"]
      where URL(fileURLWithPath: base + "/" + link).resolvingSymlinksInPath().path == running {
        shortest = link
      }
    }
    for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
      let candidate = String(folder) + "/folio"
      guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
      let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
      return resolved == running ? "folio" : quoted(shortest)
    }
    return quoted(shortest)
  }

  /// `path` quoted for a POSIX shell when it holds anything but safe characters.
  static func quoted(_ path: String) -> String {
    let safe = path.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "/._-+:@%".unicodeScalars.contains($0)
    }
    return safe ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
