import FolioTestSupport
import Foundation
import Testing

/// Folio against established accounting tools: the same history from the project's generator
/// (`HistoryGenerator`), booked by beancount (FIFO) and by hledger and by folio, must agree.
/// Each test is skipped, saying why, where its tool is missing; `.ci/run` installs them.
@Suite struct PeerCrossCheckTests {
  let sandbox = Sandbox()

  /// Sums of decimal strings, exactly, through python3's decimal module.
  func python(_ script: String, _ input: String) throws -> String {
    try Binary.runTool(try #require(ExternalTool.python3.path), ["-c", script], stdin: input).out
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Writes a generated history into the sandbox's `data` folder and returns the folder.
  func generate(_ generator: HistoryGenerator) throws -> String {
    let data = sandbox.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    try generator.write(to: data)
    return data
  }

  func fifoAgreesWithBeancountToTheCent() throws {
    let beanQuery = try #require(ExternalTool.beanQuery.path)
    var generator = HistoryGenerator(trades: 3000)
    generator.coinCount = 6
    generator.fees = false
    let data = try generate(generator)

    let imported = sandbox.run("import", "trades", data + "/trades.csv", "--allow-future")
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

extension PeerCrossCheckTests {
  /// hledger's balance per commodity, the generator's own arithmetic and folio's holdings give
  /// the same quantities.
  func holdingsAgreeWithHledgerAndTheGenerator() throws {
    let hledger = try #require(ExternalTool.hledger.path)
    var generator = HistoryGenerator(trades: 2000)
    generator.coinCount = 8
    let data = try generate(generator)

    let imported = sandbox.run("import", "trades", data + "/trades.csv", "--allow-future")
    #expect(imported.code == 0, "\(imported.err)")
    let holdings = sandbox.run("holdings", "--format", "csv")
    #expect(holdings.code == 0, "\(holdings.err)")
    let header = holdings.out.split(separator: "\n").first?.split(separator: ",") ?? []
    let coinColumn = try #require(header.firstIndex(of: "coin"))
    let quantityColumn = try #require(header.firstIndex(of: "quantity"))
    var folio: [String: String] = [:]
    for line in holdings.out.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count > quantityColumn, !fields[coinColumn].isEmpty else { continue }
      folio[String(fields[coinColumn])] = String(fields[quantityColumn])
    }

    let balance = try Binary.runTool(
      hledger,
      [
        "-f", data + "/journal.ledger", "balance", "Assets:Crypto", "-N", "-O", "csv",
        "--layout=bare",
      ])
    #expect(balance.code == 0, "\(balance.err)")
    var ledger: [String: String] = [:]  // symbol → quantity, from "account","commodity","balance"
    for line in balance.out.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: ["\""]) }
      if fields.count == 3 { ledger[fields[1]] = fields[2] }
    }
    #expect(ledger.count == 8, "\(balance.out)")

    let expected =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: data + "/expected.json"))) as? [String: Any]
    let generated = try #require(expected?["holdings"] as? [String: String])
    #expect(generated.count == 8)
    for coin in HistoryGenerator.coins.prefix(8) {
      let quantity = try #require(generated[coin.id])
      #expect(
        trimmedDecimal(folio[coin.id] ?? "0") == trimmedDecimal(quantity), "folio, \(coin.id)")
      #expect(
        trimmedDecimal(ledger[coin.symbol.uppercased()] ?? "0") == trimmedDecimal(quantity),
        "hledger, \(coin.id)")
    }
  }
}

/// A decimal's text without trailing zeros, so "1.50000000" equals "1.5".
private func trimmedDecimal(_ text: String) -> String {
  guard text.contains(".") else { return text }
  var trimmed = Substring(text)
  while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
  if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
  return String(trimmed)
}

extension PeerCrossCheckTests {
  /// The tests that run beancount and python3: skipped, saying why, where it is not installed.
  @Suite(.requires(.beanQuery), .requires(.python3)) struct NeedsBeancountPython3 {
    @Test func fifoAgreesWithBeancountToTheCent() throws {
      try PeerCrossCheckTests().fifoAgreesWithBeancountToTheCent()
    }
  }
}

extension PeerCrossCheckTests {
  /// The tests that run hledger: skipped, saying why, where it is not installed.
  @Suite(.requires(.hledger)) struct NeedsHledger {
    @Test func holdingsAgreeWithHledgerAndTheGenerator() throws {
      try PeerCrossCheckTests().holdingsAgreeWithHledgerAndTheGenerator()
    }
  }
}
