import FolioStorage
import Foundation

/// The exchange exports `folio import exchange` reads (docs/import.md).
public enum ExchangeFormat: String, Sendable, CaseIterable {
  /// Coinbase's transaction history CSV.
  case coinbase
  /// Kraken's ledger export, `ledgers.csv`.
  case kraken
  /// Binance's transaction history statement.
  case binance

  /// The columns a header must have to be this export (compared as `ExchangeColumns.key`).
  var requiredColumns: [String] {
    switch self {
    case .coinbase: ["timestamp", "transaction type", "asset", "quantity transacted"]
    case .kraken: ["txid", "refid", "time", "type", "asset", "amount", "fee"]
    case .binance: ["utc_time", "account", "operation", "coin", "change"]
    }
  }

  /// Whether `fields` is this export's header row.
  func isHeader(_ fields: [String]) -> Bool {
    let names = Set(fields.map(ExchangeColumns.key))
    return requiredColumns.allSatisfy(names.contains)
  }
}

/// Where each named column of an export is.
struct ExchangeColumns {
  private let index: [String: Int]

  /// A column name as compared: trimmed, lowercased.
  static func key(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespaces).lowercased()
  }

  init(_ header: CSVRecord) {
    var index: [String: Int] = [:]
    for (position, name) in header.fields.enumerated() where index[Self.key(name)] == nil {
      index[Self.key(name)] = position
    }
    self.index = index
  }

  /// The field of the first of `names` the header has ("" when none, or the row is short).
  func field(_ record: CSVRecord, _ names: String...) -> String {
    for name in names {
      if let position = index[name] {
        return position < record.fields.count
          ? record.fields[position].trimmingCharacters(in: .whitespaces) : ""
      }
    }
    return ""
  }

  func has(_ name: String) -> Bool { index[name] != nil }
}

/// An amount of one asset, named by its ticker as the exchange writes it once normalised
/// (`BTC`, `USD`); the quantity is above zero.
struct Movement: Equatable, Sendable {
  var asset: String
  var quantity: ExactDecimal
}

/// What one or more rows of an export did, before it is mapped onto folio's kinds.
enum ExchangeEventKind: Equatable, Sendable {
  /// Assets received for assets spent, with fees (one or more rows: a trade, a dust
  /// conversion). Quantities are gross: the fees are separate.
  case trade(received: [Movement], spent: [Movement], fees: [Movement])
  /// Coins received as income.
  case income(Movement, IncomeType)
  /// Assets that came in from outside the exchange.
  case deposit(Movement)
  /// Assets that left the exchange, the fee included.
  case withdrawal(Movement)
}

/// One event of an export: one or more rows, its time and its id.
struct ExchangeEvent: Sendable {
  var kind: ExchangeEventKind
  var time: Timestamp
  /// The external id of the event's first stored row (`kraken:REFID`, ...); the other rows'
  /// ids add a suffix to it.
  var id: String
  /// The file line of the event's first row.
  var line: Int
  /// The operation as the export names it, for the note.
  var operation: String
  /// A total value the export gives for the event (Coinbase's subtotal), and its currency.
  var value: ExactDecimal?
  var valueCurrency: String?
}

/// What a parser made of an export's rows.
struct ParsedExport {
  var events: [ExchangeEvent] = []
  /// Rows of operations folio does not know: their line and the operation.
  var unknown: [(line: Int, operation: String)] = []
  /// Rows that move assets between the exchange's own accounts (or are duplicates the
  /// exchange marks as such): nothing to store.
  var internalRows = 0
  /// Data rows read.
  var rows = 0
  /// Problems, each `FILE:LINE: reason`.
  var problems: [String] = []
  /// The times of the first and the last data row, to tell a newest-first file.
  var firstTime: Timestamp?
  var lastTime: Timestamp?

  /// Rows repeated (the same id and fields as an earlier row: overlapping exports joined),
  /// left out.
  var duplicateRows = 0
  /// The line and the fields of each row id met, to tell a repeated row.
  private var rowIDs: [ByteKey: (line: Int, fields: ByteKey)] = [:]

  /// Reads each data row `next` gives (blank records left out) with `read`; what `read` throws
  /// is the row's problem, `FILE:LINE: reason`; what `next` throws (the file is not CSV) ends
  /// the reading.
  mutating func readRows(
    _ next: () throws -> CSVRecord?, source: String,
    _ read: (CSVRecord, inout ParsedExport) throws -> Void
  ) throws {
    while let record = try next() {
      guard !record.isBlank else { continue }
      rows += 1
      do {
        try read(record, &self)
      } catch {
        problems.append(ExchangeFields.problem(error, source: source, line: record.line))
      }
    }
  }

  /// Whether the row `record` with the exchange's own unique id `id` is met for the first
  /// time: false for a repeat of an earlier row (counted as a duplicate, to leave out); a row
  /// with an earlier row's id but other fields is refused.
  mutating func isFirst(_ record: CSVRecord, id: String, column: String) throws -> Bool {
    let (key, fields) = (ByteKey(id), ByteKey(record.fields))
    guard let earlier = rowIDs[key] else {
      rowIDs[key] = (record.line, fields)
      return true
    }
    guard earlier.fields == fields else {
      throw TradeInputError(
        field: column,
        reason: "'\(id)' is also on line \(earlier.line) with other values; an id is one "
          + "transaction")
    }
    duplicateRows += 1
    return false
  }

