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
    (
      self.side, self.coin, self.quantity, self.price, self.fee, self.date, self.note,
      self.externalID, self.locationID
    ) = (side, coin, quantity, price, fee, date, note, externalID, locationID)
  }
}

/// A field of a trade that does not hold a valid value.
public struct TradeInputError: LocalizedError, ClassifiedError, Equatable {
  public let field: String
  public let reason: String
  /// True when the text does not parse (a malformed date or number: 64); false when it
  /// parses but breaks a rule (65).
  public let malformed: Bool

  public init(field: String, reason: String, malformed: Bool = false) {
    self.field = field
    self.reason = reason
    self.malformed = malformed
  }

  public var kind: FailureKind { malformed ? .malformed : .badData }
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
      // Text that is no number at all does not parse (64); a number too large or too
      // precise is well-formed but unacceptable (65).
      let malformed: Bool
      switch error {
      case .empty, .invalid: malformed = true
      default: malformed = false
      }
      throw TradeInputError(
        field: field, reason: error.errorDescription ?? "invalid number", malformed: malformed)
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

  /// A date or time as users type it: `YYYY-MM-DD` (midnight UTC) or ISO-8601 with `Z` or an
  /// offset (`Timestamp.Syntax.zoned`), or another form `syntax` allows (a CSV file's
  /// `.exchange`), from 1970 to 9999; when `latest` is given, a later time is refused (a trade
  /// date more than a day in the future, see `latestDate(now:)`).
  public static func date(
    _ text: String, field: String = "date", latest: Timestamp? = nil,
    syntax: Timestamp.Syntax = .zoned
  ) throws -> Timestamp {
    let time: Timestamp
    do {
      time = try Timestamp(parsing: text, syntax)
    } catch {
      throw TradeInputError(field: field, reason: "'\(text)' \(error)", malformed: true)
    }
    if let latest, latest < time {
      throw TradeInputError(
        field: field,
        reason: "'\(text)' is more than a day in the future (after \(latest)); "
          + "give --allow-future if it is right")
    }
    return time
  }

  /// The latest trade date accepted without `--allow-future`: a day after `now`, so a trade
  /// dated by a clock a few hours ahead is still accepted; nil (no limit) when `allowFuture`.
  public static func latestDate(now: Date, allowFuture: Bool) -> Timestamp? {
    allowFuture ? nil : Timestamp(now).adding(seconds: 86_400)
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

  /// An external id: 1 to 200 characters (Unicode scalars, as SQLite's `length` counts them in
  /// the table's CHECK) without control characters.
  public static func externalID(_ text: String?) throws -> String? {
    guard let text, !text.isEmpty else { return nil }
    guard text.unicodeScalars.count <= 200,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 })
    else {
      throw TradeInputError(
        field: "id", reason: "must be at most 200 characters without control characters")
    }
    return text
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
