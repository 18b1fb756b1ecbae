import FolioService
import FolioStorage
import Foundation

/// How locations look in text, JSON, CSV and GeoJSON. Coordinates and distances are JSON
/// numbers (they are REAL degrees, not money, and GeoJSON requires numbers); trade
/// quantities and prices are decimal strings as everywhere else.
enum LocationRendering {
  // MARK: - JSON

  /// One location as a JSON object: the shape `list`, `show` and `export --format json` write
  /// and `import` reads back.
  static func json(_ location: Location) -> JSONValue {
    .object([("id", .int(location.id))] + jsonFields(location, coordinates: true))
  }

  private static func jsonFields(_ location: Location, coordinates: Bool) -> [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
      ("name", .string(location.name)), ("city", .string(location.city)),
    ]
    if coordinates {
      fields += [
        ("latitude", .number(GeoMath.text(location.latitude))),
        ("longitude", .number(GeoMath.text(location.longitude))),
      ]
    }
    return fields + [
      ("description", .string(location.description)),
      ("link", .string(location.link)),
      ("images", .array(location.images.map { .string($0) })),
      ("created_at", .string(location.createdAt)),
      ("updated_at", .string(location.updatedAt)),
    ]
  }

  /// An RFC 7946 FeatureCollection: one Point feature per location, coordinates in
  /// [longitude, latitude] order, the other fields as properties.
  static func geoJSON(_ locations: [Location]) -> JSONValue {
    let features = locations.map { location in
      let coordinates = [location.longitude, location.latitude].map {
        JSONValue.number(GeoMath.text($0))
      }
      return JSONValue.object([
        ("type", .string("Feature")), ("id", .int(location.id)),
        ("geometry", .object([("type", .string("Point")), ("coordinates", .array(coordinates))])),
        ("properties", .object(jsonFields(location, coordinates: false))),
      ])
    }
    return .object([("type", .string("FeatureCollection")), ("features", .array(features))])
  }

  /// The detail of `show` and `next` as JSON: the location, its map link and its trades.
  static func json(_ detail: LocationDetail) -> JSONValue {
    let trades = detail.trades.map { trade in
      JSONValue.object([
        ("id", .int(trade.id)),
        ("executed_at", .string(trade.executedAt)),
        ("side", .string(trade.side)),
        ("coin_id", .string(trade.coinID)),
        ("quantity", .decimal(trade.quantity)),
        ("price", .decimal(trade.price)),
      ])
    }
    return json(detail.location).appending([
      ("map_url", .string(detail.location.mapURL)), ("trades", .array(trades)),
    ])
  }

  // MARK: - CSV

  static let csvHeader = [
    "id", "name", "city", "latitude", "longitude", "description", "link", "images", "created_at",
    "updated_at",
  ]

  /// One CSV record; images are joined with ";".
  static func csvFields(_ location: Location) -> [String] {
    [
      String(location.id), location.name, location.city, GeoMath.text(location.latitude),
      GeoMath.text(location.longitude), location.description ?? "", location.link ?? "",
      location.images.joined(separator: ";"), location.createdAt, location.updatedAt,
    ]
  }

  // MARK: - Text

  /// The detail view of `show` and `next`, its long fields wrapped to `width`.
  static func text(_ detail: LocationDetail, width: Int = 80) -> String {
    let location = detail.location
    var lines = [
      TextLayout.fill(
        "\(location.reference.shown) (id \(location.id))", width: width, continuation: "  ")
    ]
    func field(_ label: String, _ value: String) {
      let pad = String(repeating: " ", count: max(1, 13 - label.count))
      let margin = String(repeating: " ", count: 15)
      // A description's own line breaks (LF, CRLF or CR) continue the field, and each of its
      // lines wraps at the field's margin; anything else is shown, not obeyed. A blank line
      // stays blank, without the margin's spaces.
      let continued = value.split(
        omittingEmptySubsequences: false,
        whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
      )
      .map { margin + FolioCLI.visible($0) }
      .map { TextLayout.fill($0, width: width, continuation: margin).trimmingTrailingSpaces() }
      .joined(separator: "\n")
      lines.append("  " + label + pad + continued.dropFirst(margin.count))
    }
    field("latitude", GeoMath.text(location.latitude))
    field("longitude", GeoMath.text(location.longitude))
    field("description", location.description ?? "-")
    field("link", location.link ?? "-")
    field("images", location.images.isEmpty ? "-" : location.images.joined(separator: ", "))
    field("map", location.mapURL)
    field("created", location.createdAt)
    field("updated", location.updatedAt)
    lines.append("")
    if detail.trades.isEmpty {
      lines.append("trades made here: none")
      return lines.joined(separator: "\n") + "\n"
    }
    lines.append("trades made here (\(detail.trades.count)):")
    var table = TextTable(
      headers: ["ID", "EXECUTED AT", "SIDE", "COIN", "QUANTITY", "PRICE"], rightAligned: [0, 4, 5],
      shortenable: [3: 8], dropOrder: [5, 4])
    table.rows = detail.trades.map {
      [
        String($0.id), $0.executedAt, $0.side, $0.coinID, Formatting.quantity($0.quantity),
        Formatting.money($0.price, .ledger, in: $0.currency),
      ]
    }
    return lines.joined(separator: "\n") + "\n" + table.rendered(width: width)
  }

  /// A distance in kilometres with two decimals (10 m), for text output.
  static func kilometres(_ distance: Double) -> String {
    String(format: "%.2f", distance)
  }
}