  /// Puts the events in booking order, oldest first, and gives identical events the ids
  /// `#2`, `#3`, ...; forgets the row ids, needed only while reading.
  mutating func order() {
    rowIDs = [:]
    // Oldest first; events at one time in the order the file has them, read oldest first.
    // A file whose rows all share one time is taken as newest first, as the exchanges write.
    let newestFirst =
      (firstTime.map { time in lastTime.map { time >= $0 } ?? false }) ?? false
    let direction = newestFirst ? -1 : 1
    events.sort { ($0.time, $0.line * direction) < ($1.time, $1.line * direction) }
    // Rows alike in every field at one time (two equal rewards) get ids #2, #3, ...
    var seen: [ByteKey: Int] = [:]
    for index in events.indices {
      let id = events[index].id
      let key = ByteKey(id)
      let count = (seen[key] ?? 0) + 1
      seen[key] = count
      if count > 1 { events[index].id = "\(id)#\(count)" }
    }
  }

  mutating func saw(_ time: Timestamp) {
    if firstTime == nil { firstTime = time }
    lastTime = time
  }
}

extension CSVRecord {
  /// Whether the record has nothing in it: an empty line, or only commas and spaces (as a
  /// spreadsheet leaves after the last row).
  var isBlank: Bool {
    fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
  }
}

/// Reading the fields every export shares.
enum ExchangeFields {
  /// A time as exchanges write it: ISO-8601, `YYYY-MM-DD HH:MM:SS` (UTC), with a trailing
  /// ` UTC` (Coinbase); with `shortYear`, `YY-MM-DD HH:MM:SS` too, a year of this century
  /// (Binance's newer statements write `24-01-03 10:00:00`).
  static func time(_ text: String, shortYear: Bool = false) throws -> Timestamp {
    var text = text
    if text.hasSuffix(" UTC") { text.removeLast(4) }
    let digits = text.utf8.prefix(9).map { $0 >= 0x30 && $0 <= 0x39 }
    if shortYear, digits == [true, true, false, true, true, false, true, true, false],
      text.utf8.dropFirst(2).first == UInt8(ascii: "-")
    {
      text = "20" + text
    }
    return try TradeInput.date(text, field: "time", syntax: .exchange(zone: nil))
  }

  /// A signed decimal; with `money`, currency signs are dropped first and commas are read as
  /// thousands separators (Coinbase writes `$1,234.50`), but only in whole groups of three
  /// digits after a first group of 1 to 3 digits not starting with 0: `0,5`, `0,002` or
  /// `30000,00` (a decimal comma) is refused rather than read as 5, 2 or 3000000.
  static func decimal(_ text: String, field: String, money: Bool = false) throws -> ExactDecimal {
    var text = text
    if money {
      text.removeAll { "$€£".contains($0) }
      if text.contains(",") {
        let whole = text.split(separator: ".", omittingEmptySubsequences: false)[0]
        let groups = whole.drop { "+-".contains($0) }.split(
          separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(groups[0].count), groups[0].first != "0",
          groups.dropFirst().allSatisfy({ $0.count == 3 }),
          groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else {
          throw TradeInputError(
            field: field,
            reason: "'\(text)' has a comma that is not a thousands separator (1,234.50): "
              + "folio reads a point as the decimal mark; export with a point, or fix the "
              + "column", malformed: true)
        }
        text.removeAll { $0 == "," }
      }
    }
    do {
      return try ExactDecimal(parsing: text)
    } catch {
      throw TradeInputError(
        field: field, reason: "'\(text)' is not a number", malformed: true)
    }
  }

  /// The problem a row (or an event) of `source` at `line` is, `FILE:LINE: reason`: the
  /// error's description, else `unknown`.
  static func problem(
    _ error: any Error, source: String, line: Int, unknown: String = "cannot be read"
  ) -> String {
    "\(source):\(line): \((error as? LocalizedError)?.errorDescription ?? unknown)"
  }

  /// An id made from an event's time and rows, for exports that give none: stable whatever
  /// the order of the rows.
  static func madeUpID(prefix: String, time: Timestamp, rows: [[String]]) -> String {
    let text = rows.map { $0.joined(separator: "\u{1f}") }.sorted().joined(separator: "\u{1e}")
    return "\(prefix):\(time.description):\(SHA256.hex(Array(text.utf8)).prefix(12))"
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Fiat currencies: never coins of the directory.
enum Fiat {
  static let codes: Set<String> = [
    "USD", "EUR", "GBP", "CAD", "JPY", "CHF", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "TRY",
    "BRL", "RUB", "UAH", "KRW", "SGD", "HKD", "INR", "ZAR", "MXN", "ARS", "NGN", "AED",
  ]
}
