import FolioService
import FolioStorage
import Foundation

/// `folio daily`: the job for cron or a systemd timer: refresh, save and file the day's reports.
struct Daily: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "daily",
    abstract: "Refresh prices, save today's figures and file each portfolio's reports.",
    discussion: """
      Made for cron or a systemd timer (see docs/daily.md). Refreshes the market data of the
      portfolios' currencies; when that fails it warns, goes on with the cached prices and
      exits 0 (69 with --strict); --offline skips it. Saves each portfolio's figures for today
      (UTC) as 'report --save' does (a second run the same day replaces them), writes
      DIR/YYYY-MM-DD/<portfolio>.<ext> in each of --formats and DIR/index.html (the days,
      newest first, with each portfolio's value, its change in profit since the previous
      saved day, and a chart of the saved history), then prints one summary line. Every
      portfolio unless --portfolio names one. DIR defaults to $XDG_STATE_HOME/folio/reports,
      else ~/.local/state/folio/reports. --keep-days N removes the dated folders before the
      last N days: in each, only the files named <portfolio>.<ext> (a portfolio of the
      database, one of folio's formats) and folio's own stale .folio-*.tmp files, then the
      folder if it is empty; anything else stays, and so does its folder. Nothing else is
      ever deleted. A run while another works on DIR exits 75.
      Exit codes: 0 ok, 64 usage, 65 bad data, 66 no database, 69 the refresh failed with
      --strict, 74 a file cannot be written, 75 another run holds DIR or another process kept
      the database locked beyond the busy timeout (try again).
      """,
    portfolioHelp:
      "The one portfolio to file, or all (default: all; $FOLIO_PORTFOLIO is not read).")

  @Option(valueName: "dir", help: "File the reports here (default: $XDG_STATE_HOME/folio/reports).")
  var outDir: String?
  @Option(help: "The formats to file, comma-separated (default: html,md).")
  var formats = ReportFormats([.html, .md])
  @Flag(help: "Do not refresh market data; use the cached prices.") var offline: Bool
  @Option(help: "Remove the dated folders before the last N days.") var keepDays: Limit?
  @Flag(help: "Exit 69 when the refresh fails instead of using the cached prices.")
  var strict: Bool

  /// `--formats html,md`: report formats, each kept once, in the order given.
  struct ReportFormats: ExpressibleByArgument {
    let formats: [Report.Format]

    init(_ formats: [Report.Format]) { self.formats = formats }

    init?(argument: String) {
      var formats: [Report.Format] = []
      for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
        guard let format = Report.Format(rawValue: String(word)) else { return nil }
        if !formats.contains(format) { formats.append(format) }
      }
      self.formats = formats
    }

    static let expected = "a comma-separated list of html, md, json, csv and text"
    static let placeholder: String? = "format,..."
  }

  func run(_ context: Context) throws {
    guard outDir?.isEmpty != true else {
      throw UsageError("--out-dir is empty: name a folder", commandPath: ["folio", "daily"])
    }
    guard let path = outDir ?? DailyArchive.defaultPath(environment: context.environment) else {
      throw UsageError(
        "HOME is not set: name the reports folder with --out-dir", commandPath: ["folio", "daily"])
    }
    let archive = DailyArchive(path: path)
    let store = try context.existingStore()
    let portfolios = try DailyArchive.portfolios(store, named: context.globals.portfolio)
    let lock = try archive.lock()
    defer { close(lock) }
    let refresh = offline ? "skipped (--offline)" : try refresh(context, store, portfolios)

    let today = CalendarDay(containing: context.now)
    let service = ReportService(store)
    // The figures are computed and saved in one transaction first, then the files are
    // written: no file is ever left for a day whose figures were not saved (a file that cannot
    // be written fails the run, and the next run writes the day again). Whether the index can
    // be written is checked before.
    try archive.makeFolder(today)
    try context.checkOutput(path + "/index.html")
    let reports = try service.reportsSaved(portfolios, day: today, now: context.now)
    for report in reports {
      for format in formats.formats {
        let name = "\(report.portfolio.name).\(format == .text ? "txt" : format.rawValue)"
        let text = Report.render(report, format: format, saved: true, useColor: false)
        try context.writeOutput(to: archive.folder(today) + "/" + name) { $0.write(text) }
      }
    }
    if let keep = keepDays?.value {
      for (day, isLink) in try archive.removeExpired(keep: keep, today: today, store) {
        context.warn(
          "kept \(archive.folder(day)): "
            + (isLink
              ? "it is a link, and folio removes nothing through one"
              : "it holds files folio did not write"))
      }
    }
    let index = try archive.index(store)
    let page = ReportHTML.index(index, generatedAt: Timestamp.format(context.now))
    try context.writeOutput(to: path + "/index.html") { $0.write(page) }

    // The summary line.
    let entries = index.days.first { $0.day == today.description }?.entries ?? []
    let figures = portfolios.map { portfolio in
      let entry = entries.first { $0.portfolio.id == portfolio.id }
      var change = "no earlier day"
      if let difference = entry?.change {
        change = Formatting.money(difference, in: portfolio.currency, sign: .always)
        if let percent = entry?.changePercent { change += ", " + Formatting.percent(percent) }
      }
      return
        "\(portfolio.name) \(Formatting.money(entry?.value, in: portfolio.currency)) (\(change))"
    }
    let snapshot = reports.compactMap { $0.snapshot?.fetchedAt }.min()
    let age = snapshot.flatMap { try? Timestamp(parsing: $0, .lenient).date }.map {
      "snapshot \(MarketTime.formatDuration(context.now.timeIntervalSince($0), units: 2)) old"
    }
    // One line whatever the width: a log or a cron mail reads it as one record.
    context.print(
      FolioCLI.visible(
        "daily \(today): \(figures.joined(separator: ", ")); \(age ?? "no snapshot"); "
          + "wrote \(reports.count * formats.formats.count + 1) file(s) in \(path); refresh \(refresh)"
      ))
  }

  /// Refreshes each currency of `portfolios` once, with the coins they hold; a failed refresh
  /// is a warning (an error with `--strict`). Returns the result for the summary.
  func refresh(_ context: Context, _ store: Store, _ portfolios: [Portfolio]) throws -> String {
    let groups = Dictionary(grouping: portfolios, by: \.currency)
    var result = "ok"
    for currency in groups.keys.sorted() {
      guard let group = groups[currency], let first = group.first else { continue }
      var coins: Set<String> = []
      for other in group.dropFirst() {
        coins.formUnion(try HeldPositions.quantities(store, portfolio: other.name).keys)
      }
      do {
        let outcome = try MarketRefresh.refresh(
          context, vsCurrency: currency, pages: 1, coins: coins.sorted(), detailFor: nil,
          portfolio: first.name)
        context.warn(all: outcome.warnings)
      } catch let error as MarketError {
        guard case .refreshFailed = error, !strict else { throw error }
        context.warn(
          (error.errorDescription ?? "the refresh failed") + "; going on with the cached prices")
        result = "failed (cached prices used)"
      }
    }
    return result
  }
}
