import FolioStorage
import Foundation

/// A trade as typed by the user or read from a CSV row, before validation.
public struct TradeDraft: Sendable {
  public var side: TradeSide
  public var coin: String
  public var quantity: String
  public var price: String
  public var fee: String?
  /// `YYYY-MM-DD` or ISO-8601 with offset; nil means now.
  public var date: String?
  public var note: String?
  public var externalID: String?
  /// The location where the trade happened (an id from the locations table).
  public var locationID: Int64?

  public init(
    side: TradeSide, coin: String, quantity: String, price: String, fee: String? = nil,
    date: String? = nil, note: String? = nil, externalID: String? = nil, locationID: Int64? = nil
  ) {
    self.side = side
    self.coin = coin
    self.quantity = quantity
    self.price = price
    self.fee = fee
    self.date = date
    self.note = note
    self.externalID = externalID
    self.locationID = locationID
  }
}

/// A field of a trade that does not hold a valid value.
public struct TradeInputError: LocalizedError, ClassifiedError, Equatable {
  public let field: String
  public let reason: String

  public init(field: String, reason: String) {
    self.field = field
    self.reason = reason
  }

  public var kind: FailureKind { .badData }
  public var errorDescription: String? { "\(field): \(reason)" }
}

/// Validation of trade fields, shared by the `buy`/`sell`/`tx edit` commands and CSV import.
public enum TradeInput {
  /// A quantity: a plain decimal greater than zero.
  public static func quantity(_ text: String) throws -> ExactDecimal {
    let value = try decimal(text, field: "quantity")
    guard value.isPositive else {
      throw TradeInputError(field: "quantity", reason: "must be greater than zero, got '\(text)'")
    }
    return value
  }

  /// A price or fee: a plain decimal, zero or more.
  public static func amount(_ text: String, field: String) throws -> ExactDecimal {
    let value = try decimal(text, field: field)
    guard !value.isNegative else {
      throw TradeInputError(field: field, reason: "must not be negative, got '\(text)'")
    }
    return value
  }

  static func decimal(_ text: String, field: String) throws -> ExactDecimal {
    do {
      return try ExactDecimal(parsing: text)
    } catch {
      throw TradeInputError(field: field, reason: error.errorDescription ?? "invalid number")
    }
  }

  /// A CoinGecko coin id: lowercase letters, digits, '-', '_' or '.', at most 100 characters.
  public static func coinID(_ text: String) throws -> String {
    let id = text.lowercased()
    guard isCoinID(id) else {
      throw TradeInputError(
        field: "coin",
        reason: "'\(text)' is not a CoinGecko coin id (such as 'bitcoin' or 'usd-coin')")
    }
    return id
  }

  /// True when `id` is already a valid coin id, exactly as written (see `coinID(_:)`).
  public static func isCoinID(_ id: String) -> Bool {
    guard let first = id.utf8.first, first.isASCIIAlphanumeric, id.utf8.count <= 100 else {
      return false
    }
    return id.utf8.allSatisfy { isIDByte($0) }
  }

  /// A byte of a coin id; ids start with a letter or digit.
  private static func isIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }

  /// A note: any text without NUL bytes, at most 1,000 characters.
  public static func note(_ text: String?) throws -> String? {
    guard let text, !text.isEmpty else { return nil }
    guard !text.contains("\u{0}") else {
      throw TradeInputError(field: "note", reason: "must not contain NUL bytes")
    }
    guard text.count <= 1000 else {
      throw TradeInputError(field: "note", reason: "is longer than 1000 characters")
    }
    return text
  }

  /// An external id: 1 to 200 characters without control characters.
  public static func externalID(_ text: String?) throws -> String? {
    guard let text, !text.isEmpty else { return nil }
    guard text.count <= 200, !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
      throw TradeInputError(
        field: "id", reason: "must be at most 200 characters without control characters")
    }
    return text
  }
}

