import FolioStorage
import Foundation

/// The `prices` of a CoinGecko `market_chart` response (`/coins/{id}/market_chart` or
/// `/market_chart/range`): `{"prices": [[ms, price], …], "market_caps": …, "total_volumes": …}`,
/// and the daily closing prices they give.
public struct PriceSeries: Equatable, Sendable {
  /// One point: whole UTC seconds, and the price (nil when the API wrote null).
  public struct Point: Equatable, Sendable {
    public let time: Timestamp
    public let price: ExactDecimal?
  }

  /// The earliest time a point may have: 2009-01-01T00:00:00Z.
  public static let earliest = Timestamp(seconds: 1_230_768_000)

  /// In the order of the response.
  public let points: [Point]

  public init(points: [Point]) { self.points = points }

  /// True when `value` looks like a market_chart response: an object with a `prices` key.
  public static func isMarketChart(_ value: JSONValue) -> Bool {
    value.objectValue?["prices"] != nil
  }

  /// Reads the `prices` of a market_chart object. A point that is not a pair of a time in
  /// milliseconds (1970 to 9999) and a number or null refuses the response, naming its line;
  /// `market_caps` and `total_volumes` are not read.
  public static func read(_ value: JSONValue, notes: inout PayloadNotes) throws(PayloadError)
    -> PriceSeries
  {
    guard let object = value.objectValue, let prices = object["prices"] else {
      throw PayloadError("expected a market_chart object with prices")
    }
    guard case .array(let items) = prices.kind else {
      throw PayloadError("prices is \(prices.kindName), expected an array", line: prices.line)
    }
    var points: [Point] = []
    points.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      let context = "prices element \(index + 1)"
      guard case .array(let pair) = item.kind, pair.count == 2 else {
        throw PayloadError(
          "\(context) is \(item.kindName), expected a pair [time in ms, price]", line: item.line)
      }
      guard case .number(let literal) = pair[0].kind,
        let milliseconds = JSONDecimal.convert(literal).value, !milliseconds.isNegative
      else {
        throw PayloadError(
          "\(context): the time \(pair[0].numberText ?? pair[0].kindName) is not a number of "
            + "milliseconds since 1970", line: item.line)
      }
      let seconds = milliseconds.units / 1_000_000_000_000_000_000_000
      // CoinGecko's data starts in 2013: an earlier time is seconds written where
      // milliseconds belong (another tool's export), which would store prices on 1970 days.
      guard seconds >= Int128(Self.earliest.seconds) else {
        throw PayloadError(
          "\(context): the time \(literal) is before 2009; market_chart times are milliseconds "
            + "since 1970 (seconds are refused)", line: item.line)
      }
      guard seconds <= Int128(Timestamp.latest.seconds) else {
        throw PayloadError(
          "\(context): the time \(literal) is after the year 9999", line: item.line)
      }
      var price: ExactDecimal?
      switch pair[1].kind {
      case .null: price = nil
      case .number(let text):
        switch JSONDecimal.convert(text) {
        case .exact(let exact): price = exact
        case .rounded(let rounded):
          notes.roundedCount += 1
          price = rounded
        case .outOfRange:
          notes.warnings.append("\(context): the price \(text) is too large to store; skipped")
        }
      default:
        throw PayloadError(
          "\(context): the price is \(pair[1].kindName), expected a number or null",
          line: item.line)
      }
      points.append(Point(time: Timestamp(seconds: Int64(seconds)), price: price))
    }
    return PriceSeries(points: points)
  }

  /// One day's closing price.
  public struct Close: Equatable, Sendable {
    public let day: CalendarDay
    public let price: ExactDecimal
    public let pricedAt: Timestamp
  }

  /// The closing price of each UTC day: the last point above zero after the day's 00:00:00Z
  /// and at or before the next day's 00:00:00Z. Only days the series goes on to the end of
  /// are given (the last point of a response is the time of the request, so its day is not
  /// over), oldest first.
  public var closes: [Close] {
    guard let end = points.map(\.time).max() else { return [] }
    var best: [CalendarDay: (time: Timestamp, price: ExactDecimal)] = [:]
    for point in points {
      guard let price = point.price, price.isPositive else { continue }
      // A point at 00:00:00Z closes the day before it.
      let day = point.time.adding(seconds: -1).day
      guard day.next.start <= end else { continue }
      if let known = best[day], known.time >= point.time { continue }
      best[day] = (point.time, price)
    }
    return best.keys.sorted().compactMap { day in
      best[day].map { Close(day: day, price: $0.price, pricedAt: $0.time) }
    }
  }

  /// The last day the series is complete for (nil when it does not reach a day's end).
  public var lastCompleteDay: CalendarDay? {
    guard let end = points.map(\.time).max() else { return nil }
    let day = end.adding(seconds: -1).day
    return day.next.start <= end ? day : day.adding(days: -1)
  }
}
