import FolioTestSupport
import Foundation
import Testing

/// The examples of README.md and docs/*.md are real output: every ```console block is run
/// in a fresh sandbox (clock 2024-11-30T12:00:00Z), each `$ folio ARGS` line in turn, and what
/// the block shows under a command must be exactly what it printed on stdout. A command may
/// set the width first, as a user would: `$ COLUMNS=100 folio holdings`; without it, output is
/// 80 columns wide, as in a pipe.
@Suite struct DocsExamplesTests {
  struct Example {
    let file: String
    let line: Int
    let arguments: [String]
    let environment: [String: String]
    let expected: String
  }

  /// The console blocks of `file`, each as its commands in order.
  static func blocks(_ file: String) throws -> [[Example]] {
    let text = try String(contentsOfFile: Fixtures.package + "/" + file, encoding: .utf8)
    var blocks: [[Example]] = []
    var current: [Example]?
    var command: (line: Int, arguments: [String], environment: [String: String])?
    var output: [String] = []
    func flush() {
      if let command {
        current?.append(
          Example(
            file: file, line: command.line, arguments: command.arguments,
            environment: command.environment, expected: output.map { $0 + "\n" }.joined()))
      }
      command = nil
      output = []
    }
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if current == nil {
        if line == "```console" { current = [] }
        continue
      }
      if line == "```" {
        flush()
        if let block = current { blocks.append(block) }
        current = nil
      } else if line.hasPrefix("$ folio ") {
        flush()
        command = (index + 1, words(String(line.dropFirst("$ folio ".count))), [:])
      } else if line.hasPrefix("$ COLUMNS="), let folio = line.range(of: " folio ") {
        flush()
        let columns = String(line[line.index(line.startIndex, offsetBy: 10)..<folio.lowerBound])
        command = (
          index + 1, words(String(line[folio.upperBound...])), ["COLUMNS": columns]
        )
      } else {
        output.append(line)
      }
    }
    return blocks
  }

  /// Splits a command line at spaces, keeping single- or double-quoted words whole.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    var started = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        started = true
      } else if character == " " {
        if started || !word.isEmpty { words.append(word) }
        word = ""
        started = false
      } else {
        word.append(character)
      }
    }
    if started || !word.isEmpty { words.append(word) }
    return words
  }

  static let files =
    ["README.md"]
    + {
      let docs = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.package + "/docs"))
      return (docs ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

  @Test func theLedgerExamplesAreThere() throws {
    let commands = try Self.files.flatMap { try Self.blocks($0).flatMap { $0 } }
      .map { $0.arguments.first ?? "" }
    for command in ["holdings", "tx", "locations"] {
      #expect(commands.contains(command), "no console example of folio \(command)")
    }
  }

  @Test(arguments: files) func examplesMatchTheRealOutput(file: String) throws {
    for block in try Self.blocks(file) {
      let sandbox = Sandbox()
      for example in block {
        // A path under Fixtures/ names the package's fixture.
        let arguments = example.arguments.map {
          $0.hasPrefix("Fixtures/") ? Fixtures.path(String($0.dropFirst("Fixtures/".count))) : $0
        }
        let result = sandbox.run(arguments, environment: example.environment)
        #expect(result.code == 0, "\(file):\(example.line): \(result.err)")
        #expect(
          result.out.replacingOccurrences(of: Fixtures.root, with: "Fixtures") == example.expected,
          "\(file):\(example.line) folio \(example.arguments.joined(separator: " "))")
      }
    }
  }
}
