import Foundation
import Testing

/// FIFO results against an established double-entry tool: the same generated history,
/// booked by beancount (FIFO) and by folio, must agree to the cent.
@Suite struct BeancountCrossCheckTests {
  let sandbox = Sandbox()

  /// The package root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A program on PATH, or nil.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Sums of decimal strings, exactly, through python3's decimal module.
  func python(_ script: String, _ input: String) throws -> String {
    try Binary.runTool("/usr/bin/env", ["python3", "-c", script], stdin: input).out
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func fifoAgreesWithBeancountToTheCent() throws {
    let generator = Self.root.deletingLastPathComponent().appendingPathComponent(
      "shared/bench/gen.py")
    let beanQuery = try #require(
      Self.which("bean-query"),
      "bean-query is not installed: pip install beancount beanquery (.ci/run does)")
    let data = sandbox.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let generated = try Binary.runTool(
      "/usr/bin/env", ["python3", generator.path, "3000", data, "--no-fees", "--coins", "6"])
    #expect(generated.code == 0, "\(generated.err)")

    let imported = sandbox.run("import", "trades", data + "/trades.csv")
    #expect(imported.code == 0, "\(imported.err)")

    // Beancount: realized profit is minus the Income:Gains total (rounded per posting to
    // cents); the remaining cost per commodity is the cost of Assets:Crypto.
    let gains = try Binary.runTool(
      beanQuery,
      [
        "-f", "csv", data + "/journal.beancount",
        "SELECT sum(number) WHERE account = 'Income:Gains'",
      ])
    #expect(gains.code == 0, "\(gains.err)")
    let beancountRealized = try python(
      "import sys, decimal; print(-decimal.Decimal(sys.stdin.read().split()[-1]))", gains.out)
    let costs = try Binary.runTool(
      beanQuery,
      [
        "-f", "csv", data + "/journal.beancount",
        "SELECT currency, sum(number(cost(position))) WHERE account = 'Assets:Crypto' GROUP BY currency",
      ])
    #expect(costs.code == 0, "\(costs.err)")

    // Folio: each sell's realized profit rounded to the cent, as beancount posts it.
    let realized = try sandbox.sqlite("SELECT realized_pnl FROM disposals")
    let folioRealized = try python(
      """
      import sys, decimal
      D = decimal.Decimal
      print(sum(D(line).quantize(D('0.01'), decimal.ROUND_HALF_EVEN) for line in sys.stdin.read().split()))
      """, realized)
    #expect(folioRealized == beancountRealized)
    #expect(!folioRealized.isEmpty)

    let symbols = try String(contentsOfFile: data + "/markets.json", encoding: .utf8)
    let folioCosts = try sandbox.sqlite("SELECT coin_id, cost_basis FROM positions")
    let comparison = try python(
      """
      import sys, json, decimal
      D = decimal.Decimal
      symbols_text, folio_text, bean_text = sys.stdin.read().split('\\n=====\\n')
      symbol = {c['id']: c['symbol'].upper() for c in json.loads(symbols_text)}
      folio = {symbol[l.split('|')[0]]: D(l.split('|')[1]).quantize(D('0.01')) for l in folio_text.split()}
      bean = {}
      for line in bean_text.strip().split('\\n')[1:]:
          cur, amount = [part.strip() for part in line.split(',')]
          bean[cur] = D(amount.split()[0]).quantize(D('0.01'))
      bad = [c for c in set(folio) | set(bean) if folio.get(c, D(0)) != bean.get(c, D(0))]
      print('ok' if not bad and folio else 'mismatch %s %s %s' % (bad, folio, bean))
      """, symbols + "\n=====\n" + folioCosts + "\n=====\n" + costs.out)
    #expect(comparison == "ok")
  }
}
