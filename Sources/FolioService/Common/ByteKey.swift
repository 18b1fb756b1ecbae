/// A text as a dictionary key by its UTF-8 bytes, as SQLite compares texts: `String`'s own
/// equality and hashing make canonically equivalent spellings one key (a composed "é" and an
/// "e" followed by a combining accent), which the database holds as two values. For the keys
/// of a file that stand for values stored or looked up in the database: ids, links, location
/// references, an exchange row's id and fields.
struct ByteKey: Hashable {
  let bytes: [UInt8]

  init(_ text: String) { bytes = Array(text.utf8) }

  init(_ texts: [String]) {
    // Each text's length first, so ["ab", "c"] and ["a", "bc"] are two keys.
    var bytes: [UInt8] = []
    for text in texts {
      withUnsafeBytes(of: text.utf8.count.littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: text.utf8)
    }
    self.bytes = bytes
  }
}
