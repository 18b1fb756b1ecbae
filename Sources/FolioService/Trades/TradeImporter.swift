import FolioStorage
import Foundation

/// What an import did, or (with `--dry-run`) would do.
public struct ImportReport: Sendable, Equatable {
  /// Data rows read (the header and blank lines not counted).
  public let rows: Int
  /// Trades written (or that would be written).
  public let imported: Int
  /// Rows skipped as already present: a trade with the same id is in the portfolio, or (rows
  /// without an id) as many trades with the same content as the file has up to the row (see
  /// `StoredTradeMatcher`).
  public let skipped: Int
  public let dryRun: Bool
  /// What the user should know about the rows, each as `FILE:LINE: note`: the coin chosen for
  /// a symbol of several coins (the first row with that symbol).
  public var notes: [String] = []
}

/// An error whose message is several lines (a summary, then one problem a line), each made
/// safe for a terminal on its own.
public protocol ListedProblems: Error {
  var messageLines: [String] { get }
}

/// An import that was refused: every problem found, each as `FILE:LINE: reason`.
public struct ImportError: LocalizedError, ClassifiedError, Equatable, ListedProblems {
  /// The problems, in file order; at most `limit` are kept.
  public let problems: [String]
  /// How many problems were found in all.
  public let total: Int
  /// How many problems are kept and shown at most.
  public static let limit = 20

  public var kind: FailureKind { .badData }

  /// The first line of the message: the problem itself when it is the only one, else how
  /// many were found (the problems follow, one a line).
  public var summary: String {
    total == 1 && problems.count == 1
      ? "nothing was imported: \(problems[0])" : "nothing was imported: \(total) problems found"
  }

  /// The problems listed after the summary, one a line.
  public var listed: [String] { total == 1 && problems.count == 1 ? [] : problems }

  /// What is said after the listed problems when more were found, or nil.
  public var remainder: String? {
    let more = total - problems.count
    return more > 0 ? "… and \(more) more problem\(more == 1 ? "" : "s")" : nil
  }

  public var messageLines: [String] { [summary] + listed + [remainder].compactMap { $0 } }

  public var errorDescription: String? { messageLines.joined(separator: "\n") }
}

/// Imports trades from CSV (`date,side,coin,quantity,price,fee,note`, optional `id`,
/// `portfolio` and `location` columns, in any order) in one transaction: any bad row, or any sell that the
/// history cannot cover, and nothing is imported.
public struct TradeImporter {
  static let required = ["date", "side", "coin", "quantity", "price"]
  static let optional = [
    "fee", "note", "id", "portfolio", "location", "kind", "income_type", "amount", "acquired",
    "link",
  ]

  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// Reads every record of `reader` into `portfolio` (rows may name another portfolio in a
  /// `portfolio` column). Dates are read as exchanges write them
  /// (`Timestamp.Syntax.exchange`), a time without a zone in `timeZone` (nil: UTC).
  /// `progress` is called now and then with the bytes read so far. With `newCoin`, a coin id
  /// the directory does not know is added to it rather than refused. Rows with the same time
  /// are booked in file order, or with `newestFirst` (a file that lists the newest rows first)
  /// from the last line up.
  public func importTrades(
    from reader: CSVReader, source: String, into portfolio: Portfolio, dryRun: Bool = false,
    allowFuture: Bool = false, newCoin: Bool = false, timeZone: TimeZone? = nil,
    newestFirst: Bool = false, now: Date, progress: (Int) -> Void = { _ in }
  ) throws -> ImportReport {
    try db.transaction {
      let report = try run(
        reader, source: source, portfolio: portfolio, now: now,
        latest: TradeInput.latestDate(now: now, allowFuture: allowFuture),
        dates: .exchange(zone: timeZone), unknownCoins: newCoin ? .add : .refuse,
        newestFirst: newestFirst, progress: progress)
      return (
        ImportReport(
          rows: report.rows, imported: report.imported, skipped: report.skipped, dryRun: dryRun,
          notes: report.notes),
        dryRun ? .rollback : .commit
      )
    }
  }

