import FolioService
import FolioStorage
import Foundation

/// How market figures are written in text output: prices, abbreviated large amounts,
/// percentages, snapshot sources and the terminal sparkline chart.
enum MarketFormat {
  // MARK: - Numbers

  /// A price with grouped thousands and as many decimals as its size needs: two from 1000 up
  /// (`$39,935.30`), up to four from 1 (`$84.8128`), up to six below 1 (`$0.516645`), or four
  /// significant digits when six decimals would show fewer (`$0.000008839`).
  static func price(_ value: ExactDecimal, _ currency: String) -> String {
    money(plain: priceDigits(value), currency)
  }

  /// The digits of `price` without the currency.
  static func priceDigits(_ value: ExactDecimal) -> String {
    let magnitude = value.magnitude
    var places: Int
    if magnitude >= ExactDecimal(1000) {
      places = 2
    } else if magnitude >= ExactDecimal.one || magnitude.isZero {
      places = magnitude.isZero ? 2 : 4
    } else {
      // Six decimals, or four significant digits when that needs more.
      var probe = magnitude
      var shifts = 0
      while probe < ExactDecimal.one && shifts < 18 {
        probe = (try? probe * ExactDecimal(10)) ?? ExactDecimal.one
        shifts += 1
      }
      places = min(max(6, shifts + 3), 18)
    }
    var text = value.formatted(places: places)
    // Keep at least two decimals, drop further trailing zeros.
    if let dot = text.firstIndex(of: ".") {
      while text.last == "0" && text.distance(from: dot, to: text.endIndex) > 3 {
        text.removeLast()
      }
    }
    return Formatting.grouped(text)
  }

  /// An amount with two decimals and grouped thousands: `$19,967.65`.
  static func amount(_ value: ExactDecimal, _ currency: String) -> String {
    money(plain: Formatting.grouped(value.formatted(places: 2)), currency)
  }

  /// A large amount abbreviated as the app did: `$2.58Tr`, `$342.25Bn`, `$12.35M`, `$123.46K`
  /// (two decimals, rounded half-to-even; a value that rounds up to 1,000 of a unit takes the
  /// next unit: 999,999 is `$1.00M`, not `$1,000.00K`). Below 1,000 the amount is written out.
  static func abbreviated(_ value: ExactDecimal, _ currency: String) -> String {
    money(plain: abbreviatedDigits(value), currency)
  }

  /// The digits of `abbreviated` without the currency: `2.58Tr`, `12.35M`, `999.50`.
  static func abbreviatedDigits(_ value: ExactDecimal) -> String {
    let units: [(ExactDecimal, String)] = [
      (ExactDecimal(1_000_000_000_000), "Tr"), (ExactDecimal(1_000_000_000), "Bn"),
      (ExactDecimal(1_000_000), "M"), (ExactDecimal(1_000), "K"), (ExactDecimal.one, ""),
    ]
    for (index, (unit, suffix)) in units.enumerated()
    where value.magnitude >= unit || unit == .one {
      guard let scaled = try? (value / unit).rounded(places: 2) else { break }
      if index > 0, scaled.magnitude >= ExactDecimal(1000),
        let bigger = try? (value / units[index - 1].0).rounded(places: 2)
      {
        return Formatting.grouped(bigger.formatted(places: 2)) + units[index - 1].1
      }
      return Formatting.grouped(scaled.formatted(places: 2)) + suffix
    }
    return Formatting.grouped(value.formatted(places: 2))
  }

  /// A percentage with its sign and two decimals: `+0.63%`, `-3.48%`; nil is `—`.
  static func percent(_ value: ExactDecimal?) -> String {
    guard let value else { return "—" }
    let text = value.formatted(places: 2)
    if text.hasPrefix("-") || text == "0.00" { return text + "%" }
    return "+" + text + "%"
  }

  private static let symbols = ["usd": "$", "eur": "€", "gbp": "£", "jpy": "¥"]

  private static func money(plain: String, _ currency: String) -> String {
    if let symbol = symbols[currency] {
      return plain.hasPrefix("-") ? "-" + symbol + plain.dropFirst() : symbol + plain
    }
    return plain + " " + currency.uppercased()
  }

