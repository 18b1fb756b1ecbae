import Foundation

/// A UTC instant to the whole second, as Folio stores times. Its text form,
/// `2024-03-01T12:00:00Z`, sorts as the instants do for the years 1970 to 9999 (the only years
/// `init(parsing:_:)` returns), which is how SQLite compares stored times.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible, SQLBindable {
  /// Seconds since 1970-01-01T00:00:00Z.
  public let seconds: Int64

  public init(seconds: Int64) { self.seconds = seconds }

  /// The whole second `date` falls in. No clock or parsed time is beyond ±10^14 s (three
  /// million years) or not finite; such a date is clamped rather than allowed to trap.
  public init(_ date: Date) {
    let raw = date.timeIntervalSince1970.rounded(.down)
    seconds = raw.isFinite ? Int64(max(-1e14, min(1e14, raw))) : 0
  }

  /// The last second of 9999-12-31: the latest time Folio reads.
  public static let latest = Timestamp(seconds: 253_402_300_799)

  public var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

  /// The UTC day the instant falls on.
  public var day: CalendarDay {
    CalendarDay(ordinal: seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1)
  }

  /// The instant `count` seconds later (earlier when negative).
  public func adding(seconds count: Int64) -> Timestamp { Timestamp(seconds: seconds + count) }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.seconds < rhs.seconds }

  /// `YYYY-MM-DDTHH:MM:SSZ`, the stored form.
  public var description: String { text("-", "T", ":") }

  /// The stored form, as `description`, of this time parsed from `text`: `text` itself when it
  /// already is that form, as in most files an import reads, so no string is made.
  public func description(parsedFrom text: String) -> String {
    var text = text
    let stored = text.withUTF8 { bytes in
      // Parsed, so its digits are right: only the separators and the length can differ.
      bytes.count == 20 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
        && bytes[10] == UInt8(ascii: "T") && bytes[13] == UInt8(ascii: ":")
        && bytes[16] == UInt8(ascii: ":") && bytes[19] == UInt8(ascii: "Z")
    }
    return stored ? text : description
  }

  /// `YYYYMMDDTHHMMSSZ`, for file names.
  public var compact: String { text("", "T", "") }

  public var sqlValue: SQLValue { .text(description) }

  /// Formats `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC (whole seconds).
  public static func format(_ date: Date) -> String { Timestamp(date).description }

  /// Formats `date` as `YYYYMMDDTHHMMSSZ`, for file names.
  public static func compact(_ date: Date) -> String { Timestamp(date).compact }

  /// Writes the fields into a stack buffer and makes one string: this runs for every time
  /// an import stores.
  private func text(_ dateSeparator: String, _ t: String, _ timeSeparator: String) -> String {
    let (year, month, day) = Self.civilDate(fromDays: self.day.ordinal)
    let second = seconds - self.day.ordinal * 86_400
    // A year of at most 7 digits and a sign (times are within ±10^14 s), then 15 more bytes.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      var end = 0
      func append(_ text: String) {
        for byte in text.utf8 {
          buffer[end] = byte
          end += 1
        }
      }
      func append(_ value: Int64, digits count: Int) {
        if value < 0 { append("-") }
        var width = 1
        var rest = value.magnitude / 10
        while rest > 0 {
          width += 1
          rest /= 10
        }
        width = max(width, count)
        var magnitude = value.magnitude
        for place in stride(from: width - 1, through: 0, by: -1) {
          buffer[end + place] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
        }
        end += width
      }
      append(year, digits: 4)
      append(dateSeparator)
      append(month, digits: 2)
      append(dateSeparator)
      append(day, digits: 2)
      append(t)
      append(second / 3600, digits: 2)
      append(timeSeparator)
      append(second % 3600 / 60, digits: 2)
      append(timeSeparator)
      append(second % 60, digits: 2)
      append("Z")
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<end]), as: UTF8.self)
    }
  }

  /// Converts days since 1970-01-01 to a proleptic Gregorian (year, month, day)
  /// (Howard Hinnant's `civil_from_days`).
  public static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Converts a proleptic Gregorian date to days since 1970-01-01 (`days_from_civil`).
  public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The number of days in `month` of `year` (Gregorian leap years).
  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

// MARK: - Parsing