  /// Imports the records `reader` gives, a header first, as `importTrades` does: the one path by
  /// which rows of a file become trades (the exchange importers hand theirs in here too).
  func importRecords(
    from reader: some ImportRecordSource, source: String, into portfolio: Portfolio,
    dryRun: Bool, allowFuture: Bool, newestFirst: Bool, now: Date
  ) throws -> ImportReport {
    try db.transaction {
      let report = try run(
        reader, source: source, portfolio: portfolio, now: now,
        latest: TradeInput.latestDate(now: now, allowFuture: allowFuture),
        dates: .exchange(zone: nil), unknownCoins: .refuse, newestFirst: newestFirst,
        progress: { _ in })
      return (
        ImportReport(
          rows: report.rows, imported: report.imported, skipped: report.skipped, dryRun: dryRun,
          notes: report.notes),
        dryRun ? .rollback : .commit
      )
    }
  }

  private func run(
    _ reader: some ImportRecordSource, source: String, portfolio: Portfolio, now: Date,
    latest: Timestamp?,
    dates: Timestamp.Syntax, unknownCoins: CoinDirectory.Unknown, newestFirst: Bool,
    progress: (Int) -> Void
  ) throws -> ImportReport {
    var first = try reader.next()
    while let blank = first, blank.fields == [""] { first = try reader.next() }
    guard let header = first else {
      throw ImportError(problems: ["\(source): the file is empty; expected a header row"], total: 1)
    }
    let columns = try Self.columns(header, source: source)
    // Read again inside the write transaction: a method changed meanwhile is the one booked.
    let portfolio = try Portfolio.current(portfolio, db)
    var problems: [String] = []
    var problemCount = 0
    func problem(_ line: Int, _ reason: String) {
      problemCount += 1
      if problems.count < ImportError.limit { problems.append("\(source):\(line): \(reason)") }
    }
    var portfolios: [String: Portfolio] = [portfolio.name: portfolio]
    var notes: [String] = []
    let ledger = try Ledger(db)
    // Trades are booked in time order, rows with the same time in file order. While the file
    // is in time order, each row is written and booked as it is read, and peak memory does not
    // grow with the file; the rows after the first that is older than the one before it are
    // kept, sorted by time (stably) and written at the end, so their ids follow that order. A
    // position whose trades still arrive out of order (its stored trades, or the rows written
    // before the file left time order, are later than a row) is booked again at the end from
    // its earliest row.
    var streams: [PositionID: StreamBox] = [:]
    // With the file line of that row, for the problems of the position.
    var earliest: [PositionID: (key: TradeKey, line: Int)] = [:]
    var lines: [Int32] = []
    var firstID: Int64 = 0
    var lastTime = ""
    // A newest-first file is sorted whole, so its rows with the same time go bottom up.
    var sorting = newestFirst
    var later: [LaterRow] = []
    var rows = 0
    var skipped = 0
    let stamp = Timestamp.format(now)
    // A savepoint, so an import that writes no trade leaves even the schema untouched. The
    // CHECK constraints on trades guard hand edits; every row here was already parsed and
    // written back in canonical form (`TradeService.trade`), and checking its GLOB patterns
    // again costs SQLite more than inserting the row.
    // A second thread writes the batches of rows (`Database.writingBehind`) while this one
    // reads and books the next.
    try db.transaction {
      try db.ignoringCheckConstraints { try db.writingBehind { try importBody() } }
    }
    func importBody() throws -> ((), Database.Completion) {
      let restore = try Trade.suspendInsertWork(db)
      let insert = try Trade.prepareInsert(db, batched: true)
      let directory = CoinDirectory(store)
      // Each coin as typed is resolved once: the id, or why it was refused.
      var coins: [String: Result<String, CoinError>] = [:]
      let stored = StoredTradeMatcher(db)
      // Each location reference resolved once (an id or "NAME, CITY", as `buy --location`).
      let locations = LocationBook(store)
      var places: [ByteKey: Int64] = [:]
      // The line of each id read so far, by portfolio: an id may appear once in a file.
      var idLines: [Int64: [ByteKey: Int]] = [:]
      // The `link` of each row of a transfer or a swap, by record (its place among the data
      // records: a record made from an exchange's row shares that row's line with others),
      // and whether it is the row's own id in the file (the row giving the units up; a
      // made-up id the portfolio holds on another trade is dropped before the row is written).
      var links: [Int: (text: String, isOwn: Bool)] = [:]
      // The row giving units up written last for each link text: the one a row of the same
      // transfer or swap after it names.
      var givingUp:
        [ByteKey: (id: Int64, kind: TradeKind, executedAt: String, portfolioID: Int64)] = [:]
      // Writes one row's trade (unless its id is stored already) and books it: at once when
      // it follows everything booked for its coin, else its coin is booked again in time
      // order at the end, from its earliest row.
      func book(_ trade: Trade, in portfolio: Portfolio, line: Int, record: Int) throws {
        var trade = trade
        let link = links[record]
        if let link, !link.isOwn {
          // The row giving the units up: a sell of the same kind, linked to itself. Ids are
          // unique per portfolio only, so another row may carry the same id: the nearest one
          // before it in the file at its time, else the one `givingUpRow` chooses.
          let target: (id: Int64, portfolioID: Int64)
          if let known = givingUp[ByteKey(link.text)], known.kind == trade.kind,
            known.executedAt == trade.executedAt
          {
            target = (known.id, known.portfolioID)
          } else if let stored = try Trade.givingUpRow(
            externalID: link.text, kind: trade.kind, arrivingIn: portfolio.id,
            at: trade.executedAt, db)
          {
            target = stored
          } else {
            throw try Trade.holdsExternalID(link.text, db)
              ? ImportRowError.notGivingUp(link.text, kind: trade.kind)
              : ImportRowError.unknownLink(link.text)
          }
          // As `swap` and `transfer` have them: a swap in one portfolio, a transfer between
          // two of one currency.
          if trade.kind == .swap, target.portfolioID != portfolio.id {
            throw ImportRowError.misplacedLink(
              link.text, kind: .swap, reason: "in another portfolio (a swap is in one portfolio)")
          }
          if trade.kind == .transfer {
            guard target.portfolioID != portfolio.id else {
              throw ImportRowError.misplacedLink(
                link.text, kind: .transfer,
                reason: "in the same portfolio (a transfer moves units between two)")
            }
            let source = try Portfolio.find(id: target.portfolioID, db)
            guard source?.currency == portfolio.currency else {
              throw ImportRowError.misplacedLink(
                link.text, kind: .transfer,
                reason: "in a portfolio of another currency (a transfer keeps the cost basis)")
            }
          }
          trade.linkID = target.id
        }
        guard
          let id = try trade.insert(
            using: insert, db, newExternalID: stored.heldNothing(portfolioID: portfolio.id))
        else {
          skipped += 1
          return
        }
        trade.id = id
        if let link, trade.linkID == nil {
          try Trade.linkToItself(id: id, db)
          trade.linkID = id
          givingUp[ByteKey(link.text)] = (id, trade.kind, trade.executedAt, portfolio.id)
        }
        if lines.isEmpty { firstID = id }
        lines.append(Int32(truncatingIfNeeded: line))
        let position = PositionID(portfolioID: portfolio.id, coinID: trade.coinID)
        let key = TradeKey(executedAt: trade.executedAt, id: 0)
        if let known = earliest[position] {
          if key < known.key { earliest[position] = (key, line) }
          return
        }
        let box: StreamBox
        if let open = streams[position] {
          box = open
        } else if try ledger.canAppend(portfolio: portfolio, coinID: trade.coinID, at: key) {
          box = StreamBox(
            try ledger.begin(portfolio: portfolio, coinID: trade.coinID, from: key).0)
          streams[position] = box
        } else {
          earliest[position] = (key, line)
          return
        }
        // A row older than the last one booked, or a sell that the rows booked so far
        // cannot cover (its buys may come later in the file), stops the stream: the
        // position is booked again in time order at the end, from its earliest row.
        var booked = false
        if box.stream.last.map({ trade.executedAt >= $0.key.executedAt }) ?? true {
          do {
            try box.stream.apply(trade, ledger.derived)
            booked = true
          } catch is OversellError {}
        }
        if !booked {
          if box.stream.last != nil { try ledger.finish(&box.stream) }
          streams[position] = nil
          earliest[position] = (key, line)
        }
      }
      while let record = try reader.next() {
        if record.fields.count == 1 && record.fields[0].isEmpty { continue }
        rows += 1
        if rows % 65_536 == 0 { progress(reader.bytesRead) }
        guard record.fields.count == columns.count else {
          problem(record.line, "expected \(columns.count) fields, found \(record.fields.count)")
          continue
        }
        let fields = record.fields
        func field(_ index: Int?) -> String? { index.map { fields[$0] } }
        do {
          var target = portfolio
          if let name = field(columns.portfolio), !name.isEmpty, name != portfolio.name {
            if let known = portfolios[name] {
              target = known
            } else {
              target = try PortfolioService(store).resolve(name)
              portfolios[name] = target
            }
          }
          let sideText = fields[columns.side]
          guard
            let side = TradeSide(rawValue: sideText) ?? TradeSide(rawValue: sideText.lowercased())
          else {
            throw TradeInputError(field: "side", reason: "'\(sideText)' is neither buy nor sell")
          }
          let draft = TradeDraft(
            side: side, coin: fields[columns.coin], quantity: fields[columns.quantity],
            price: fields[columns.price],
            fee: field(columns.fee).flatMap { $0.isEmpty ? nil : $0 },
            date: fields[columns.date], note: field(columns.note), externalID: field(columns.id))
          let coinID: String
          if let known = coins[draft.coin] {
            coinID = try known.get()
          } else {
            do {
              // Suggestions search the whole directory: only for problems that are listed.
              let coin = try directory.resolve(
                draft.coin, unknown: unknownCoins, suggest: problemCount < ImportError.limit)
              if let note = coin.note { notes.append("\(source):\(record.line): \(note)") }
              coins[draft.coin] = .success(coin.id)
              coinID = coin.id
            } catch let error as CoinError {
              coins[draft.coin] = .failure(error)
              throw error
            }
          }
          var trade = try TradeService.trade(
            from: draft, portfolio: target, coinID: coinID, stamp: stamp, latest: latest,
            dates: dates)
          try KindColumns.apply(
            kind: field(columns.kind), incomeType: field(columns.incomeType),
            amount: field(columns.amount), acquired: field(columns.acquired), to: &trade,
            dates: dates)
          if let link = field(columns.link), !link.isEmpty {
            guard trade.kind == .transfer || trade.kind == .swap else {
              throw TradeInputError(
                field: "link", reason: "only the rows of a transfer or a swap have a link")
            }
            let isOwn = trade.externalID.map { link.utf8.elementsEqual($0.utf8) } ?? false
            guard !isOwn || trade.side == .sell else {
              throw TradeInputError(
                field: "link",
                reason: "a buy does not give units up: its link must name the sell of the "
                  + "\(trade.kind.rawValue) that does, not the buy itself")
            }
            links[rows] = (link, isOwn)
          } else if trade.kind == .transfer || trade.kind == .swap {
            throw TradeInputError(
              field: "link",
              reason: "a \(trade.kind.rawValue) row needs the id of the row giving the units up")
          }
          if let place = field(columns.location), !place.isEmpty {
            if let known = places[ByteKey(place)] {
              trade.locationID = known
            } else {
              let id = try locations.locationID(for: place)
              places[ByteKey(place)] = id
              trade.locationID = id
            }
          }
          if let externalID = trade.externalID {
            let key = ByteKey(externalID)
            if let first = idLines[target.id, default: [:]][key] {
              throw ImportRowError.repeatedID(externalID, firstLine: first)
            }
            idLines[target.id, default: [:]][key] = record.line
          }
          guard problemCount == 0 else { continue }
          if try stored.isStored(&trade) {
            skipped += 1
            continue
          }
          // Rows are written and booked as they are read while the file is in time order;
          // from the first row older than the one before it, the rest are kept and written
          // sorted by time at the end.
          if !sorting && trade.executedAt < lastTime { sorting = true }
          if sorting {
            later.append(
              LaterRow(trade: trade, portfolio: target, line: record.line, record: rows))
            continue
          }
          lastTime = trade.executedAt
          try book(trade, in: target, line: record.line, record: rows)
        } catch let error as LocalizedError {
          problem(record.line, error.errorDescription ?? "invalid row")
        }
      }
      progress(reader.bytesRead)
      if problemCount == 0 {
        // A stable sort: rows with the same time keep their file order (newest first: the
        // reverse of it).
        let tie = newestFirst ? -1 : 1
        later.sort {
          ($0.trade.executedAt, $0.record * tie) < ($1.trade.executedAt, $1.record * tie)
        }
        for row in later {
          do {
            try book(row.trade, in: row.portfolio, line: row.line, record: row.record)
          } catch let error as LocalizedError {
            problem(row.line, error.errorDescription ?? "invalid row")
          }
        }
      }
      if problemCount > 0 { throw ImportError(problems: problems, total: problemCount) }
      for box in streams.values { try ledger.finish(&box.stream) }
      if lines.isEmpty { return ((), .rollback) }
      try restore()
      return ((), .commit)
    }
    // Each position that was not booked as it was read is booked now, in time order; rows
    // with the same time keep their file order, as their ids do. Every oversell found is
    // reported, one per position.
    let byID = Dictionary(portfolios.values.map { ($0.id, $0) }) { first, _ in first }
    let rowLines = ImportedLines(firstID: firstID, lines: lines)
    var oversells: [(line: Int, text: String)] = []
    var oversellCount = 0
    for (position, (key, line)) in earliest.sorted(by: { $0.key < $1.key }) {
      guard let owner = byID[position.portfolioID] else { continue }
      do {
        try ledger.recompute(portfolio: owner, coinID: position.coinID, from: key)
      } catch let error as OversellError {
        oversellCount += 1
        if oversells.count < ImportError.limit {
          oversells.append(
            try Self.describe(
              error, portfolioID: owner.id, source: source, lines: rowLines,
              newestFirst: newestFirst, db))
        }
      } catch let error as LocalizedError {
        // A figure too large to compute: the rows of this position are all the file names.
        oversellCount += 1
        if oversells.count < ImportError.limit {
          oversells.append(
            (
              line,
              "\(source):\(line): '\(position.coinID)' in portfolio '\(owner.name)', booked in "
                + "time order from this row: \(error.errorDescription ?? "cannot be booked")"
            ))
        }
      }
    }
    if oversellCount > 0 {
      throw ImportError(
        problems: oversells.sorted { $0.line < $1.line }.map(\.text), total: oversellCount)
    }
    return ImportReport(
      rows: rows, imported: lines.count, skipped: skipped, dryRun: false, notes: notes)
  }

