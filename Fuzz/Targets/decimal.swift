// libFuzzer target: the exact decimal parser and its arithmetic.
//
// Any input either parses or is refused with a DecimalError; nothing traps. A parsed value
// prints canonically and parses back to itself; arithmetic either gives an exact result that
// undoes itself or reports an overflow.
import FolioStorage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecimal(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  // Two operands: the input split at its first space.
  let split = bytes.firstIndex(of: 0x20) ?? bytes.count
  let left = Array(bytes[..<split])
  let right = split < bytes.count ? Array(bytes[(split + 1)...]) : []

  var values: [ExactDecimal] = []
  for operand in [left, right] {
    // The byte parser and the String parser agree, whatever the bytes.
    let fromBytes = operand.withUnsafeBufferPointer { try? ExactDecimal(utf8: $0) }
    let text = String(decoding: operand, as: UTF8.self)
    let fromText = try? ExactDecimal(parsing: text)
    if String(validating: operand, as: UTF8.self) != nil {
      precondition(fromBytes == fromText, "byte and text parsers disagree on \(operand)")
    }
    guard let value = fromBytes else { continue }
    values.append(value)
    // Canonical text: no exponent, no trailing zeros, parses back to the same value.
    let canonical = value.description
    precondition(!canonical.contains("e") && !canonical.contains("E"))
    precondition(!(canonical.contains(".") && canonical.hasSuffix("0")), canonical)
    precondition((try? ExactDecimal(parsing: canonical)) == value, canonical)
    for places in [0, 2, 8, 18] {
      let rounded = value.rounded(places: places)
      precondition(
        (try? ExactDecimal(parsing: value.formatted(places: places))) == rounded,
        "formatted(\(places)) of \(canonical)")
    }
    _ = value.doubleValue
    _ = value.magnitude
  }
  guard values.count == 2 else { return 0 }
  let (a, b) = (values[0], values[1])
  if let sum = try? a + b { precondition((try? sum - b) == a, "\(a) + \(b) - \(b)") }
  if let difference = try? a - b { precondition((try? difference + b) == a) }
  if let product = try? a * b, b == .one { precondition(product == a) }
  if let quotient = try? a / b {
    precondition(!b.isZero)
    _ = try? quotient * b
  } else if b.isZero {
    // Division by zero is reported, never a trap.
  }
  _ = try? ExactDecimal.scaled(a, by: b, dividedBy: a)
  precondition((a < b) == (a.units < b.units))
  return 0
}