extension Timestamp {
  /// Which ISO-8601 forms `init(parsing:_:)` reads. Every form starts with `YYYY-MM-DD`.
  public struct Syntax: Sendable {
    /// Whether the date alone (`2024-03-01`, midnight UTC) is read.
    public var dateAlone: Bool
    /// Whether a time of day may follow the date.
    public var timeOfDay: Bool
    /// Whether a time of day must end with `Z` or an offset; without one it is UTC.
    public var zoneRequired: Bool
    /// Whether a time must be exactly the stored form `YYYY-MM-DDTHH:MM:SSZ`; otherwise `t` or
    /// a space may replace `T`, seconds may be left out or carry a fraction (dropped), `z` may
    /// replace `Z`, and an offset such as `+05:30`, `-0500` or `-00:00` (at most 14 hours) may
    /// replace it.
    public var storedFormOnly: Bool
    /// The zone a time without `Z` or an offset, and a date alone (its midnight), are read in;
    /// nil is UTC. A local time the zone's clocks skip or repeat (a daylight-saving change) is
    /// refused: it names no single instant.
    public var zone: TimeZone?
    /// Whether Unix time is read too: 10 digits are seconds, 13 digits milliseconds (each may
    /// carry a fraction after a point, dropped); any other count of digits is refused, so a
    /// year (`2024`) or a compact date (`20240301`) is never taken for a time.
    public var unixTime: Bool

    public init(
      dateAlone: Bool, timeOfDay: Bool, zoneRequired: Bool, storedFormOnly: Bool,
      zone: TimeZone? = nil, unixTime: Bool = false
    ) {
      self.dateAlone = dateAlone
      self.timeOfDay = timeOfDay
      self.zoneRequired = zoneRequired
      self.storedFormOnly = storedFormOnly
      self.zone = zone
      self.unixTime = unixTime
    }

    /// Dates users type for trades and bounds: a date alone or a time with a zone.
    public static let zoned = Syntax(
      dateAlone: true, timeOfDay: true, zoneRequired: true, storedFormOnly: false)
    /// Times market data carries: a date alone or a time, UTC when no zone is given.
    public static let lenient = Syntax(
      dateAlone: true, timeOfDay: true, zoneRequired: false, storedFormOnly: false)
    /// A calendar day: `YYYY-MM-DD` and nothing else.
    public static let day = Syntax(
      dateAlone: true, timeOfDay: false, zoneRequired: true, storedFormOnly: true)
    /// Exactly the stored form `YYYY-MM-DDTHH:MM:SSZ`.
    public static let stored = Syntax(
      dateAlone: false, timeOfDay: true, zoneRequired: true, storedFormOnly: true)

    /// Dates as exchanges write them in CSV files: what `.zoned` reads, a time without a zone
    /// (`2024-03-01 12:00:00`) and a date alone read in `zone` (nil: UTC), and Unix time.
    public static func exchange(zone: TimeZone?) -> Syntax {
      Syntax(
        dateAlone: true, timeOfDay: true, zoneRequired: false, storedFormOnly: false, zone: zone,
        unixTime: true)
    }
  }

  /// Why a text is not a time; `description` follows the quoted text in messages.
  public enum SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    case shape, notACalendarDate, impossibleTimeOfDay, malformedOffset, needsZone, outOfRange
    /// Digits that are not 10 (Unix seconds) or 13 (milliseconds).
    case unixDigits
    /// A local time that does not exist in the named zone (the clocks skip it).
    case skippedInZone(String)
    /// A local time that occurs twice in the named zone (the clocks go back over it).
    case repeatedInZone(String)

