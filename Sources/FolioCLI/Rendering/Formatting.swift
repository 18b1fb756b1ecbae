import FolioStorage

/// How numbers are written in text output. JSON and CSV always carry the exact decimal.
enum Formatting {
  /// Money for people: two decimals with thousands separators ("61,000.00"); amounts under 1
  /// keep up to 8 decimals so small prices stay readable ("0.00001234").
  static func money(_ value: ExactDecimal) -> String {
    if value.magnitude < .one && !value.isZero {
      var text = value.rounded(places: 8).description
      if !text.contains(".") { text += ".00" }
      return text
    }
    return grouped(value.formatted(places: 2))
  }

  /// A signed money amount: "+1,234.50" or "-12.00".
  static func signedMoney(_ value: ExactDecimal) -> String {
    (value.isNegative ? "" : "+") + money(value)
  }

  /// A percentage with two decimals and a sign: "+5.00%".
  static func percent(_ value: ExactDecimal) -> String {
    (value.isNegative ? "" : "+") + value.formatted(places: 2) + "%"
  }

  /// A quantity exactly as stored, with thousands separators in the whole part.
  static func quantity(_ value: ExactDecimal) -> String {
    grouped(value.description)
  }

  /// Inserts thousands separators into the whole part of a plain decimal string.
  static func grouped(_ text: String) -> String {
    var sign = ""
    var body = Substring(text)
    if body.hasPrefix("-") {
      sign = "-"
      body = body.dropFirst()
    }
    let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = Array(parts[0])
    var result = ""
    for (index, digit) in whole.enumerated() {
      if index > 0 && (whole.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return sign + result + (parts.count > 1 ? "." + parts[1] : "")
  }
}
