import FolioService
import Foundation

/// `folio import trades FILE|-`.
struct ImportTrades: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "trades",
    abstract: "Import trades from CSV, all or nothing.",
    discussion: """
      Columns (header row, any order): date, side, coin, quantity, price, and optionally fee,
      note, id, portfolio, location (a location id or "NAME, CITY", as buy --location takes).
      RFC 4180 quoting, a UTF-8 BOM and CRLF line ends are accepted.
      Rows may be in any date order: they are booked sorted by time, rows with the same time
      in file order, or from the last line up with --newest-first (for files that list the
      newest rows first, as exchanges export them). Any bad row and nothing is imported (exit 65); the problems are listed one
      a line as FILE:LINE: reason, the first 20, then how many more.
      Importing again adds nothing: a row whose id the portfolio holds is skipped, and a row
      without an id (or with an id folio-N made up by export) is skipped when the portfolio
      already held as many trades with the same date, side, coin, quantity, price, fee and
      note as the file has so far.
      A coin is a CoinGecko id or symbol, resolved as 'folio buy' does; unknown coins are
      listed with their lines and the closest coins of the directory (--new-coin adds an
      unknown id to the directory instead).
      A date is YYYY-MM-DD, ISO-8601 with Z or an offset (2024-03-01T12:00:00+01:00), a time
      without a zone (2024-03-01 12:00:00), or Unix time: 10 digits are seconds, 13 digits
      milliseconds. A time without a zone, and a date alone (its midnight), are read in
      --timezone (default UTC); a local time the clocks skip or repeat there is refused.
      A date more than a day in the future is refused unless --allow-future is given.
      """, createsDatabase: true)

  enum Format: String, OutputFormat { case text, json }

  /// A dry run writes nothing, so it never creates the database (without one it looks at a
  /// new one in a temporary folder).
  var createsDatabase: Bool { !dryRun }

  @Argument(name: "file", help: "The CSV file, or - for standard input.") var path: String
  @Flag(help: "Validate and report without writing anything.") var dryRun: Bool
  @Flag(help: "Accept dates more than a day in the future.") var allowFuture: Bool
  @OptionGroup var newCoin: NewCoinOption
  @Option(
    name: "timezone", valueName: "TZ",
    help: "The IANA time zone (such as Europe/Berlin) of times without a zone (default: UTC).")
  var timeZone: TimeZone?
  @Flag(
    help: "The file lists the newest rows first: rows with the same time are booked bottom up.")
  var newestFirst: Bool
  @Option var format = Format.text

  func run(_ context: Context) throws {
    let (handle, source, total) = try InputFile.open(path)
    defer { try? handle.close() }
    let progress = ProgressLine(context)
    defer { progress.finish() }
    let update: (Int) -> Void = { done in
      guard total > 0 else { return }
      progress.show("importing trades (\(min(100, done * 100 / total))%)")
    }
    // The database is opened, and its write lock taken, once the input has begun: until then
    // other commands write as usual (`slow-export | folio import trades -`).
    let reader = CSVReader(handle: handle, source: source)
    try reader.waitForInput()
    // A refused import into a database it created leaves no new file behind.
    let report = try context.withStore(dryRun: dryRun) { store in
      try TradeImporter(store).importTrades(
        from: reader, source: source,
        into: context.portfolio(), dryRun: dryRun, allowFuture: allowFuture,
        newCoin: newCoin.newCoin, timeZone: timeZone, newestFirst: newestFirst, now: context.now,
        progress: update)
    }
    progress.finish()
    report.notes.forEach(context.note)
    switch format {
    case .json:
      context.print(
        JSONValue.object([
          ("rows", .int(report.rows)), ("imported", .int(report.imported)),
          ("skipped", .int(report.skipped)), ("dry_run", .bool(report.dryRun)),
        ]).rendered())
    case .text:
      let (verb, skip) = report.dryRun ? ("would import", "would skip") : ("imported", "skipped")
      context.print(
        "\(verb) \(report.imported) trade(s) from \(report.rows) row(s); "
          + "\(skip) \(report.skipped) already present")
    }
  }
}

/// The file an import reads: a path, or `-` for standard input.
enum InputFile {
  /// The open file, its name in messages (`<stdin>` for `-`) and its size (0 when unknown).
  static func open(_ path: String) throws -> (FileHandle, String, Int) {
    if path == "-" { return (FileHandle.standardInput, "<stdin>", 0) }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw CSVError(source: path, line: 0, reason: "is a folder, not a CSV file", kind: .io)
    }
    guard let opened = FileHandle(forReadingAtPath: path) else {
      let descriptor = Foundation.open(path, O_RDONLY)
      if descriptor >= 0 { Foundation.close(descriptor) }
      if descriptor == -1 && errno == ELOOP {
        throw CSVError(
          source: path, line: 0,
          reason: "cannot be opened: too many levels of symbolic links (a link loop)", kind: .io)
      }
      throw CocoaError(
        FileManager.default.fileExists(atPath: path)
          ? .fileReadNoPermission : .fileReadNoSuchFile,
        userInfo: [NSFilePathErrorKey: path])
    }
    let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    return (opened, path, size)
  }
}
