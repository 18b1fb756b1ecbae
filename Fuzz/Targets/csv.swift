// libFuzzer target: the CSV reader and the validation of every trade field it feeds.
//
// Any bytes either read as records or stop with a CSVError naming a line of the input; every
// field goes through the checks an import runs (numbers, dates, coin ids, notes, ids) without
// trapping. Records written back with folio's CSV writer read back as the same fields, and a
// date that parses is already in the stored form.
import FolioService
import FolioStorage

@testable import FolioCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let lines = bytes.filter { $0 == 0x0A }.count + 1
  let reader = CSVReader(bytes: bytes, source: "fuzz.csv")
  var records: [[String]] = []
  do {
    while let record = try reader.next() {
      precondition(record.line >= 1 && record.line <= lines, "line \(record.line) of \(lines)")
      records.append(record.fields)
      for field in record.fields { check(field) }
    }
  } catch let error as CSVError {
    precondition(error.line >= 1 && error.line <= lines, "error line \(error.line) of \(lines)")
    precondition(!(error.errorDescription ?? "").isEmpty)
  } catch {
    preconditionFailure("unexpected error \(error)")
  }
  // Round trip through the writer; a header line first, so no field can pass for a
  // byte-order mark.
  let written = CSVWriter.line(["h"]) + records.map { CSVWriter.line($0) }.joined()
  let again = CSVReader(bytes: Array(written.utf8), source: "again.csv")
  do {
    let header = try again.next()?.fields
    precondition(header == ["h"])
    for fields in records {
      let read = try again.next()?.fields
      precondition(read == fields, "wrote \(fields), read back \(String(describing: read))")
    }
    let extra = try again.next()
    precondition(extra == nil, "more records read back than written")
  } catch {
    preconditionFailure("folio's own CSV does not read back: \(error)")
  }
  return 0
}

/// Every check an import runs on a field; a date that parses is canonical and stable.
func check(_ field: String) {
  _ = try? TradeInput.quantity(field)
  _ = try? TradeInput.amount(field, field: "price")
  _ = try? TradeInput.coinID(field)
  _ = try? TradeInput.note(field)
  _ = try? TradeInput.externalID(field)
  _ = TradeSide(rawValue: field.lowercased())
  if let date = try? TradeInput.date(field) {
    let stored = date.description
    precondition(stored.utf8.count == 20 && stored.hasSuffix("Z"), stored)
    precondition(
      (try? Timestamp(parsing: stored, .stored)) == date, "\(field) → \(stored) is not stable")
    _ = date.day.adding(days: 1)
  }
  _ = FolioCLI.oneLine(field)
}
