import FolioStorage
import Foundation

/// A location whose fields passed every rule, ready to store.
struct ValidLocation: Equatable {
  let name: String
  let city: String
  let latitude: Double
  let longitude: Double
  let description: String?
  let link: String?
  let images: [String]

  /// Checks every field of `input` and normalizes it: surrounding spaces trimmed, an empty
  /// description or link dropped, the link's scheme lower-cased. Coordinates are parsed as
  /// exact decimals, so the range check is exact (90.000000000000000001 is refused even
  /// though it rounds to the Double 90), then stored as the nearest Double.
  /// The location these fields make, with `id` and the times given.
  func location(id: Int64, createdAt: String, updatedAt: String) -> Location {
    Location(
      id: id, name: name, city: city, latitude: latitude, longitude: longitude,
      description: description, link: link, images: images, createdAt: createdAt,
      updatedAt: updatedAt)
  }

  init(_ input: LocationInput) throws(LocationError) {
    name = try ValidLocation.label(input.name, field: "name")
    city = try ValidLocation.label(input.city, field: "city")
    latitude = try ValidLocation.degrees(input.latitude, field: "latitude", limit: 90)
    longitude = try ValidLocation.degrees(input.longitude, field: "longitude", limit: 180)
    description = try ValidLocation.description(input.description)
    link = try ValidLocation.link(input.link)
    images = try ValidLocation.images(input.images)
  }

  static let maximumLabelLength = 200
  static let maximumDescriptionLength = 10_000

  private static func label(_ text: String, field: String) throws(LocationError) -> String {
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !value.isEmpty else {
      throw .invalidField(field: field, message: "\(field) must not be empty")
    }
    guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .invalidField(
        field: field, message: "\(field) '\(value)' contains a control character such as a newline")
    }
    guard value.unicodeScalars.count <= maximumLabelLength else {
      throw .invalidField(
        field: field, message: "\(field) is longer than \(maximumLabelLength) characters")
    }
    return value
  }

  /// Parses degrees exactly and checks -limit...limit.
  static func degrees(_ text: String, field: String, limit: Int) throws(LocationError) -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let value: ExactDecimal
    do {
      value = try ExactDecimal(parsing: trimmed)
    } catch .empty {
      throw .invalidField(field: field, message: "\(field) must not be empty")
    } catch .tooPrecise {
      throw .invalidField(
        field: field, message: "\(field) '\(trimmed)' has more than 18 decimal places")
    } catch .invalid(_, let reason) {
      let detail = reason == "not a number" ? "" : " (\(reason))"
      throw .malformedField(
        field: field,
        message: "\(field) '\(trimmed)' is not a number of degrees such as 41.8902\(detail)")
    } catch {
      throw outOfRange(field, trimmed, limit)
    }
    guard value >= ExactDecimal(-limit) && value <= ExactDecimal(limit) else {
      throw outOfRange(field, trimmed, limit)
    }
    return value.doubleValue
  }

  private static func outOfRange(_ field: String, _ text: String, _ limit: Int) -> LocationError {
    .invalidField(
      field: field,
      message: "\(field) '\(text)' is out of range: it must be between -\(limit) and \(limit)")
  }

  private static func description(_ text: String?) throws(LocationError) -> String? {
    guard let value = text?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
      return nil
    }
    guard value.unicodeScalars.count <= maximumDescriptionLength else {
      throw .invalidField(
        field: "description",
        message: "description is longer than \(maximumDescriptionLength) characters")
    }
    return value
  }

  /// An http(s) URL with a host and no spaces; the scheme is lower-cased.
  static func link(_ text: String?) throws(LocationError) -> String? {
    guard let value = text?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
      return nil
    }
    let refused = LocationError.invalidField(
      field: "link",
      message: "link '\(value)' is not an http(s) URL: it must start with http:// or https:// "
        + "followed by a host name")
    guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .invalidField(
        field: "link", message: "link '\(value)' contains a control character such as a newline")
    }
    guard !value.unicodeScalars.contains(where: { $0.properties.isWhitespace }),
      let components = URLComponents(string: value),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      let separator = value.range(of: "://")
    else { throw refused }
    return scheme + value[separator.lowerBound...]
  }

  private static func images(_ names: [String]) throws(LocationError) -> [String] {
    var result: [String] = []
    for name in names {
      let value = try label(name, field: "image")
      guard !result.contains(value) else {
        throw .invalidField(field: "image", message: "image '\(value)' is listed more than once")
      }
      result.append(value)
    }
    return result
  }
}