  // MARK: - Sources and times

  /// Where a snapshot came from, briefly: `imported from markets_usd.json` or
  /// `fetched from api.coingecko.com`.
  static func source(_ source: String) -> String {
    if source.hasPrefix("import:") {
      return "imported from " + PathName.name(of: String(source.dropFirst(7)))
    }
    return "fetched from " + (URL(string: source)?.host ?? source)
  }

  /// The line every price output starts with.
  static func snapshotLine(_ snapshot: MarketSnapshotRef) -> String {
    "Prices in \(snapshot.vsCurrency.uppercased()) as of \(snapshot.fetchedAt) "
      + "(\(source(snapshot.source)))"
  }

  // MARK: - Text

  /// Wraps `text` at `width` columns with `indent` before every line; paragraphs stay apart.
  static func wrap(_ text: String, width: Int = 78, indent: String = "  ") -> [String] {
    var lines: [String] = []
    for paragraph in text.components(separatedBy: "\n") {
      let words = paragraph.split(separator: " ", omittingEmptySubsequences: true)
      if words.isEmpty {
        lines.append("")
        continue
      }
      var line = ""
      for word in words {
        if line.isEmpty {
          line = String(word)
        } else if indent.count + line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          lines.append(indent + line)
          line = String(word)
        }
      }
      lines.append(indent + line)
    }
    return lines
  }

  // MARK: - Colour

  /// `text` in green (up) or red (down) when colour is on.
  static func colored(_ text: String, up: Bool?, _ useColor: Bool) -> String {
    guard useColor, let up else { return text }
    return (up ? "\u{1B}[32m" : "\u{1B}[31m") + text + "\u{1B}[0m"
  }

  /// True for a positive change, false for a negative one, nil for none.
  static func direction(_ value: ExactDecimal?) -> Bool? {
    guard let value, !value.isZero else { return nil }
    return value.isPositive
  }
}

/// A text table whose cells may be coloured: widths are measured on the plain text and the
/// colour is added after padding, so escape codes never break the alignment.
struct StyledTable {
  let headers: [String]
  var rows: [[String]] = []
  /// For each row, whether each cell is up (green), down (red) or plain (nil).
  var directions: [[Bool?]] = []
  var rightAligned: Set<Int> = []

  mutating func append(_ cells: [String], directions cellDirections: [Bool?] = []) {
    rows.append(cells)
    directions.append(cellDirections)
  }

  /// The table as lines; cells go through `FolioCLI.visible` before they are measured, and
  /// only then may colour (folio's own escape codes) be added.
  func rendered(useColor: Bool) -> String {
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
    return line(headers, []) + zip(rows, directions).map { line($0, $1) }.joined()
  }
}

/// The 7-day price chart drawn with block characters.
enum SparklineChart {
  private static let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// `height` rows of at most `width` columns, top row first. Points are averaged into
  /// columns; nil points are skipped. Empty when fewer than two points are known.
  static func rows(_ points: [Double?], width: Int = 56, height: Int = 6) -> [String] {
    let known = points.compactMap { $0 }
    guard known.count >= 2, let low = known.min(), let high = known.max(), width > 0,
      height > 0
    else { return [] }
    let columns = min(width, points.count)
    var values: [Double] = []
    for column in 0..<columns {
      let start = column * points.count / columns
      let end = max(start + 1, (column + 1) * points.count / columns)
      let bucket = points[start..<end].compactMap { $0 }
      values.append(
        bucket.isEmpty ? (values.last ?? low) : bucket.reduce(0, +) / Double(bucket.count))
    }
    let levels = height * 8
    let span = high - low
    let heights = values.map { value -> Int in
      // A flat week still draws a one-eighth line rather than nothing.
      guard span > 0 else { return levels / 2 }
      return max(1, min(levels, Int(((value - low) / span * Double(levels - 1)).rounded()) + 1))
    }
    var lines: [String] = []
    for row in (0..<height).reversed() {
      let floor = row * 8
      lines.append(
        String(heights.map { blocks[max(0, min(8, $0 - floor))] }).trimmingTrailingSpaces())
    }
    return lines
  }
}