/// Dates as users type them, converted to Folio's stored form (UTC ISO-8601, whole seconds).
public enum TradeDate {
  /// Parses `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or an
  /// offset such as `+02:00`; fractional seconds are dropped. Years 1970–9999.
  public static func parse(_ text: String, field: String = "date") throws -> String {
    var copy = text
    if copy.withUTF8({ isCanonical($0) }) { return text }
    let bytes = Array(text.utf8)
    func fail(_ reason: String) -> TradeInputError {
      TradeInputError(field: field, reason: "'\(text)' \(reason)")
    }
    var index = 0
    func number(_ digits: Int) -> Int64? {
      guard index + digits <= bytes.count else { return nil }
      var value: Int64 = 0
      for offset in 0..<digits {
        let byte = bytes[index + offset]
        guard byte >= 48 && byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      index += digits
      return value
    }
    func expect(_ character: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == character else { return false }
      index += 1
      return true
    }
    let shape = "is not a date: use YYYY-MM-DD or ISO-8601 such as 2024-03-01T12:00:00Z"
    guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2)
    else { throw fail(shape) }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      throw fail("is not a real calendar date")
    }
    var seconds: Int64 = 0
    if index < bytes.count {
      guard expect(84) || expect(116) || expect(32), let hour = number(2), expect(58),
        let minute = number(2)
      else { throw fail(shape) }
      var second: Int64 = 0
      if expect(58) {
        guard let value = number(2) else { throw fail(shape) }
        second = value
        if expect(46) {
          let start = index
          while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 { index += 1 }
          guard index > start else { throw fail(shape) }
        }
      }
      guard hour < 24, minute < 60, second < 60 else { throw fail("has an impossible time of day") }
      seconds = hour * 3600 + minute * 60 + second
      if expect(90) || expect(122) {
        // UTC
      } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
        let sign: Int64 = bytes[index] == 45 ? -1 : 1
        index += 1
        guard let offsetHours = number(2) else { throw fail("has a malformed UTC offset") }
        _ = expect(58)
        guard let offsetMinutes = number(2), offsetHours <= 14, offsetMinutes < 60 else {
          throw fail("has a malformed UTC offset")
        }
        seconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
      } else {
        throw fail("needs a time zone: end it with Z or an offset such as +02:00")
      }
      guard index == bytes.count else { throw fail(shape) }
    }
    let total = Timestamp.days(year: year, month: month, day: day) * 86_400 + seconds
    let result = Timestamp.format(Date(timeIntervalSince1970: TimeInterval(total)))
    guard result.utf8.count == 20, result >= "1970-01-01T00:00:00Z" else {
      throw fail("is outside the years 1970 to 9999")
    }
    return result
  }

  /// True for text already in the stored form with a valid date and time.
  private static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58,
      bytes[16] == 58, bytes[19] == 90
    else { return false }
    func value(_ start: Int, _ count: Int) -> Int64? {
      var result: Int64 = 0
      for offset in start..<(start + count) {
        let byte = bytes[offset]
        guard byte >= 48 && byte <= 57 else { return nil }
        result = result * 10 + Int64(byte - 48)
      }
      return result
    }
    guard let year = value(0, 4), let month = value(5, 2), let day = value(8, 2),
      let hour = value(11, 2), let minute = value(14, 2), let second = value(17, 2)
    else { return false }
    return year >= 1970 && (1...12).contains(month) && day >= 1
      && day <= daysIn(month: month, year: year) && hour < 24 && minute < 60 && second < 60
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The start of the day after `date` (`YYYY-MM-DD`), for inclusive `--until` bounds.
  public static func dayAfter(_ canonical: String) -> String {
    let day = canonical.prefix(10)
    let parts = day.split(separator: "-").compactMap { Int64($0) }
    guard parts.count == 3 else { return canonical }
    let days = Timestamp.days(year: parts[0], month: parts[1], day: parts[2]) + 1
    return Timestamp.format(Date(timeIntervalSince1970: TimeInterval(days * 86_400)))
  }
}

extension UInt8 {
  /// a–z, A–Z or 0–9.
  var isASCIIAlphanumeric: Bool {
    switch self {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return false
    }
  }
}
