import FolioStorage
import Foundation

/// Reads typed fields of one JSON object, naming the object in every error.
struct FieldReader {
  let object: JSONObject
  var context: String

  /// With `maxLength`, a longer text is refused: a column whose CHECK limits its length
  /// (`MarketRecords.symbolLimit`, `nameLimit`) would otherwise refuse it with SQLite's error.
  func requiredString(_ key: String, allowEmpty: Bool = false, maxLength: Int? = nil)
    throws(PayloadError) -> String
  {
    guard let value = object[key] else { throw PayloadError("\(context) has no \(key)") }
    guard case .string(let text) = value.kind else {
      throw PayloadError("\(context): \(key) is \(value.kindName), expected a string")
    }
    guard allowEmpty || !text.isEmpty else { throw PayloadError("\(context): \(key) is empty") }
    try check(key, text, maxLength: maxLength)
    return text
  }

  func string(_ key: String, maxLength: Int? = nil) throws(PayloadError) -> String? {
    switch object[key]?.kind {
    case nil, .null?: return nil
    case .string(let text)?:
      try check(key, text, maxLength: maxLength)
      return text
    case let value?:
      throw PayloadError("\(context): \(key) is \(value.name), expected a string or null")
    }
  }

  /// Characters as SQLite's `length()` counts them: Unicode scalars.
  private func check(_ key: String, _ text: String, maxLength: Int?) throws(PayloadError) {
    guard let maxLength else { return }
    let length = text.unicodeScalars.count
    guard length <= maxLength else {
      throw PayloadError(
        "\(context): \(key) is \(length) characters long; folio stores at most \(maxLength)")
    }
  }

  func object(_ key: String) throws(PayloadError) -> JSONObject? {
    switch object[key]?.kind {
    case nil, .null?: return nil
    case .object(let inner)?: return inner
    case let value?:
      throw PayloadError("\(context): \(key) is \(value.name), expected an object or null")
    }
  }

  /// A number as an exact decimal; null or missing is nil; out of range is nil with a warning.
  func decimal(_ key: String, notes: inout PayloadNotes) throws(PayloadError) -> ExactDecimal? {
    switch object[key]?.kind {
    case nil, .null?: return nil
    case .number(let literal)?:
      switch JSONDecimal.convert(literal) {
      case .exact(let value): return value
      case .rounded(let value):
        notes.roundedCount += 1
        return value
      case .outOfRange:
        notes.warnings.append(
          "\(context): \(key) \(literal) is too large to store exactly; left empty")
        return nil
      }
    case let value?:
      throw PayloadError("\(context): \(key) is \(value.name), expected a number or null")
    }
  }

  /// A whole number; null or missing is nil.
  func integer(_ key: String) throws(PayloadError) -> Int? {
    switch object[key]?.kind {
    case nil, .null?: return nil
    case .number(let literal)?:
      guard let value = JSONDecimal.convert(literal).value, value.rounded(places: 0) == value,
        let whole = Int(value.description)
      else {
        throw PayloadError("\(context): \(key) is \(literal), expected a whole number")
      }
      return whole
    case let value?:
      throw PayloadError("\(context): \(key) is \(value.name), expected a number or null")
    }
  }

  /// An ISO-8601 time, normalised to whole UTC seconds; an unreadable one is nil with a warning.
  func time(_ key: String, notes: inout PayloadNotes) throws(PayloadError) -> String? {
    guard let text = try string(key), !text.isEmpty else { return nil }
    guard let normalized = try? Timestamp(parsing: text, .lenient).description else {
      notes.warnings.append("\(context): \(key) '\(text)' is not a readable time; left empty")
      return nil
    }
    return normalized
  }
}
