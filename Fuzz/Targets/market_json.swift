// libFuzzer target: the strict JSON parser and the CoinGecko payload decoder behind
// `folio market import` and `market refresh` (the same parser reads locations files).
//
// Any bytes either parse or throw a JSONParseError whose line and column lie inside the input;
// a parsed document is recognised as a CoinGecko response or refused with a PayloadError.
// Nothing traps, however deep, long or malformed the input.

@testable import FolioService

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarketJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let lines = bytes.filter { $0 == 0x0A }.count + 1
  do {
    let value = try JSONValue.parse(bytes)
    var notes = PayloadNotes()
    do {
      let document = try CoinGeckoDocument.read(value, notes: &notes)
      _ = document.dataTime
      if case .markets(let page) = document {
        for quote in page.quotes { _ = quote.currentPrice.description }
      }
    } catch {
      if let line = error.line { precondition(line >= 1 && line <= lines, "line \(line)") }
    }
  } catch {
    precondition(error.line >= 1 && error.line <= lines, "line \(error.line) of \(lines)")
    precondition(error.column >= 1)
  }
  return 0
}
