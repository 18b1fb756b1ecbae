import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct LocationsCommandTests {
  let sandbox = Sandbox()

  /// The five landmarks of the product brief, as shipped in Fixtures/.
  static let fixtures = Fixtures.path("locations.json")

  func importFixtures() {
    let result = sandbox.run("locations", "import", Self.fixtures)
    #expect(result.code == 0, "\(result.err)")
  }

  /// Inserts a trade the way the trades commands will, pointing at `location`.
  func addTrade(_ location: String, executedAt: String = "2024-03-01T12:00:00Z") throws {
    _ = try sandbox.sqlite(
      """
      INSERT INTO trades (portfolio_id, executed_at, side, coin_id, quantity, price, fee,
        created_at, location_id)
      VALUES (1, '\(executedAt)', 'buy', 'bitcoin', '0.25', '61000.5', '0', '\(executedAt)',
        \(location));
      """)
  }

  /// Runs `arguments`, expects `code`, and proves the database did not change.
  func expectRefusal(
    _ arguments: [String], code: Int32 = 65, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try sandbox.dump()
    let result = sandbox.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    #expect(
      result.err.hasPrefix("folio: error: ") && result.err.contains(message),
      "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    #expect(result.out.isEmpty, sourceLocation: sourceLocation)
    #expect(
      try sandbox.dump() == before, "\(arguments) changed the database",
      sourceLocation: sourceLocation)
  }

  // MARK: - add, show, list

  @Test func addThenShowEveryField() throws {
    let added = sandbox.run(
      "locations", "add", "Colosseum", "--city", "Rome", "--lat", "41.8902", "--lon", "12.4922",
      "--description", "An arena.", "--link", "https://en.wikipedia.org/wiki/Colosseum",
      "--image", "rome-colosseum-1", "--image", "rome-colosseum-2")
    #expect(added.code == 0)
    #expect(added.out == "added location 1: Colosseum, Rome (41.8902, 12.4922)\n")
    #expect(
      try sandbox.sqlite("SELECT * FROM locations")
        == "1|Colosseum|Rome|41.8902|12.4922|An arena.|https://en.wikipedia.org/wiki/Colosseum|"
        + "2024-11-30T12:00:00Z|2024-11-30T12:00:00Z\n")
    #expect(
      try sandbox.sqlite("SELECT * FROM location_images ORDER BY position")
        == "1|1|rome-colosseum-1\n1|2|rome-colosseum-2\n")

    let show = sandbox.run("locations", "show", "Colosseum, Rome")
    #expect(show.code == 0)
    #expect(
      show.out == """
        Colosseum, Rome (id 1)
          latitude     41.8902
          longitude    12.4922
          description  An arena.
          link         https://en.wikipedia.org/wiki/Colosseum
          images       rome-colosseum-1, rome-colosseum-2
          map          https://www.openstreetmap.org/?mlat=41.8902&mlon=12.4922#map=16/41.8902/12.4922
          created      2024-11-30T12:00:00Z
          updated      2024-11-30T12:00:00Z

        trades made here: none

        """)
    #expect(sandbox.run("locations", "show", "1").out == show.out)
  }

  @Test func negativeCoordinatesAreValuesNotOptions() {
    let result = sandbox.run(
      "locations", "add", "Opera House", "--city", "Sydney", "--lat", "-33.8568", "--lon",
      "151.2153")
    #expect(result.code == 0, "\(result.err)")
    let near = sandbox.run("locations", "near", "-33.86", "151.21")
    #expect(near.code == 0, "\(near.err)")
    #expect(near.out.contains("Opera House"))
  }

  @Test func showListsTheTradesMadeThere() throws {
    importFixtures()
    try addTrade("1", executedAt: "2024-03-01T12:00:00Z")
    try addTrade("1", executedAt: "2024-01-15T08:30:00Z")
    try addTrade("2")
    let show = sandbox.run("locations", "show", "1")
    #expect(
      show.out.hasSuffix(
        """
        trades made here (2):
        ID  EXECUTED AT           SIDE  COIN     QUANTITY       PRICE
         2  2024-01-15T08:30:00Z  buy   bitcoin      0.25  $61,000.50
         1  2024-03-01T12:00:00Z  buy   bitcoin      0.25  $61,000.50

        """), "\(show.out)")
    let json = sandbox.run("locations", "show", "Colosseum, Rome", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect(object["name"] as? String == "Colosseum")
    #expect(object["latitude"] as? Double == 41.8902)
    #expect(
      object["images"] as? [String] == ["rome-colosseum-1", "rome-colosseum-2", "rome-colosseum-3"])
    #expect(
      object["map_url"] as? String
        == "https://www.openstreetmap.org/?mlat=41.8902&mlon=12.4922#map=16/41.8902/12.4922")
    let trades = try #require(object["trades"] as? [[String: Any]])
    #expect(trades.map { $0["id"] as? Int } == [2, 1])
    #expect(trades.first?["quantity"] as? String == "0.25")  // decimals are strings
    #expect(trades.first?["price"] as? String == "61000.5")
  }

  @Test func listInEveryFormatWithFilters() throws {
    importFixtures()
    let text = sandbox.run(["locations", "list"], environment: Sandbox.wide)
    #expect(text.code == 0)
    #expect(
      text.out.split(separator: "\n").first
        == "ID  NAME            CITY   LATITUDE  LONGITUDE  LINK")
    #expect(text.out.split(separator: "\n").count == 6)
    #expect(
      text.out.contains(
        " 4  Eiffel Tower    Paris   48.8584     2.2945  https://en.wikipedia.org/wiki/Eiffel_Tower"
      ))

    let paris = sandbox.run("locations", "list", "--city", "paris", "--format", "json")
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(paris.out.utf8)) as? [[String: Any]])
    #expect(array.map { $0["name"] as? String } == ["Eiffel Tower", "Louvre Museum"])
    #expect(array.first?["longitude"] as? Double == 2.2945)

    let csv = sandbox.run("locations", "list", "--search", "pantheon", "--format", "csv")
    let lines = csv.out.split(separator: "\n")
    #expect(
      lines.first == "id,name,city,latitude,longitude,description,link,images,created_at,updated_at"
    )
    #expect(lines.count == 2)
    #expect(lines.last?.hasPrefix("2,Pantheon,Rome,41.8986,12.4769,\"") == true)
    #expect(
      lines.last?.hasSuffix(
        ",\"https://en.wikipedia.org/wiki/Pantheon,_Rome\",rome-pantheon-1;rome-pantheon-2;rome-pantheon-3,"
          + "2024-11-30T12:00:00Z,2024-11-30T12:00:00Z") == true)

    #expect(sandbox.run("locations", "list", "--city", "Berlin").out == "no locations match\n")
  }

  @Test func readingCommandsNeedAnExistingDatabase() {
    for arguments in [["list"], ["show", "1"], ["near", "0", "0"], ["next", "1"], ["export"]] {
      let result = sandbox.run(["locations"] + arguments)
      #expect(result.code == 66, "\(arguments)")
      #expect(result.err.contains("no database at"))
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.database))
  }

  // MARK: - Refusals

  @Test func badInputExits65NamingTheFieldAndWritesNothing() throws {
    importFixtures()
    let base = ["locations", "add", "Spot", "--city", "Rome"]
    let cases: [([String], String)] = [
      (base + ["--lat", "91", "--lon", "0"], "latitude '91' is out of range"),
      (base + ["--lat", "-90.0001", "--lon", "0"], "latitude '-90.0001' is out of range"),
      (base + ["--lat", "0", "--lon", "180.5"], "longitude '180.5' is out of range"),
      (base + ["--lat", "0", "--lon", "1e3"], "longitude '1e3' is out of range"),
      (
        ["locations", "add", "", "--city", "Rome", "--lat", "0", "--lon", "0"],
        "name must not be empty"
      ),
      (
        ["locations", "add", "Spot", "--city", " ", "--lat", "0", "--lon", "0"],
        "city must not be empty"
      ),
      (
        base + ["--lat", "0", "--lon", "0", "--link", "ftp://x.org"],
        "link 'ftp://x.org' is not an http(s) URL"
      ),
      (
        base + ["--lat", "0", "--lon", "0", "--link", "www.x.org"],
        "link 'www.x.org' is not an http(s) URL"
      ),
      // A terminal escape in a link is refused as in a name, not stored to be shown later.
      (
        base + ["--lat", "0", "--lon", "0", "--link", "https://a.org/\u{1B}[2J"],
        "link 'https://a.org/\\u{1B}[2J' contains a control character"
      ),
      (
        ["locations", "add", "colosseum", "--city", "ROME", "--lat", "0", "--lon", "0"],
        "a location named 'colosseum' in city 'ROME' already exists: id 1 (Colosseum, Rome)"
      ),
      (
        base + ["--lat", "0", "--lon", "0", "--image", "a", "--image", "a"],
        "image 'a' is listed more than once"
      ),
    ]
    for (arguments, message) in cases {
      try expectRefusal(arguments, message: message)
    }
    // Text that is not a number at all does not parse: a usage error (64).
    try expectRefusal(
      base + ["--lat", "north", "--lon", "0"], code: 64,
      message: "latitude 'north' is not a number")
    try expectRefusal(
      base + ["--lat", "0", "--lon", "NaN"], code: 64, message: "longitude 'NaN' is not a number")
  }

  @Test func missingOptionsAreUsageErrors() throws {
    importFixtures()
    try expectRefusal(
      ["locations", "add", "Spot", "--lat", "0", "--lon", "0"], code: 64,
      message: "missing option '--city <city>'")
    try expectRefusal(
      ["locations", "add", "Spot", "--city", "Rome", "--lon", "0"], code: 64,
      message: "missing option '--lat <degrees>'")
    try expectRefusal(["locations", "edit", "1"], code: 64, message: "nothing to change")
    try expectRefusal(
      ["locations", "near", "0", "0", "--limit", "0"], code: 64,
      message: "invalid value '0' for --limit")
    try expectRefusal(
      ["locations", "export", "--format", "kml"], code: 64,
      message: "invalid value 'kml' for --format: expected json, geojson")
  }

  @Test func unknownReferencesExit66WithAHint() throws {
    importFixtures()
    try expectRefusal(["locations", "show", "42"], code: 66, message: "no location matches '42'")
    try expectRefusal(
      ["locations", "show", "Pantheon"], code: 66,
      message: "no location matches 'Pantheon'; did you mean \"Pantheon, Rome\" (id 2)?")
    try expectRefusal(
      ["locations", "delete", "Pantheon, Paris"], code: 66,
      message: "no location matches 'Pantheon, Paris'")
    try expectRefusal(
      ["locations", "edit", "99", "--name", "x"], code: 66, message: "no location matches '99'")
  }

  // MARK: - edit, delete

  @Test func editChangesTheGivenFields() throws {
    importFixtures()
    let result = sandbox.run(
      "locations", "edit", "Colosseum, Rome", "--name", "Flavian Amphitheatre", "--lat", "41.89021",
      "--clear-images", "--image", "arena-1", "--link", "")
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out == "updated location 1: Flavian Amphitheatre, Rome\n")
    #expect(
      try sandbox.sqlite("SELECT name, city, latitude, longitude, link FROM locations WHERE id = 1")
        == "Flavian Amphitheatre|Rome|41.89021|12.4922|\n")
    #expect(
      try sandbox.sqlite("SELECT name FROM location_images WHERE location_id = 1") == "arena-1\n")
    try expectRefusal(
      ["locations", "edit", "1", "--lat", "95"], message: "latitude '95' is out of range")
    try expectRefusal(
      ["locations", "edit", "1", "--name", "Pantheon"],
      message: "a location named 'Pantheon' in city 'Rome' already exists: id 2")
    try expectRefusal(
      ["locations", "edit", "1", "--link", "mailto:a@b.c"], message: "link 'mailto:a@b.c'")
    try expectRefusal(["locations", "edit", "1", "--name", ""], message: "name must not be empty")
  }

  @Test func deleteIsRefusedWhileTradesPointAtItUnlessForced() throws {
    importFixtures()
    try addTrade("1")
    try addTrade("1")
    try addTrade("NULL")
    try expectRefusal(
      ["locations", "delete", "Colosseum, Rome"],
      message: "location 1 (Colosseum, Rome) has 2 trade(s) recorded there; use --force")
    let forced = sandbox.run("locations", "delete", "1", "--force")
    #expect(forced.code == 0)
    #expect(
      forced.out == "deleted location 1: Colosseum, Rome; cleared the location of 2 trade(s)\n")
    #expect(try sandbox.sqlite("SELECT count(*), count(location_id) FROM trades") == "3|0\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM locations WHERE id = 1") == "0\n")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM location_images WHERE location_id = 1") == "0\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM location_images") == "11\n")

    let plain = sandbox.run("locations", "delete", "Pantheon, Rome")
    #expect(plain.out == "deleted location 2: Pantheon, Rome\n")
  }

  // MARK: - near, next

  @Test func nearListsNearestFirstWithDistances() throws {
    importFixtures()
    let all = sandbox.run("locations", "near", "41.8902", "12.4922")
    #expect(
      all.out == """
        ID  NAME            CITY        KM
         1  Colosseum       Rome      0.00
         3  Trevi Fountain  Rome      1.40
         2  Pantheon        Rome      1.57
         5  Louvre Museum   Paris  1107.19
         4  Eiffel Tower    Paris  1109.42

        """)
    let within = sandbox.run(
      "locations", "near", "48.8584", "2.2945", "--radius", "5", "--limit", "1", "--format", "json")
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(within.out.utf8)) as? [[String: Any]])
    #expect(array.map { $0["name"] as? String } == ["Eiffel Tower"])
    #expect(array.first?["distance_km"] as? Double == 0)
    let louvre = sandbox.run(
      "locations", "near", "48.8584", "2.2945", "--radius", "5", "--format", "csv")
    #expect(louvre.out.split(separator: "\n").last?.hasSuffix(",3.162") == true, "\(louvre.out)")
    #expect(
      sandbox.run("locations", "near", "0", "0", "--radius", "100").out
        == "no locations within 100 km\n")
    try expectRefusal(["locations", "near", "100", "0"], message: "latitude '100' is out of range")
    try expectRefusal(
      ["locations", "near", "0", "0", "--radius", "-1"],
      message: "radius '-1' must be a positive number of kilometres")
    // A positive radius folio cannot read says why, not only the rule it meets.
    try expectRefusal(
      ["locations", "near", "0", "0", "--radius", "1e30"], code: 64,
      message: "radius '1e30' must be a positive number of kilometres: '1e30' is too large")
  }

  @Test func nextWalksTheListAndWrapsAround() throws {
    importFixtures()
    var names: [String] = []
    var current = "1"
    for _ in 0..<6 {
      let result = sandbox.run("locations", "next", current, "--format", "json")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
      names.append(object["name"] as? String ?? "?")
      current = String(object["id"] as? Int ?? 0)
    }
    #expect(
      names == [
        "Pantheon", "Trevi Fountain", "Eiffel Tower", "Louvre Museum", "Colosseum", "Pantheon",
      ])
    #expect(
      sandbox.run("locations", "next", "Louvre Museum, Paris").out.hasPrefix(
        "Colosseum, Rome (id 1)\n"))
  }

  // MARK: - import, export

  @Test func importIsAllOrNothingAndSkipsDuplicates() throws {
    let first = sandbox.run("locations", "import", Self.fixtures)
    #expect(first.out == "imported 5 location(s) from \(Self.fixtures)\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM locations") == "5\n")
    #expect(try sandbox.sqlite("SELECT count(*) FROM location_images") == "14\n")

    let file = sandbox.write(
      "more.json",
      """
      [
        {"name": "Colosseum", "city": "Rome", "latitude": 41.8902, "longitude": 12.4922},
        {"name": "Big Ben", "city": "London", "latitude": "51.5007", "longitude": -0.1246,
         "description": null, "images": ["london-bigben-1"]},
        {"name": "big ben", "city": "LONDON", "latitude": 51.5007, "longitude": -0.1246}
      ]
      """)
    let second = sandbox.run("locations", "import", file)
    #expect(second.code == 0)
    #expect(second.out == "imported 1 location(s) from \(file); skipped 2 duplicate(s)\n")
    #expect(
      second.err == """
        folio: warning: \(file):2: element 1: 'Colosseum, Rome' already exists (id 1); skipped
        folio: warning: \(file):5: element 3: 'big ben, LONDON' already exists (id 6); skipped

        """)
    #expect(
      try sandbox.sqlite("SELECT id, name, latitude, longitude FROM locations WHERE id = 6")
        == "6|Big Ben|51.5007|-0.1246\n")
  }

  @Test func badImportFilesAreRefusedWholeNamingFileElementAndField() throws {
    importFixtures()
    let valid = "{\"name\": \"A\", \"city\": \"B\", \"latitude\": 1, \"longitude\": 2}"
    let cases: [(String, String)] = [
      (
        "[\n\(valid),\n{\"name\": \"C\", \"city\": \"D\", \"latitude\": 95, \"longitude\": 0}\n]",
        "bad.json:3: element 2: latitude '95' is out of range: it must be between -90 and 90; nothing was imported"
      ),
      (
        "[\(valid), {\"name\": \"C\", \"city\": \"D\", \"latitude\": 1}]",
        "bad.json:1: element 2: longitude is missing"
      ),
      (
        "[\(valid),\n {\"name\": \"\", \"city\": \"D\", \"latitude\": 1, \"longitude\": 1}]",
        "bad.json:2: element 2: name must not be empty"
      ),
      (
        "[{\"name\": \"C\", \"city\": \"D\", \"latitude\": 1, \"longitude\": 1, \"link\": \"ftp://x\"}]",
        "bad.json:1: element 1: link 'ftp://x' is not an http(s) URL"
      ),
      (
        "[{\"name\": \"C\", \"city\": \"D\", \"lattitude\": 1, \"longitude\": 1}]",
        "bad.json:1: element 1: unknown field 'lattitude'"
      ),
      (
        "[{\"name\": 7, \"city\": \"D\", \"latitude\": 1, \"longitude\": 1}]",
        "bad.json:1: element 1: name must be a string, found a number"
      ),
      (
        "[{\"name\": \"C\", \"city\": \"D\", \"latitude\": true, \"longitude\": 1}]",
        "element 1: latitude must be a number, found a boolean"
      ),
      (
        "[{\"name\": \"C\", \"city\": \"D\", \"latitude\": 1, \"longitude\": 1, \"images\": [1]}]",
        "element 1: images must hold strings, found a number"
      ),
      (
        "[{\"name\": \"C\", \"city\": \"D\", \"latitude\": 1, \"longitude\": 1, \"created_at\": \"yesterday\"}]",
        "element 1: created_at 'yesterday' must be a UTC time"
      ),
      (
        "[\(valid), \(valid.replacingOccurrences(of: "\"A\"", with: "\"E\""))\n,]",
        "bad.json:2: column 2: expected a value, found ']'; nothing was imported"
      ),
      (
        "{\"a\": 1}",
        "bad.json:1: expected a JSON array of locations or a GeoJSON FeatureCollection"
      ),
      ("\"text\"", "found a string"),
      (
        "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": "
          + "{\"type\": \"LineString\", \"coordinates\": []}, \"properties\": {}}]}",
        "bad.json:1: feature 1: geometry must be a GeoJSON Point"
      ),
      (
        // GeoJSON positions are numbers (RFC 7946); the line is the coordinate's own.
        "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\",\n"
          + "\"geometry\": {\"type\": \"Point\", \"coordinates\": [\n1, \"2\"]},\n"
          + "\"properties\": {\"name\": \"C\", \"city\": \"D\"}}]}",
        "bad.json:3: feature 1: latitude must be a number, found a string; nothing was imported"
      ),
    ]
    for (text, message) in cases {
      let path = sandbox.write("bad.json", text)
      try expectRefusal(["locations", "import", path], message: message)
    }
    try expectRefusal(
      ["locations", "import", sandbox.file("missing.json")], code: 66,
      message: "missing.json: no such file")
    try expectRefusal(
      ["locations", "import", sandbox.path], code: 74, message: "is a folder, not a file")
    _ = FileManager.default.createFile(
      atPath: sandbox.file("latin1.json"), contents: Data([0x5B, 0xE9, 0x5D]))
    try expectRefusal(
      ["locations", "import", sandbox.file("latin1.json")],
      message: "latin1.json:1: column 2: the input is not valid UTF-8")
  }

  @Test func geoJSONExportIsAValidFeatureCollection() throws {
    importFixtures()
    let result = sandbox.run("locations", "export", "--format", "geojson")
    #expect(result.code == 0)
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(root["type"] as? String == "FeatureCollection")
    let features = try #require(root["features"] as? [[String: Any]])
    #expect(features.count == 5)
    for feature in features {
      #expect(feature["type"] as? String == "Feature")
      let geometry = try #require(feature["geometry"] as? [String: Any])
      #expect(geometry["type"] as? String == "Point")
      #expect((geometry["coordinates"] as? [Double])?.count == 2)
      let properties = try #require(feature["properties"] as? [String: Any])
      #expect(properties["name"] is String && properties["city"] is String)
    }
    // RFC 7946 §3.1.1: longitude first, then latitude.
    let eiffel = try #require(
      features.first { ($0["properties"] as? [String: Any])?["name"] as? String == "Eiffel Tower" })
    #expect(
      (eiffel["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [2.2945, 48.8584])
    #expect(eiffel["id"] as? Int == 4)
  }

  @Test func exportThenImportRoundTripsInBothFormats() throws {
    importFixtures()
    #expect(
      sandbox.run(
        "locations", "edit", "1", "--lat", "-0.00001", "--lon", "-179.999999999",
        "--description", "Line one\nline \"two\" é"
      ).code == 0)
    for format in ["json", "geojson"] {
      let file = sandbox.file("export.\(format)")
      let exported = sandbox.run("locations", "export", "--format", format, "--out", file)
      #expect(exported.out == "exported 5 location(s) to \(file)\n")
      let copy = Sandbox()
      let imported = copy.run("locations", "import", file)
      #expect(imported.out == "imported 5 location(s) from \(file)\n", "\(imported.err)")
      let tables =
        "SELECT * FROM locations ORDER BY id; SELECT * FROM location_images ORDER BY 1, 2;"
      #expect(try copy.sqlite(tables) == (try sandbox.sqlite(tables)), "\(format)")
      #expect(
        copy.run("locations", "export", "--format", format).out
          == (try String(contentsOfFile: file, encoding: .utf8)))
    }
  }

  @Test func exportToAFolderThatDoesNotExistIsAnIOError() throws {
    importFixtures()
    try expectRefusal(
      ["locations", "export", "--out", sandbox.file("no/such/folder/x.json")], code: 74,
      message: "x.json: cannot be written")
  }

  // MARK: - The schema outside Folio

  func sqliteShellCannotStoreABadLocation() throws {
    importFixtures()
    let before = try sandbox.dump()
    let columns =
      "INSERT INTO locations (name, city, latitude, longitude, link, created_at, updated_at)"
    let stamp = "'2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z'"
    let rows = [
      "\(columns) VALUES ('X', 'Rome', 90.5, 0, NULL, \(stamp))",
      "\(columns) VALUES ('X', 'Rome', 0, -180.5, NULL, \(stamp))",
      "\(columns) VALUES ('X', 'Rome', 'north', 0, NULL, \(stamp))",
      "\(columns) VALUES ('X', 'Rome', 0, 0, 'ftp://x.org', \(stamp))",
      "\(columns) VALUES ('X', 'Rome', 0, 0, 'javascript:alert(1)', \(stamp))",
      "\(columns) VALUES ('', 'Rome', 0, 0, NULL, \(stamp))",
      "\(columns) VALUES ('COLOSSEUM', 'rome', 0, 0, NULL, \(stamp))",
      "\(columns) VALUES ('X', 'Rome', 0, 0, NULL, 'today', 'today')",
    ]
    for sql in rows {
      let result = try Binary.runTool(Binary.sqlite3, [sandbox.database, sql])
      #expect(result.code != 0, "\(sql)")
      // SQLITE_CONSTRAINT (19): a CHECK, UNIQUE or STRICT type rule refused the row.
      #expect(result.err.contains("(19)"), "\(sql): \(result.err)")
    }
    #expect(try sandbox.dump() == before)
    // Images go with their location even though the shell leaves foreign keys off.
    _ = try sandbox.sqlite("DELETE FROM locations WHERE id = 2")
    #expect(
      try sandbox.sqlite("SELECT count(*) FROM location_images WHERE location_id = 2") == "0\n")
  }

  @Test func theBuiltBinaryRunsLocationsCommands() throws {
    let env = ["FOLIO_DB": sandbox.database]
    let imported = try Binary.run(["locations", "import", Self.fixtures], environment: env)
    #expect(imported.code == 0, "\(imported.err)")
    let near = try Binary.run(
      ["locations", "near", "41.8902", "12.4922", "--radius", "2"], environment: env)
    #expect(near.code == 0)
    #expect(near.out.contains("Pantheon        Rome  1.57"), "\(near.out)")
    let bad = try Binary.run(
      ["locations", "add", "X", "--city", "Y", "--lat", "0", "--lon", "200"], environment: env)
    #expect(bad.code == 65)
    #expect(
      bad.err == "folio: error: longitude '200' is out of range: it must be between -180 and 180\n")
    #expect(bad.out.isEmpty)
  }
}

extension LocationsCommandTests {
  /// The tests that run the sqlite3 shell: skipped, saying why, where it is not installed.
  @Suite(.requires(.sqlite3)) struct NeedsSQLite3 {
    @Test func sqliteShellCannotStoreABadLocation() throws {
      try LocationsCommandTests().sqliteShellCannotStoreABadLocation()
    }
  }
}