  /// An oversell met while booking the import, as `FILE:LINE: reason`: the line of the sell
  /// that falls short and what it conflicts with — the sell before it that left too little, or
  /// else the first buy after it — named by line for rows of the file and by trade id for
  /// trades already stored. When the sell that falls short was already stored, the line named
  /// is the file's sell before it that took what it needed.
  private static func describe(
    _ error: OversellError, portfolioID: Int64, source: String, lines: ImportedLines,
    newestFirst: Bool, _ db: Database
  ) throws -> (line: Int, text: String) {
    let short = TradeKey(executedAt: error.executedAt, id: error.tradeID)
    var sellBefore: Trade?
    var fileSellBefore: Trade?
    var buyAfter: Trade?
    try Trade.each(portfolioID: portfolioID, coinID: error.coinID, from: nil, db) { trade in
      if trade.key < short, trade.side == .sell {
        sellBefore = trade
        if lines[trade.id] != nil { fileSellBefore = trade }
      } else if short < trade.key, trade.side == .buy, buyAfter == nil {
        buyAfter = trade
      }
    }
    func name(_ trade: Trade) -> String {
      lines[trade.id].map { "line \($0)" } ?? "trade #\(trade.id)"
    }
    let sell = "sell of \(error.quantity) \(error.coinID) on \(error.executedAt)"
    let exceeds = "exceeds the \(error.held) held at that time (short by \(error.shortfall))"
    if let line = lines[error.tradeID] {
      var text = "\(source):\(line): this \(sell) \(exceeds)"
      if let sellBefore {
        let when = sellBefore.executedAt
        text +=
          lines[sellBefore.id].map {
            "; the sell of \(sellBefore.quantity) on line \($0) (\(when)) came first"
          }
          ?? "; trade #\(sellBefore.id), a sell of \(sellBefore.quantity) on \(when) already in "
          + "the database, came first"
      } else if let buyAfter {
        let when =
          buyAfter.executedAt == error.executedAt
          ? newestFirst
            ? "at the same time but above it in the file (with --newest-first, rows with the "
              + "same time are booked from the last line up)"
            : "at the same time but after it in the file (rows with the same time are booked "
              + "in file order; a file that lists the newest rows first imports with "
              + "--newest-first)"
          : "on \(buyAfter.executedAt), after it"
        text += "; the first buy that could cover it is on \(name(buyAfter)), \(when)"
      }
      return (line, text)
    }
    // The sell that falls short was already stored: a sell of the file before it took what it
    // needed.
    let stored = "trade #\(error.tradeID), a \(sell) already in the database, which then \(exceeds)"
    guard let culprit = fileSellBefore, let line = lines[culprit.id] else {
      return (0, "\(source): \(stored)")
    }
    return (
      line,
      "\(source):\(line): this sell of \(culprit.quantity) \(culprit.coinID) on "
        + "\(culprit.executedAt) leaves too little for \(stored)"
    )
  }

