import FolioService
import FolioStorage

/// CSV output per RFC 4180: fields with commas, quotes or line breaks are quoted.
enum CSVWriter {
  static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\n"
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

/// A text table with aligned columns whose cells may be coloured: widths are measured on the
/// plain text and the colour is added after padding, so escape codes never break the alignment.
struct TextTable {
  let headers: [String]
  var rows: [[String]] = []
  /// For each row, whether each cell is up (green), down (red) or plain (nil).
  var directions: [[Bool?]] = []
  /// Indexes of the columns to right-align.
  var rightAligned: Set<Int> = []

  mutating func append(_ cells: [String], directions cellDirections: [Bool?] = []) {
    rows.append(cells)
    directions.append(cellDirections)
  }

  /// The table as lines; every cell goes through `FolioCLI.visible` before it is measured, so
  /// data cannot carry terminal escapes or break the layout with a line break, and only then
  /// may colour (folio's own escape codes) be added.
  func rendered(useColor: Bool = false) -> String {
    let headers = headers.map(FolioCLI.visible)
    let rows = rows.map { $0.map(FolioCLI.visible) }
    var widths = headers.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    func line(_ cells: [String], _ styles: [Bool?]) -> String {
      cells.enumerated().map { index, cell in
        let width = index < widths.count ? widths[index] : cell.count
        let pad = String(repeating: " ", count: max(0, width - cell.count))
        let styled = MarketFormat.colored(
          cell, up: index < styles.count ? styles[index] : nil, useColor)
        return rightAligned.contains(index) ? pad + styled : styled + pad
      }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }
    return line(headers, [])
      + rows.enumerated().map { line($1, $0 < directions.count ? directions[$0] : []) }.joined()
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
