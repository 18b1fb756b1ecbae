import FolioService
import FolioStorage

/// How figures are written in text output (text, Markdown, HTML): money, percentages,
/// quantities and block charts. JSON and CSV always carry the exact decimal. Where outputs
/// write a figure differently, the difference is a parameter here, not a second formatter.
enum Formatting {
  /// How many decimals an amount shows. All but `ledger` group thousands in the whole part.
  enum Digits {
    /// Two decimals: `19,967.65`.
    case cents
    /// A price as the ledger holds it: exact, with at least two decimals and at most eight
    /// (rounded half to even beyond), so quantity × price visibly gives the value:
    /// `1.0028` × 100 = `100.28`, `40,000.123`, `0.00001234`, `12.50`. The ledger commands
    /// (`holdings`, `tx`, `locations show`) write prices so; their amounts use `cents`.
    case ledger
    /// As many decimals as a price's size needs: two from 1000 up (`39,935.30`), up to four
    /// from 1 (`84.8128`), up to six below 1 (`0.516645`), or four significant digits when six
    /// decimals would show fewer (`0.000008839`).
    case price
    /// Abbreviated as the app does: `2.58Tr`, `342.25Bn`, `12.35M`, `123.46K` (two decimals,
    /// rounded half-to-even; a value that rounds up to 1,000 of a unit takes the next unit:
    /// 999,999 is `1.00M`, not `1,000.00K`). Below 1,000 the amount is written out.
    case abbreviated
  }

  /// When a figure carries a sign.
  enum Sign {
    /// Only a minus: `-3.50`, `12.00`.
    case minusOnly
    /// A plus on everything not negative, zero included: `+0.00` (ledger profits).
    case always
    /// A plus only when the figure as shown is above zero: `+12.00`, `0.00`, `-3.50`.
    case nonZero
  }

  /// An amount in `currency` (`$12.00`, `€12.00`, or the code after other figures:
  /// `12.00 CHF`); a nil currency writes the figure alone. A nil value is `missing`.
  static func money(
    _ value: ExactDecimal?, _ digits: Digits = .cents, in currency: String? = nil,
    sign: Sign = .minusOnly, missing: String = "n/a"
  ) -> String {
    guard let value else { return missing }
    let plain = signed(self.digits(value, digits), sign, value)
    guard let currency else { return plain }
    if let symbol = symbols[currency] {
      let mark = plain.first == "-" || plain.first == "+" ? String(plain.prefix(1)) : ""
      return mark + symbol + plain.dropFirst(mark.count)
    }
    return plain + " " + currency.uppercased()
  }

  /// What a percentage measures, which sets its decimals and sign.
  enum PercentStyle {
    /// A change: `+0.63%`, `-3.48%`, `0.00%`.
    case change
    /// A level such as BTC dominance: `52.31%`.
    case level
    /// A share of the portfolio: `61.2%`.
    case share
  }

  /// A percentage in `style`; a nil value is `missing`.
  static func percent(
    _ value: ExactDecimal?, _ style: PercentStyle = .change, missing: String = "n/a"
  ) -> String {
    guard let value else { return missing }
    let text = value.formatted(places: style == .share ? 1 : 2)
    return signed(text, style == .change ? .nonZero : .minusOnly, value) + "%"
  }

  /// A quantity exactly as stored, with thousands separators in the whole part.
  static func quantity(_ value: ExactDecimal) -> String {
    grouped(value.description)
  }

  private static let symbols = ["usd": "$", "eur": "€", "gbp": "£", "jpy": "¥"]

  private static func signed(_ text: String, _ sign: Sign, _ value: ExactDecimal) -> String {
    guard !text.hasPrefix("-") else { return text }
    switch sign {
    case .minusOnly: return text
    case .always: return value.isNegative ? text : "+" + text
    case .nonZero:
      return text.contains(where: { ("1"..."9").contains($0) }) ? "+" + text : text
    }
  }

