import FolioService
import FolioStorage

/// CSV output per RFC 4180: fields with commas, quotes or line breaks are quoted.
enum CSVWriter {
  /// `fields` as one CSV line. With `spreadsheetSafe`, a field beginning with `=`, `+`, `-`,
  /// `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it as text
  /// instead of running it as a formula (the file then no longer imports back exactly).
  static func line(_ fields: [String], spreadsheetSafe: Bool = false) -> String {
    fields.map { field(spreadsheetSafe ? defused($0) : $0) }.joined(separator: ",") + "\n"
  }

  /// `text` with a leading `'` when a spreadsheet would read it as a formula.
  static func defused(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first)
    else { return text }
    return "'" + text
  }

  /// A field, quoted when it holds a comma, a quote or a line break. The work is on bytes:
  /// "\r\n" is one Character in Swift, equal to neither "\r" nor "\n", and a quote followed
  /// by a combining mark is one Character too.
  static func field(_ text: String) -> String {
    let quote = UInt8(ascii: "\"")
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D
      })
    else { return text }
    var bytes: [UInt8] = [quote]
    bytes.reserveCapacity(text.utf8.count + 4)
    for byte in text.utf8 {
      if byte == quote { bytes.append(quote) }
      bytes.append(byte)
    }
    bytes.append(quote)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A JSON array written an element at a time, byte for byte as `JSONValue.array(items)`
/// rendered would be written whole (and a line feed, at the top level): a listing of any length
/// is never held.
struct JSONArrayWriter {
  private let out: TextSink
  /// The indentation of the line the array starts on: empty at the top level.
  private let indent: String
  private var empty = true

  init(_ out: TextSink) { self.init(out, indent: "") }

  fileprivate init(_ out: TextSink, indent: String) {
    self.out = out
    self.indent = indent
  }

  mutating func append(_ value: JSONValue) {
    let inner = indent + "  "
    out.write((empty ? "[\n" : ",\n") + inner + value.rendered(indent: inner))
    empty = false
  }

  /// Closes the array, and the line at the top level.
  func finish() {
    out.write((empty ? "[]" : "\n" + indent + "]") + (indent.isEmpty ? "\n" : ""))
  }
}

/// A top-level JSON object written a member at a time, byte for byte as `JSONValue.object`
/// rendered and a line feed: a member that is a long array is written an element at a time.
struct JSONObjectWriter {
  private let out: TextSink
  private var empty = true

  init(_ out: TextSink) { self.out = out }

  mutating func member(_ key: String, _ value: JSONValue) {
    start(key)
    out.write(value.rendered(indent: "  "))
  }

  /// A member whose value is an array of what `elements` appends.
  mutating func member(_ key: String, elements: (inout JSONArrayWriter) throws -> Void) rethrows {
    start(key)
    var array = JSONArrayWriter(out, indent: "  ")
    try elements(&array)
    array.finish()
  }

  func finish() { out.write(empty ? "{}\n" : "\n}\n") }

  private mutating func start(_ key: String) {
    out.write((empty ? "{\n  " : ",\n  ") + JSONValue.quote(key) + ": ")
    empty = false
  }
}

/// A text table with aligned columns whose cells may be coloured: widths are measured on the
/// plain text and the colour is added after padding, so escape codes never break the alignment.
///
/// A table fits a width (`TextLayout.width`): first its `shortenable` columns give up
/// columns (cells cut with "…"), down to their narrowest; when that is not enough, whole
/// columns go in `dropOrder`, the least important first (an empty one before any), and a last
/// line names them. A table that still does not fit once all those are gone is written as
/// narrow as it can be.
struct TextTable {
  let headers: [String]
  var rows: [[String]] = []
  /// For each row, whether each cell is up (green), down (red) or plain (nil).
  var directions: [[Bool?]] = []
  /// Indexes of the columns to right-align.
  var rightAligned: Set<Int> = []
  /// Columns whose text may be cut to fit, each with the narrowest it may become.
  var shortenable: [Int: Int] = [:]
  /// Columns that may be left out to fit, the first to go first.
  var dropOrder: [Int] = []

  mutating func append(_ cells: [String], directions cellDirections: [Bool?] = []) {
    rows.append(cells)
    directions.append(cellDirections)
  }

