import Foundation
import Testing

/// The rules every way in of a trade shares (`buy`, `sell`, `tx edit`, `import trades`) and,
/// for numbers, `locations`: future dates and the number syntax.
@Suite struct TradeInputRulesTests {
  let sandbox = Sandbox()
  let header = "date,side,coin,quantity,price,fee,note\n"

  func refused(_ arguments: [String], _ message: String, code: Int32 = 65) throws {
    let before = try sandbox.dump()
    let result = sandbox.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.err)")
    #expect(result.err.hasPrefix("folio: error: "), "\(arguments)")
    #expect(result.err.contains(message), "\(arguments): \(result.err)")
    #expect(result.out.isEmpty)
    #expect(try sandbox.dump() == before, "\(arguments) changed the database")
  }

  /// The sandbox's clock reads 2024-11-30T12:00:00Z, so the latest date accepted without
  /// --allow-future is 2024-12-01T12:00:00Z.
  @Test func aDateMoreThanADayAheadNeedsAllowFuture() throws {
    let limit = ["--price", "10", "--date", "2024-12-01T12:00:00Z"]
    #expect(sandbox.run(["buy", "bitcoin", "2"] + limit).out == "1\n")
    let message =
      "'2030-01-01' is more than a day in the future (after 2024-12-01T12:00:00Z); "
      + "give --allow-future if it is right"
    try refused(["buy", "bitcoin", "1", "--price", "10", "--date", "2030-01-01"], message)
    try refused(
      ["sell", "bitcoin", "1", "--price", "10", "--date", "2024-12-01T12:00:01Z"],
      "more than a day in the future")
    try refused(["tx", "edit", "1", "--date", "2030-01-01"], message)
    let file = sandbox.write(
      "future.csv", header + "2024-11-01,buy,bitcoin,1,5,0,\n2030-01-01,sell,bitcoin,1,9,0,\n")
    try refused(["import", "trades", file], "\(file):3: date: \(message)")

    // With --allow-future each is accepted.
    #expect(
      sandbox.run("buy", "bitcoin", "1", "--price", "10", "--date", "2030-01-01", "--allow-future")
        .out == "2\n")
    #expect(sandbox.run("tx", "edit", "1", "--date", "2029-06-01", "--allow-future").code == 0)
    #expect(
      sandbox.run("sell", "bitcoin", "1", "--price", "9", "--date", "2031-01-01", "--allow-future")
        .out == "3\n")
    let imported = sandbox.run("import", "trades", file, "--allow-future")
    #expect(imported.code == 0, "\(imported.err)")
    #expect(
      try sandbox.sqlite("SELECT executed_at FROM trades ORDER BY id")
        == "2029-06-01T00:00:00Z\n2030-01-01T00:00:00Z\n2031-01-01T00:00:00Z\n"
        + "2024-11-01T00:00:00Z\n2030-01-01T00:00:00Z\n")
    // An edit that leaves a future date alone needs no flag.
    #expect(sandbox.run("tx", "edit", "2", "--price", "11").code == 0)
  }

  /// `.5`, `5.`, `+5`, exponents and surrounding spaces are read the same way by buy and
  /// sell options, CSV fields and coordinates; `-0` is zero, so it is no quantity.
  @Test func oneNumberRuleForOptionsCSVAndCoordinates() throws {
    #expect(
      sandbox.run("buy", "bitcoin", ".5", "--price", "1e3", "--date", "2024-01-01").out == "1\n")
    #expect(
      sandbox.run(
        "sell", "bitcoin", "+.25", "--price", "4E-8", "--fee", "5.", "--date", "2024-01-02"
      )
      .out == "2\n")
    let file = sandbox.write(
      "numbers.csv",
      header + "2024-01-03,buy,bitcoin, 1.5E1 ,.5,-0,\n2024-01-04,buy,bitcoin,5.,2e-2,,\n")
    let imported = sandbox.run("import", "trades", file)
    #expect(imported.code == 0, "\(imported.err)")
    #expect(
      try sandbox.sqlite("SELECT quantity, price, fee FROM trades ORDER BY id")
        == "0.5|1000|0\n0.25|0.00000004|5\n15|0.5|0\n5|0.02|0\n")
    try refused(
      ["buy", "bitcoin", "-0", "--price", "1"], "quantity: must be greater than zero, got '-0'")
    // Text that does not parse is a usage error (64); a number that breaks a rule is 65.
    try refused(
      ["buy", "bitcoin", ".", "--price", "1"], "quantity: '.' is not a valid decimal", code: 64)
    try refused(["buy", "bitcoin", "1", "--price", "1,5"], "thousands separators", code: 64)
    let added = sandbox.run(
      "locations", "add", "Spot", "--city", "Rome", "--lat", ".5e1", "--lon", "-12.")
    #expect(added.out == "added location 1: Spot, Rome (5, -12)\n", "\(added.err)")
    try refused(
      ["locations", "add", "Far", "--city", "Rome", "--lat", "9.1e1", "--lon", "0"],
      "latitude '9.1e1' is out of range")
  }
}