    public var description: String {
      switch self {
      case .shape: "is not a date: use YYYY-MM-DD or ISO-8601 such as 2024-03-01T12:00:00Z"
      case .notACalendarDate: "is not a real calendar date"
      case .impossibleTimeOfDay: "has an impossible time of day"
      case .malformedOffset: "has a malformed UTC offset"
      case .needsZone: "needs a time zone: end it with Z or an offset such as +02:00"
      case .outOfRange: "is outside the years 1970 to 9999"
      case .unixDigits:
        "is not a date: a Unix time has 10 digits (seconds) or 13 (milliseconds), "
          + "a date is YYYY-MM-DD"
      case .skippedInZone(let zone):
        "does not exist in \(zone) (the clocks skip that hour); give a UTC offset such as +01:00"
      case .repeatedInZone(let zone):
        "occurs twice in \(zone) (the clocks go back over that hour); give a UTC offset "
          + "such as +01:00 to say which"
      }
    }
  }

  /// Parses an ISO-8601 date or time in one of the forms `syntax` allows, from
  /// 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z once converted to UTC. Refuses impossible
  /// dates (2023-02-29), times (24:00, 12:60) and anything after the time or zone.
  public init(parsing text: String, _ syntax: Syntax) throws(SyntaxError) {
    var text = text
    // The string's own UTF-8, read in place: this runs for every row an import reads.
    let seconds = text.withUTF8 { bytes in
      Result { () throws(SyntaxError) in try Self.seconds(parsing: bytes, syntax) }
    }
    self.init(seconds: try seconds.get())
  }

  /// The instant `bytes` name in a form `syntax` allows, as `init(parsing:_:)` reads it.
  private static func seconds(parsing bytes: UnsafeBufferPointer<UInt8>, _ syntax: Syntax)
    throws(SyntaxError) -> Int64
  {
    var text = TextCursor(bytes: bytes, strict: syntax.storedFormOnly)
    if syntax.unixTime, let first = bytes.first, first >= UInt8(ascii: "0"),
      first <= UInt8(ascii: "9")
    {
      let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
      if digits == bytes.count || bytes[digits] == UInt8(ascii: ".") {
        return try unixSeconds(bytes, count: digits)
      }
    }
    guard let year = text.number(4), text.expect("-"), let month = text.number(2), text.expect("-"),
      let day = text.number(2)
    else { throw .shape }
    guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else {
      throw .notACalendarDate
    }
    var seconds = Self.days(year: year, month: month, day: day) * 86_400
    var local = true
    if text.isAtEnd {
      guard syntax.dateAlone else { throw .shape }
    } else {
      guard syntax.timeOfDay,
        text.expect("T") || text.expect("t", strictly: false) || text.expect(" ", strictly: false),
        let hour = text.number(2), text.expect(":"), let minute = text.number(2)
      else { throw .shape }
      var second: Int64 = 0
      if text.expect(":") {
        guard let value = text.number(2) else { throw .shape }
        second = value
        if text.expect(".", strictly: false) {
          let start = text.index
          while text.number(1) != nil {}
          guard text.index > start else { throw .shape }
        }
      } else if text.strict {
        throw .shape
      }
      guard hour < 24, minute < 60, second < 60 else { throw .impossibleTimeOfDay }
      seconds += hour * 3600 + minute * 60 + second
      if text.expect("Z") || text.expect("z", strictly: false) {
        local = false
      } else if let sign: Int64 = text.expect("+", strictly: false)
        ? 1 : text.expect("-", strictly: false) ? -1 : nil
      {
        guard let hours = text.number(2) else { throw .malformedOffset }
        _ = text.expect(":")
        guard let minutes = text.number(2), hours <= 14, minutes < 60 else {
          throw .malformedOffset
        }
        seconds -= sign * (hours * 3600 + minutes * 60)
        local = false
      } else if syntax.zoneRequired {
        throw .needsZone
      }
      guard text.isAtEnd else { throw .shape }
    }
    if local, let zone = syntax.zone { seconds = try Self.instant(local: seconds, in: zone) }
    guard seconds >= 0, seconds <= Self.latest.seconds else { throw .outOfRange }
    return seconds
  }

  /// Where `seconds(parsing:_:)` is in the text it reads. A struct with mutating methods, not
  /// nested functions capturing a variable: those cost a dynamic exclusivity check per call.
  private struct TextCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether only the stored form is read: `expect(_:strictly: false)` never matches.
    let strict: Bool
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    /// The value of the next `digits` bytes when all are digits, moving past them.
    mutating func number(_ digits: Int) -> Int64? {
      guard index + digits <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[index..<(index + digits)] {
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      index += digits
      return value
    }

    /// Whether the next byte is `character`, moving past it; one allowed only in the lenient
    /// forms (`strictly` false) never matches in the strict one.
    mutating func expect(_ character: Unicode.Scalar, strictly: Bool = true) -> Bool {
      guard strictly || !strict, index < bytes.count, bytes[index] == UInt8(ascii: character)
      else { return false }
      index += 1
      return true
    }
  }

  /// Unix time from `bytes`, whose first `count` bytes are digits and the rest, if any, a
  /// point and a fraction (dropped).
  private static func unixSeconds(_ bytes: UnsafeBufferPointer<UInt8>, count: Int)
    throws(SyntaxError) -> Int64
  {
    if count < bytes.count {
      let fraction = bytes[(count + 1)...]
      guard !fraction.isEmpty,
        fraction.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
      else { throw .shape }
    }
    guard count == 10 || count == 13 else { throw .unixDigits }
    // At most 13 digits: no overflow.
    let value = bytes[..<count].reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    let seconds = count == 13 ? value / 1000 : value
    guard seconds <= Self.latest.seconds else { throw .outOfRange }
    return seconds
  }

  /// The UTC instant at which `zone`'s clocks show `local` (seconds since 1970 of the
  /// wall-clock time, as if it were UTC); a time the clocks skip or show twice is refused.
  static func instant(local: Int64, in zone: TimeZone) throws(SyntaxError) -> Int64 {
    func offset(at seconds: Int64) -> Int64 {
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
    // Every offset in force within a day either side; an instant fits when the zone's offset
    // at that instant is the one it was worked out with.
    var instants: Set<Int64> = []
    for probe in [local - 86_400, local, local + 86_400] {
      let candidate = local - offset(at: probe)
      if offset(at: candidate) == local - candidate { instants.insert(candidate) }
    }
    guard let instant = instants.first else { throw .skippedInZone(zone.identifier) }
    guard instants.count == 1 else { throw .repeatedInZone(zone.identifier) }
    return instant
  }
}