  /// Where each column is in a record.
  private struct Columns {
    let count: Int
    let date, side, coin, quantity, price: Int
    let fee, note, id, portfolio, location: Int?
    let kind, incomeType, amount, acquired, link: Int?
  }

  private static func columns(_ header: CSVRecord, source: String) throws -> Columns {
    var index: [String: Int] = [:]
    var problems: [String] = []
    for (position, raw) in header.fields.enumerated() {
      let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
      if index[name] != nil {
        problems.append("\(source):\(header.line): column '\(name)' appears twice")
      } else if !(required + optional).contains(name) {
        problems.append(
          "\(source):\(header.line): unknown column '\(raw)' (expected \((required + optional).joined(separator: ", ")))"
        )
      }
      index[name] = position
    }
    for name in required where index[name] == nil {
      problems.append("\(source):\(header.line): missing column '\(name)'")
    }
    guard problems.isEmpty, let date = index["date"], let side = index["side"],
      let coin = index["coin"], let quantity = index["quantity"], let price = index["price"]
    else {
      throw ImportError(problems: Array(problems.prefix(ImportError.limit)), total: problems.count)
    }
    return Columns(
      count: header.fields.count, date: date, side: side, coin: coin, quantity: quantity,
      price: price, fee: index["fee"], note: index["note"], id: index["id"],
      portfolio: index["portfolio"], location: index["location"], kind: index["kind"],
      incomeType: index["income_type"], amount: index["amount"], acquired: index["acquired"],
      link: index["link"])
  }
}