  /// The table as lines of at most `width` columns where it can fit; every cell goes through
  /// `FolioCLI.visible` before it is measured, so data cannot carry terminal escapes or break
  /// the layout with a line break, and only then may colour (folio's own escape codes) be added.
  func rendered(useColor: Bool = false, width: Int = .max) -> String {
    var measure = Measure(headers: headers)
    for row in rows { measure.add(row) }
    let fit = layout(measure, width: width)
    return fit.header
      + rows.enumerated().map { index, row in
        fit.line(row, index < directions.count ? directions[index] : [], useColor: useColor)
      }.joined() + fit.footer
  }

  /// What fitting the table needs to know of its rows, gathered a row at a time: a listing of
  /// any length is measured in one pass over its source and written in a second
  /// (`layout(_:width:)`), without holding its rows.
  struct Measure {
    /// Each column's widest cell, its header included.
    fileprivate var natural: [Int]
    /// Whether any row has text in the column.
    fileprivate var filled: [Bool]

    init(headers: [String]) {
      natural = headers.map { TextLayout.columns(FolioCLI.visible($0)) }
      filled = headers.map { _ in false }
    }

    mutating func add(_ cells: [String]) {
      for (index, cell) in cells.enumerated() where index < natural.count && !cell.isEmpty {
        natural[index] = max(natural[index], TextLayout.columns(FolioCLI.visible(cell)))
        filled[index] = true
      }
    }
  }

  /// The columns shown and their widths, for rows measured by `measure`.
  func layout(_ measure: Measure, width: Int) -> Layout {
    let empty = Set(headers.indices.filter { !measure.filled[$0] })
    let (shown, widths) = fitted(measure.natural, into: width, empty: empty)
    let left = headers.indices.filter { !shown.contains($0) }
    let footer =
      left.isEmpty
      ? ""
      : TextLayout.wrap(
        "(not shown, to fit \(width) columns: "
          + left.map { FolioCLI.visible(headers[$0]) }.joined(separator: ", ") + ")",
        width: width) + "\n"
    return Layout(
      shown: shown, widths: widths, rightAligned: rightAligned, headers: headers, footer: footer)
  }

  /// A table's lines, once its rows are measured: the header, a line per row, the footer.
  struct Layout {
    fileprivate let shown: [Int]
    fileprivate let widths: [Int]
    fileprivate let rightAligned: Set<Int>
    fileprivate let headers: [String]
    /// The line naming the columns left out to fit the width, if any.
    let footer: String

    var header: String { line(headers, [], useColor: false) }

    /// One row's line: each cell made visible, cut to its column and padded.
    func line(_ cells: [String], _ styles: [Bool?] = [], useColor: Bool = false) -> String {
      shown.map { index in
        let cell = index < cells.count ? FolioCLI.visible(cells[index]) : ""
        let text = TextLayout.shortened(cell, to: widths[index])
        let pad = String(repeating: " ", count: max(0, widths[index] - TextLayout.columns(text)))
        let styled = MarketFormat.colored(
          text, up: index < styles.count ? styles[index] : nil, useColor)
        return rightAligned.contains(index) ? pad + styled : styled + pad
      }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }
  }

  /// The columns to show and each column's width, so the lines fit `width` if they can. Of
  /// the columns that may go, those with no text in any row (`empty`) go first.
  private func fitted(_ natural: [Int], into width: Int, empty: Set<Int>) -> ([Int], [Int]) {
    var shown = Array(natural.indices)
    var widths = natural
    var drops = (dropOrder.filter(empty.contains) + dropOrder.filter { !empty.contains($0) })[...]
    while true {
      let total = shown.reduce(0) { $0 + widths[$1] } + 2 * max(0, shown.count - 1)
      var excess = total - width
      guard excess > 0 else { break }
      let spare = shown.reduce(0) { sum, index in
        sum + max(0, widths[index] - (shortenable[index] ?? widths[index]))
      }
      // An empty column goes before any text is cut.
      let emptyNext = drops.first.map(empty.contains) ?? false
      if (spare >= excess && !emptyNext) || drops.isEmpty {
        // Shorten the shortenable columns, the rightmost first.
        for index in shown.reversed() where excess > 0 {
          guard let narrowest = shortenable[index], widths[index] > narrowest else { continue }
          let cut = min(excess, widths[index] - narrowest)
          widths[index] -= cut
          excess -= cut
        }
        break
      }
      if let dropped = drops.popFirst() { shown.removeAll { $0 == dropped } }
    }
    return (shown, widths)
  }
}

extension String {
  /// The text made safe to show on a terminal (`FolioCLI.visible`), for a data field printed
  /// outside a table: a note, a coin name, a location's description.
  var shown: String { FolioCLI.visible(self) }

  func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
