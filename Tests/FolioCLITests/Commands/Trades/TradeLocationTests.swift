import Foundation
import Testing

/// Locations on trades (issue 14, point 7): `tx show`, `tx list`, `tx edit --location` and
/// `--no-location`, and the CSV `location` column of `import trades` and `export trades`.
@Suite struct TradeLocationTests {
  let sandbox = Sandbox()

  /// Two places and two trades: #1 at the Colosseum with an external id, #2 nowhere.
  func seed(_ sandbox: Sandbox) {
    for (name, city, lat, lon) in [
      ("Colosseum", "Rome", "41.8902", "12.4922"), ("Eiffel Tower", "Paris", "48.8584", "2.2945"),
    ] {
      let added = sandbox.run("locations", "add", name, "--city", city, "--lat", lat, "--lon", lon)
      #expect(added.code == 0, "\(added.err)")
    }
    #expect(
      sandbox.run(
        "buy", "bitcoin", "1", "--price", "100", "--date", "2024-01-01", "--id", "ext-7",
        "--location", "colosseum, rome"
      ).out == "1\n")
    #expect(
      sandbox.run("buy", "bitcoin", "2", "--price", "110", "--date", "2024-01-02").out == "2\n")
  }

  @Test func txShowGivesTheLocationAndTheExternalID() throws {
    seed(sandbox)
    let text = sandbox.run("tx", "show", "1")
    #expect(text.code == 0, "\(text.err)")
    #expect(text.out.contains("\nid:        ext-7\n"), "\(text.out)")
    #expect(text.out.contains("\nlocation:  Colosseum, Rome (location 1)\n"), "\(text.out)")
    #expect(!sandbox.run("tx", "show", "2").out.contains("location:"))
    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(sandbox.run("tx", "show", "1", "--format", "json").out.utf8))
        as? [String: Any])
    #expect(json["location"] as? String == "Colosseum, Rome")
    #expect(json["location_id"] as? Int == 1)
    #expect(json["external_id"] as? String == "ext-7")
  }

  @Test func txListHasALocationColumnInEveryFormat() throws {
    seed(sandbox)
    let csv = sandbox.run("tx", "list", "--format", "csv")
    #expect(
      csv.out == """
        id,date,side,coin,quantity,price,fee,note,location
        1,2024-01-01T00:00:00Z,buy,bitcoin,1,100,0,,"Colosseum, Rome"
        2,2024-01-02T00:00:00Z,buy,bitcoin,2,110,0,,

        """)
    let text = sandbox.run(["tx", "list"], environment: Sandbox.wide).out.split(separator: "\n")
      .map(String.init)
    #expect(text.first?.contains("FEE  LOCATION         NOTE") == true, "\(text)")
    #expect(text.count == 3)
    #expect(text[1].hasSuffix("  Colosseum, Rome"), "\(text)")
    let rows = try #require(
      try JSONSerialization.jsonObject(
        with: Data(sandbox.run("tx", "list", "--format", "json").out.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["location"] as? String } == ["Colosseum, Rome", nil])
    #expect(rows.count == 2 && rows[1]["location"] is NSNull)
  }

  @Test func txEditSetsAndRemovesTheLocation() throws {
    seed(sandbox)
    func stored() throws -> String {
      try sandbox.sqlite("SELECT ifnull(location_id, '-') FROM trades ORDER BY id")
    }
    let moved = sandbox.run("tx", "edit", "2", "--location", "EIFFEL TOWER, Paris")
    #expect(moved.code == 0, "\(moved.err)")
    #expect(moved.out == "updated trade #2\n")
    #expect(try stored() == "1\n2\n")
    let json = sandbox.run("tx", "edit", "1", "--location", "2", "--format", "json")
    #expect(json.out.contains("\"location\": \"Eiffel Tower, Paris\""), "\(json.out)")
    #expect(try stored() == "2\n2\n")
    #expect(sandbox.run("tx", "edit", "1", "--no-location").code == 0)
    #expect(try stored() == "-\n2\n")
    // The price, quantity and lots are untouched by a location change.
    #expect(try sandbox.sqlite("SELECT price, quantity FROM trades WHERE id = 1") == "100|1\n")

    // Refusals change nothing: an unknown place (the resolver `buy --location` uses: 66),
    // both options at once (64), a trade that does not exist (65).
    let before = try sandbox.dump()
    let unknown = sandbox.run("tx", "edit", "1", "--location", "Louvre, Paris")
    #expect(unknown.code == 66)
    #expect(unknown.err.contains("no location matches 'Louvre, Paris'"), "\(unknown.err)")
    let missingID = sandbox.run("tx", "edit", "1", "--location", "9")
    #expect(missingID.code == 66)
    let both = sandbox.run("tx", "edit", "1", "--location", "1", "--no-location")
    #expect(both.code == 64)
    #expect(both.err.contains("give either --location or --no-location, not both"))
    #expect(sandbox.run("tx", "edit", "9", "--location", "1").code == 66)
    #expect(sandbox.run("tx", "edit", "1").err.contains("--location, --no-location"))
    #expect(try sandbox.dump() == before)
  }

  @Test func importReadsTheLocationColumnByNameOrID() throws {
    seed(sandbox)
    let file = sandbox.write(
      "places.csv",
      """
      date,side,coin,quantity,price,location
      2024-02-01,buy,bitcoin,1,100,"eiffel tower, paris"
      2024-02-02,buy,bitcoin,1,100,1
      2024-02-03,buy,bitcoin,1,100,

      """)
    let imported = sandbox.run("import", "trades", file)
    #expect(imported.code == 0, "\(imported.err)")
    #expect(
      try sandbox.sqlite("SELECT ifnull(location_id, '-') FROM trades WHERE id > 2 ORDER BY id")
        == "2\n1\n-\n")

    let before = try sandbox.dump()
    let bad = sandbox.write(
      "bad.csv",
      """
      date,side,coin,quantity,price,location
      2024-03-01,buy,bitcoin,1,100,"Colosseum, Rome"
      2024-03-02,buy,bitcoin,1,100,Louvre
      2024-03-03,buy,bitcoin,1,100,7

      """)
    let refused = sandbox.run("import", "trades", bad)
    #expect(refused.code == 65)
    #expect(refused.err.contains("bad.csv:3: no location matches 'Louvre'"), "\(refused.err)")
    #expect(refused.err.contains("bad.csv:4: no location matches '7'"), "\(refused.err)")
    #expect(try sandbox.dump() == before)
  }

  /// Export → import into a new database holding the same places → export again gives the
  /// same bytes, and every trade keeps its place; a name holding a comma that would make
  /// `"NAME, CITY"` name two places is exported as the id.
  @Test func exportImportKeepsLocationsByteIdentical() throws {
    seed(sandbox)
    for (name, city) in [("A, B", "C"), ("A", "B, C")] {
      #expect(
        sandbox.run("locations", "add", name, "--city", city, "--lat", "1", "--lon", "1").code
          == 0)
    }
    #expect(sandbox.run("sell", "bitcoin", "0.5", "--price", "120", "--location", "4").code == 0)
    #expect(sandbox.run("tx", "edit", "2", "--location", "Eiffel Tower, Paris").code == 0)
    let places = sandbox.file("places.json")
    #expect(sandbox.run("locations", "export", "--out", places).code == 0)
    let first = sandbox.file("first.csv")
    #expect(sandbox.run("export", "trades", "--out", first).code == 0)
    let exported = try String(contentsOfFile: first, encoding: .utf8)
    #expect(exported.hasPrefix("date,side,coin,quantity,price,fee,note,id,location\n"))
    #expect(exported.contains(",ext-7,\"Colosseum, Rome\"\n"), "\(exported)")
    #expect(exported.contains(",sell,bitcoin,0.5,120,0,,folio-3,4\n"), "\(exported)")

    let other = Sandbox()
    #expect(other.run("locations", "import", places).code == 0)
    let imported = other.run("import", "trades", first)
    #expect(imported.code == 0, "\(imported.err)")
    #expect(other.run("export", "trades").out == exported)
    #expect(
      try other.sqlite("SELECT ifnull(location_id, '-') FROM trades ORDER BY id")
        == (try sandbox.sqlite("SELECT ifnull(location_id, '-') FROM trades ORDER BY id")))
  }
}