/// A row refused for what it shares with an earlier row of the same file.
enum ImportRowError: LocalizedError {
  case repeatedID(String, firstLine: Int)
  case unknownLink(String)
  case notGivingUp(String, kind: TradeKind)
  /// A swap's rows across two portfolios, a transfer's within one or between currencies.
  case misplacedLink(String, kind: TradeKind, reason: String)

  var errorDescription: String? {
    switch self {
    case .repeatedID(let id, let line):
      return "id '\(id)' is also on line \(line); an id may appear only once per portfolio "
        + "in a file"
    case .unknownLink(let link):
      return "link '\(link)' names no row of the file before it or of the database (import the "
        + "file of the portfolio the units left first)"
    case .notGivingUp(let link, let kind):
      return "link '\(link)' names no row that gives units up in a \(kind.rawValue) (a sell of "
        + "kind \(kind.rawValue) whose link is its own id); the rows with that id are not one"
    case .misplacedLink(let link, let kind, let reason):
      return "link '\(link)' names the row giving units up in a \(kind.rawValue) \(reason)"
    }
  }
}

/// The file line of each trade written by an import; ids are given in the order rows are
/// written, so the line of trade `id` is `lines[id - firstID]`.
private struct ImportedLines {
  let firstID: Int64
  let lines: [Int32]

