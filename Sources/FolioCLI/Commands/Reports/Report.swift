import FolioService
import FolioStorage
import Foundation

/// `folio report`: the daily report of a portfolio; its subcommands read and fill the saved
/// daily history.
struct Report: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "report",
    abstract: "Print the daily report: statistics, holdings, profit, trades, value over time.",
    discussion: """
      The report is as of the end of --date (UTC; default today): holdings from the trades
      executed by then, prices from the newest snapshot taken by then. It shows the snapshot
      time (warning when it is older than --max-age), the four statistics, holdings with their
      24h change and 7-day sparkline, realized profit for the day, month, year and all time,
      the day's trades, the top movers and the value over the last 30 days from the saved
      history. --save stores the day's value, cost basis, unrealized and realized profit and
      the snapshot used; saving the same day again replaces the row, so it is safe in cron.
      Formats: text, md (GitHub tables), json, csv (one row per holding) and html (one
      self-contained page with charts). --portfolio all reports every portfolio of one
      currency as one (transfers between them net out; not with --save). Exit codes: 0 ok,
      64 usage, 65 a future --date, --save with another --method or with --portfolio all,
      --strict with an old snapshot, or --portfolio all over different currencies,
      66 no database, 74 --out cannot be written.
      """,
    subcommands: [ReportHistory.self, ReportBackfill.self])

  enum Format: String, OutputFormat { case text, md, json, csv, html }

  @Option(name: "date", help: "Report as of the end of this UTC day (default: today).")
  var day: CalendarDay?
  @Option var format = Format.text
  @OptionGroup var output: OutputOption
  @Flag(help: "Store the day's figures in the daily history (replacing that day).") var save: Bool
  @Option(help: "Compute with this method instead.") var method: CostMethod?
  @OptionGroup var freshness: PriceFreshness

  func run(_ context: Context) throws {
    let out = output.out
    let store = try context.existingStore()
    let service = ReportService(store)
    let portfolios = try context.portfolios()
    let reportDay = day ?? CalendarDay(containing: context.now)
    // Text on stdout carries the warning itself; --strict refuses a stale report.
    func checkFreshness(_ report: DailyReport) throws {
      try freshness.check(
        report.stale, context,
        warning: out != nil || format != .text ? ReportFormat.staleWarning(report) : nil)
    }
    // --save computes, checks and saves in one transaction, before anything is written out;
    // whether --out can be written is checked first, so a refused file saves nothing.
    if save, let out { try context.checkOutput(out) }
    let report: DailyReport
    if save, portfolios.count == 1,
      let saved = try service.reportsSaved(
        portfolios, day: reportDay, method: method, maxAge: freshness.maxAge, now: context.now,
        check: checkFreshness
      ).first
    {
      report = saved
    } else {
      report = try service.report(
        portfolios, day: reportDay, method: method, maxAge: freshness.maxAge, now: context.now,
        forSaving: save)
      try checkFreshness(report)
    }
    // A file never gets terminal colour codes, and is no terminal: 80 columns.
    let text = Self.render(
      report, format: format, saved: save, useColor: out == nil && context.useColor,
      width: out == nil ? context.width : 80)
    if let out {
      try context.writeOutput(to: out) { $0.write(text) }
      context.say(
        "wrote the \(format.rawValue) report of \(report.day) to \(FolioCLI.visible(out))"
          + (save ? "; saved the day's figures" : ""))
    } else {
      context.out.write(text)
    }
  }

  /// The report in `format`.
  static func render(
    _ report: DailyReport, format: Format, saved: Bool, useColor: Bool, width: Int = 80
  ) -> String {
    switch format {
    case .md: return ReportMarkdown.render(report)
    case .json: return ReportData.json(report, saved: saved).rendered() + "\n"
    case .csv: return ReportData.csv(report)
    case .html: return ReportHTML.render(report)
    case .text: return ReportText.render(report, useColor: useColor, width: width)
    }
  }
}
