import FolioService
import FolioStorage
import Foundation

/// `folio report backfill --since D`: saves the days missing from the daily history.
struct ReportBackfill: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "backfill",
    abstract: "Compute and save the days missing from the daily history.",
    discussion: """
      Each day from --since through --until (default today, UTC) that has no saved row is
      computed as 'folio report --date DAY --save' would: holdings from the trades executed by
      the end of the day, prices from the daily close of the day ('folio market history') or
      the newest snapshot taken by then, whichever is nearer the day's end. A day that holds
      coins is valued only with prices from within --max-age before the day's end (never a
      later one); without any, or when any held coin has none, it is skipped (n/a: a value of
      part of the holdings is no value of the day), and the summary counts it and names the
      coins without a price. Days already saved are
      left alone unless --replace is given; even then a saved value is never replaced by n/a.
      Everything is written in one transaction. --portfolio all fills every portfolio, each
      with its own method, in a transaction of its own, one summary line each. Exit codes: 0 ok, 64 usage, 65 --since after
      --until or a day in the future, 66 no database, 75 database busy.
      """)

  @Option(help: "The first day to fill (required).") var since: CalendarDay
  @Option(help: "The last day to fill (default: today).") var until: CalendarDay?
  @Flag(help: "Recompute and replace days that are already saved.") var replace: Bool
  @Option(help: "Use only snapshots this close to the day's end (default 2d; e.g. 36h, 7d).")
  var maxAge = ReportService.backfillMaxAge

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    for portfolio in try context.portfolios(oneCurrency: false) {
      let outcome = try ReportService(store).backfill(
        portfolio, since: since, until: until, replace: replace, maxAge: maxAge, now: context.now)
      context.print(Self.summary(outcome, portfolio: portfolio.name))
    }
  }

  /// One line: what was saved, and every day not saved with the reason.
  static func summary(_ outcome: BackfillOutcome, portfolio: String) -> String {
    var line =
      "saved \(outcome.saved.count) day(s) of portfolio '\(portfolio)' "
      + "from \(outcome.since) through \(outcome.until)"
    if outcome.alreadySaved > 0 { line += "; \(outcome.alreadySaved) day(s) were already saved" }
    if !outcome.noFreshSnapshot.isEmpty {
      line +=
        "; skipped \(outcome.noFreshSnapshot.count) day(s) with no market snapshot or daily price within "
        + "\(MarketTime.formatDuration(outcome.maxAge)) before the day's end"
      if outcome.keptWithoutSnapshot > 0 {
        line += " (\(outcome.keptWithoutSnapshot) of them kept their saved row)"
      }
    }
    if !outcome.partial.isEmpty {
      let coins = outcome.missingCoins.sorted { $0.key < $1.key }.map { coin, days in
        let (first, last) = (days.first ?? "", days.last ?? "")
        let span = first == last ? first : "\(first) to \(last)"
        return "\(coin) (\(days.count) day(s), \(span))"
      }
      line +=
        "; skipped \(outcome.partial.count) day(s) as n/a because held coins had no market "
        + "snapshot or daily price within \(MarketTime.formatDuration(outcome.maxAge)) before "
        + "the day's end: \(coins.joined(separator: ", "))"
    }
    if !outcome.keptKnownValue.isEmpty {
      line +=
        "; kept the saved value of \(outcome.keptKnownValue.count) day(s) that would now "
        + "be n/a (no held coin priced)"
    }
    return line
  }
}
