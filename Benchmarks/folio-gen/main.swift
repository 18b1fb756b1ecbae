import FolioTestSupport
import Foundation

/// folio-gen: writes a synthetic trade history for the tests and benchmarks (see
/// `HistoryGenerator`). usage: folio-gen TRADES FOLDER [--coins K] [--seed S] [--no-fees]
/// [--order oldest|newest|shuffled] [--dca]
let usage = """
  usage: folio-gen TRADES FOLDER [--coins K] [--seed S] [--no-fees] [--order oldest|newest|shuffled] [--dca]
  Writes trades.csv, journal.ledger, journal.beancount, markets.json and expected.json into FOLDER.
  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("folio-gen: \(message)\n\(usage)\n".utf8))
  exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var positional: [String] = []
var generator = HistoryGenerator(trades: 0)
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  func value() -> String {
    guard !arguments.isEmpty else { fail("\(argument) needs a value") }
    return arguments.removeFirst()
  }
  switch argument {
  case "--coins":
    guard let count = Int(value()), (1...HistoryGenerator.coins.count).contains(count) else {
      fail("--coins takes 1 to \(HistoryGenerator.coins.count)")
    }
    generator.coinCount = count
  case "--seed":
    guard let seed = UInt64(value()) else { fail("--seed takes a whole number") }
    generator.seed = seed
  case "--order":
    guard let order = HistoryGenerator.Order(rawValue: value()) else {
      fail("--order takes oldest, newest or shuffled")
    }
    generator.order = order
  case "--no-fees": generator.fees = false
  case "--dca": generator.dca = true
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    if argument.hasPrefix("-") { fail("unknown option \(argument)") }
    positional.append(argument)
  }
}
guard positional.count == 2, let trades = Int(positional[0]), trades >= 0 else {
  fail("expected TRADES and FOLDER")
}
generator.trades = trades
do {
  try FileManager.default.createDirectory(
    atPath: positional[1], withIntermediateDirectories: true)
  try generator.write(to: positional[1])
} catch {
  FileHandle.standardError.write(Data("folio-gen: \(error.localizedDescription)\n".utf8))
  exit(74)
}
