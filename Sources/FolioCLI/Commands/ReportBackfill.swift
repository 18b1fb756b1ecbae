import FolioService
import FolioStorage
import Foundation

/// `folio report backfill --since D`: saves the days missing from the daily history.
struct ReportBackfill: FolioCommand {
  static let spec = CommandSpec(
    name: "backfill",
    abstract: "Compute and save the days missing from the daily history.",
    discussion: """
      Each day from --since through --until (default today, UTC) that has no saved row is
      computed as 'folio report --date DAY --save' would: holdings from the trades executed by
      the end of the day, prices from the newest snapshot taken by then (value n/a when there
      is none). Days already saved are left alone unless --replace is given. Everything is
      written in one transaction. Exit codes: 0 ok, 64 usage, 65 --since after --until or a
      day in the future, 66 no database, 75 database busy.
      """,
    options: [
      .value("since", "yyyy-mm-dd", help: "The first day to fill (required)."),
      .value("until", "yyyy-mm-dd", help: "The last day to fill (default: today)."),
      .flag("replace", help: "Recompute and replace days that are already saved."),
    ],
    make: { try Self($0) })

  let since: CalendarDay
  let until: CalendarDay?
  let replace: Bool

  init(_ values: ParsedValues) throws {
    guard
      let since = try values.value(
        "since", expected: "a day such as 2024-11-01", CalendarDay.init)
    else { throw UsageError("missing --since", commandPath: values.path) }
    self.since = since
    until = try values.value("until", expected: "a day such as 2024-11-30", CalendarDay.init)
    replace = values.flag("replace")
  }

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    let portfolio = try context.portfolio()
    let outcome = try ReportService(store).backfill(
      portfolio, since: since, until: until, replace: replace, now: context.now)
    var line =
      "saved \(outcome.saved.count) day(s) of portfolio '\(portfolio.name)' "
      + "from \(outcome.since) through \(outcome.until)"
    if outcome.alreadySaved > 0 { line += "; \(outcome.alreadySaved) day(s) were already saved" }
    context.print(line)
  }
}