  /// The line of trade `id`, or nil when the trade was not written by this import.
  subscript(id: Int64) -> Int? {
    let index = id - firstID
    guard index >= 0, index < lines.count else { return nil }
    return Int(lines[Int(index)])
  }
}

/// A row read after the file left time order, written once the whole file is read.
private struct LaterRow {
  let trade: Trade
  let portfolio: Portfolio
  let line: Int
  /// Its place among the data records.
  let record: Int
}

/// Where an import's records come from: a CSV file (`CSVReader`), or the rows an exchange
/// importer made from an exchange's export (`ImportRecords`).
protocol ImportRecordSource: AnyObject {
  /// The next record, or nil at the end.
  func next() throws -> CSVRecord?
  /// Bytes consumed so far, for progress reporting.
  var bytesRead: Int { get }
}

extension CSVReader: ImportRecordSource {}

/// Holds a position's stream by reference, so booking a row does not copy its open lots.
private final class StreamBox {
  /// Not checked for overlapping accesses at run time (each row booked reads and changes it):
  /// `book` alone reaches it, one access at a time.
  @exclusivity(unchecked) var stream: PositionStream
  init(_ stream: PositionStream) { self.stream = stream }
}

/// A coin in a portfolio.
struct PositionID: Hashable, Comparable {
  let portfolioID: Int64
  let coinID: String

