import FolioTestSupport
import Foundation
import Testing

@testable import FolioService

@Suite struct CSVReaderTests {
  func records(_ text: String) throws -> [CSVRecord] {
    try records(Data(text.utf8))
  }

  func records(_ data: Data) throws -> [CSVRecord] {
    let folder = TemporaryFolder("csv")
    let path = folder.file("t.csv")
    FileManager.default.createFile(atPath: path, contents: data)
    let handle = try #require(FileHandle(forReadingAtPath: path))
    let reader = CSVReader(handle: handle, source: "t.csv")
    var result: [CSVRecord] = []
    while let record = try reader.next() { result.append(record) }
    return result
  }

  @Test func quotedCommasQuotesAndLineBreaks() throws {
    let rows = try records("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,row")
    #expect(
      rows.map(\.fields) == [
        ["a", "b"], ["x, y", "say \"hi\""], ["two\nlines", "z"], ["last", "row"],
      ])
    #expect(rows.map(\.line) == [1, 2, 3, 5])
  }

  @Test func byteOrderMarkAndCRLF() throws {
    let rows = try records(Data([0xEF, 0xBB, 0xBF]) + Data("date,side\r\n1,2\r\n".utf8))
    #expect(rows.map(\.fields) == [["date", "side"], ["1", "2"]])
  }

  @Test func emptyFieldsAndBlankLines() throws {
    let rows = try records("a,,c\n\n,\n")
    #expect(rows.map(\.fields) == [["a", "", "c"], [""], ["", ""]])
  }

  @Test func unterminatedQuoteNamesTheLine() {
    #expect {
      try records("a\n\"open,b\nc")
    } throws: { error in
      (error as? CSVError)?.errorDescription
        == "t.csv:2: a quoted field is not closed before the end of the file"
    }
  }

  @Test func textAfterClosingQuoteAndStrayQuote() {
    #expect(throws: CSVError.self) { try records("\"a\"b\n") }
    #expect(throws: CSVError.self) { try records("a\"b\n") }
  }

  @Test func invalidUTF8IsRefusedWithItsLine() {
    #expect {
      try records(Data("ok\n".utf8) + Data([0x61, 0xFF, 0x0A]))
    } throws: { error in
      (error as? CSVError)?.errorDescription == "t.csv:2: is not valid UTF-8 text"
    }
  }

  @Test func largeInputStreamsAcrossBuffers() throws {
    let line = "2024-01-01T00:00:00Z,buy,bitcoin,0.1,100,0,\"note, with comma\"\n"
    let count = 40_000  // about 2.6 MB: crosses several 1 MiB reads
    let rows = try records(String(repeating: line, count: count))
    #expect(rows.count == count)
    #expect(rows.last?.fields[6] == "note, with comma")
    #expect(rows.last?.line == count)
  }

  @Test func fieldsSplitAcrossReadsAreWhole() throws {
    // Lines of varying length, so that 1 MiB reads end inside fields of every kind: plain,
    // non-ASCII, quoted, and at a CRLF.
    let lines = (0..<30_000).map { index in
      "\(index),café \(index * 7),\"q, \(index)\",\(String(repeating: "x", count: index % 13))\r\n"
    }
    let rows = try records(lines.joined())
    #expect(rows.count == lines.count)
    for (index, row) in rows.enumerated() {
      let expected = [
        "\(index)", "café \(index * 7)", "q, \(index)", String(repeating: "x", count: index % 13),
      ]
      guard row.fields == expected, row.line == index + 1 else {
        Issue.record("line \(index + 1): \(row.fields)")
        return
      }
    }
  }

  @Test func invalidUTF8InAPlainFieldIsRefusedWithItsLine() {
    #expect {
      try records(Data("a,b\nc,".utf8) + Data([0xC3, 0x28]) + Data(",d\n".utf8))
    } throws: { error in
      (error as? CSVError)?.errorDescription == "t.csv:2: is not valid UTF-8 text"
    }
  }

  @Test func aByteOrderMarkArrivingAByteAtATimeIsSkipped() throws {
    let pipe = Pipe()
    let writer = pipe.fileHandleForWriting
    let reader = CSVReader(handle: pipe.fileHandleForReading, source: "-")
    let feeder = Thread {
      for chunk: [UInt8] in [[0xEF], [0xBB], [0xBF] + Array("a,b\n".utf8)] {
        writer.write(Data(chunk))
        Thread.sleep(forTimeInterval: 0.05)
      }
      try? writer.close()
    }
    feeder.start()
    #expect(try reader.next()?.fields == ["a", "b"])
    #expect(try reader.next() == nil)
  }

  @Test func utf16IsNamedAsSuch() {
    for bom: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF]] {
      let reader = CSVReader(bytes: bom + [0x61, 0x00], source: "u.csv")
      #expect(
        throws: CSVError(
          source: "u.csv", line: 1,
          reason: "is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8")
      ) { try reader.next() }
    }
  }

  @Test func readsFromMemoryAsFromAFile() throws {
    let text = "\u{FEFF}a,\"b\r\nc\"\r\n\n\"x\"\"\",y"
    let reader = CSVReader(bytes: Array(text.utf8), source: "m.csv")
    var fromMemory: [CSVRecord] = []
    while let record = try reader.next() { fromMemory.append(record) }
    #expect(fromMemory == (try records(text)))
    #expect(fromMemory.map(\.fields) == [["a", "b\r\nc"], [""], ["x\"", "y"]])
    #expect(fromMemory.map(\.line) == [1, 3, 4])
  }
}