  private static func digits(_ value: ExactDecimal, _ digits: Digits) -> String {
    switch digits {
    case .cents:
      return grouped(value.formatted(places: 2))
    case .ledger:
      var text = value.rounded(places: 8).description
      if text == "-0" { text = "0" }
      let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 }
      if let decimals, decimals < 2 { text += String(repeating: "0", count: 2 - decimals) }
      return grouped(decimals == nil ? text + ".00" : text)
    case .price:
      return grouped(priceDigits(value))
    case .abbreviated:
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
          return grouped(bigger.formatted(places: 2)) + units[index - 1].1
        }
        return grouped(scaled.formatted(places: 2)) + suffix
      }
      return grouped(value.formatted(places: 2))
    }
  }

  private static func priceDigits(_ value: ExactDecimal) -> String {
    let magnitude = value.magnitude
    var places = magnitude >= ExactDecimal(1000) || magnitude.isZero ? 2 : 4
    if magnitude < .one && !magnitude.isZero {
      // Six decimals, or four significant digits when that needs more. Below 1 the units
      // (value × 10¹⁸) have fewer than 19 digits, and the first significant one is at the
      // place `19 - digits`.
      let first = 19 - String(magnitude.units).count
      places = min(max(6, first + 3), 18)
    }
    var text = value.formatted(places: places)
    // Keep at least two decimals, drop further trailing zeros.
    if let dot = text.firstIndex(of: ".") {
      while text.last == "0" && text.distance(from: dot, to: text.endIndex) > 3 {
        text.removeLast()
      }
    }
    return text
  }

  /// Inserts thousands separators into the whole part of a plain decimal string, such as
  /// "-1234567.5" (ASCII: it works on the bytes, as it runs for every number of a table).
  private static func grouped(_ text: String) -> String {
    let bytes = text.utf8
    let first = bytes.first == UInt8(ascii: "-") ? 1 : 0
    let point =
      bytes.firstIndex(of: UInt8(ascii: ".")).map { bytes.distance(from: bytes.startIndex, to: $0) }
      ?? bytes.count
    guard point - first > 3 else { return text }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + (point - first) / 3)
    for (offset, byte) in bytes.enumerated() {
      if offset > first && offset < point && (point - offset) % 3 == 0 {
        result.append(UInt8(ascii: ","))
      }
      result.append(byte)
    }
    return String(decoding: result, as: UTF8.self)
  }

  // MARK: - Charts

  /// What a chart draws for a column without any known point.
  enum Gaps {
    /// Nothing: a day without a value is not drawn as a guess.
    case blank
    /// The column before it again (the lowest level for a first column): a price line.
    case carried
  }

  /// `height` rows of block characters, top row first, at most `width` columns: points are
  /// averaged into columns and the lowest value still draws a one-eighth block, so it is not
  /// mistaken for a gap; a flat series draws at half height. Empty when fewer than two points
  /// are known.
  static func chartRows(_ points: [ExactDecimal?], width: Int, height: Int, gaps: Gaps)
    -> [String]
  {
    let known = points.compactMap { $0?.doubleValue }
    guard known.count >= 2, let low = known.min(), let high = known.max(), width > 0, height > 0
    else { return [] }
    let columns = min(width, points.count)
    let steps = height * 8
    var levels: [Int?] = []
    var previous = low
    for column in 0..<columns {
      let start = column * points.count / columns
      let end = max(start + 1, (column + 1) * points.count / columns)
      let bucket = points[start..<end].compactMap { $0?.doubleValue }
      guard !bucket.isEmpty || gaps == .carried else {
        levels.append(nil)
        continue
      }
      let value = bucket.isEmpty ? previous : bucket.reduce(0, +) / Double(bucket.count)
      previous = value
      levels.append(
        high > low
          ? max(
            1, min(steps, Int(((value - low) / (high - low) * Double(steps - 1)).rounded()) + 1))
          : steps / 2)
    }
    let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    return (0..<height).reversed().map { row in
      String(levels.map { level in level.map { blocks[max(0, min(8, $0 - row * 8))] } ?? " " })
        .trimmingTrailingSpaces()
    }
  }

  /// A one-line sparkline of a price series: `▁▂▄▅▇█`.
  static func sparkline(_ points: [ExactDecimal?], width: Int = 14) -> String {
    chartRows(points, width: width, height: 1, gaps: .carried).first ?? ""
  }

  /// `chartRows` with the highest value written left of the top row and the lowest left of the
  /// bottom one: `$20.00 ┤   █▁`. At most `width` columns of blocks, fewer when the lines
  /// with their labels would be wider than `fitting`. `style` is applied to the blocks only
  /// (colour).
  static func chart(
    _ points: [ExactDecimal?], width: Int, fitting: Int = .max, height: Int, gaps: Gaps,
    label: (ExactDecimal) -> String, style: (String) -> String = { $0 }
  ) -> [String] {
    let known = points.compactMap { $0 }
    guard let high = known.max(), let low = known.min() else { return [] }
    let (top, bottom) = (label(high), label(low))
    let labelWidth = max(top.count, bottom.count)
    let rows = chartRows(
      points, width: min(width, max(2, fitting - labelWidth - 2)), height: height, gaps: gaps)
    guard !rows.isEmpty else { return [] }
    return rows.enumerated().map { index, cells in
      let text = index == 0 ? top : index == rows.count - 1 ? bottom : ""
      return String(repeating: " ", count: labelWidth - text.count) + text + " ┤" + style(cells)
    }
  }
}

extension Formatting {
  /// The method as headers show it: `fifo`, or each portfolio's when they differ
  /// (`each portfolio's own: aaa lifo, main fifo`).
  static func method(_ method: MethodInUse) -> String {
    switch method {
    case .one(let method): method.rawValue
    case .eachOwn(let each):
      "each portfolio's own: "
        + each.map { "\($0.portfolio) \($0.method.rawValue)" }.joined(separator: ", ")
    }
  }

  /// The JSON members that say the method: `method` the one method's name, or null with
  /// `methods` giving each portfolio's when they differ.
  static func methodMembers(_ method: MethodInUse) -> [(String, JSONValue)] {
    switch method {
    case .one(let method): [("method", .string(method.rawValue))]
    case .eachOwn(let each):
      [
        ("method", .null),
        ("methods", .object(each.map { ($0.portfolio, .string($0.method.rawValue)) })),
      ]
    }
  }
}