  static func < (lhs: PositionID, rhs: PositionID) -> Bool {
    (lhs.portfolioID, lhs.coinID) < (rhs.portfolioID, rhs.coinID)
  }
}

/// The columns of the kinds of transaction in a CSV row (docs/trades.md): `kind`,
/// `income_type`, `amount` and `acquired`, checked as the database's CHECKs would (the import
/// writes with them off).
enum KindColumns {
  static func apply(
    kind: String?, incomeType: String?, amount: String?, acquired: String?, to trade: inout Trade,
    dates: Timestamp.Syntax
  ) throws {
    let text = (kind ?? "").lowercased()
    guard let kind = text.isEmpty ? .trade : TradeKind(rawValue: text) else {
      throw TradeInputError(
        field: "kind",
        reason: "'\(text)' is not one of "
          + TradeKind.allCases.map(\.rawValue).joined(separator: ", "))
    }
    trade.kind = kind
    // As `transfer` and `swap` refuse it: the fee is paid out of the row's units.
    if kind == .transfer || kind == .swap, trade.fee >= trade.quantity {
      throw TradeInputError(
        field: "fee",
        reason: "the fee \(trade.fee) must be less than the quantity \(trade.quantity) it is paid "
          + "out of")
    }
    let side = trade.side
    if (kind == .income || kind == .deposit) && side != .buy
      || kind == .withdrawal && side != .sell
    {
      throw TradeInputError(
        field: "side", reason: "a \(kind.rawValue) row is a \(side == .buy ? "sell" : "buy")")
    }
    let type = (incomeType ?? "").lowercased()
    if kind == .income {
      guard let parsed = IncomeType(rawValue: type) else {
        throw TradeInputError(
          field: "income_type",
          reason: "an income row needs one of "
            + IncomeType.allCases.map(\.rawValue).joined(separator: ", "))
      }
      trade.incomeType = parsed
    } else if !type.isEmpty {
      throw TradeInputError(field: "income_type", reason: "only income rows have one")
    }
    let needsAmount =
      kind == .deposit || kind == .swap || (kind == .transfer && side == .buy)
    if let amount, !amount.isEmpty {
      guard needsAmount else {
        throw TradeInputError(field: "amount", reason: "a \(kind.rawValue) row has none")
      }
      trade.amount = try TradeInput.amount(amount, field: "amount")
    } else if needsAmount {
      throw TradeInputError(field: "amount", reason: "a \(kind.rawValue) row needs its total")
    }
    if let acquired, !acquired.isEmpty {
      guard side == .buy, kind == .deposit || kind == .transfer else {
        throw TradeInputError(
          field: "acquired", reason: "only a deposit or a transfer's arriving row has one")
      }
      let time = try TradeInput.date(acquired, field: "acquired", syntax: dates).description
      guard time <= trade.executedAt else {
        throw TradeInputError(field: "acquired", reason: "'\(acquired)' is after the row's date")
      }
      trade.acquiredAt = time
    }
  }
}
