/// Plain text from the HTML snippets CoinGecko puts in coin descriptions.
public enum HTMLText {
  /// Removes tags (keeping the text inside links), decodes character references, turns
  /// `<br>` and paragraph ends into line breaks, normalises `\r\n` and trims the result.
  /// A `<` that does not start a tag (as in `a < b`) is kept as text.
  public static func plain(_ html: String) -> String {
    let scalars = Array(html.unicodeScalars)
    var output = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let end = tagEnd(scalars, from: index) {
        let name = tagName(scalars, from: index)
        if name == "br" || name == "/p" || name == "p" || name == "/div" || name == "/li" {
          output.append("\n")
          if name == "/p" { output.append("\n") }
        }
        index = end + 1
        continue
      }
      if scalar == "&", let (decoded, end) = entity(scalars, from: index) {
        output.append(contentsOf: decoded.unicodeScalars)
        index = end + 1
        continue
      }
      if scalar == "\r" {
        output.append("\n")
        if index + 1 < scalars.count && scalars[index + 1] == "\n" { index += 1 }
        index += 1
        continue
      }
      output.append(scalar)
      index += 1
    }
    // Trim spaces at line ends and keep at most one blank line between paragraphs.
    var lines: [String] = []
    for line in String(output).split(separator: "\n", omittingEmptySubsequences: false) {
      var text = String(line)
      while text.last == " " || text.last == "\t" { text.removeLast() }
      if text.isEmpty && (lines.last?.isEmpty ?? true) { continue }
      lines.append(text)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return String(lines.joined(separator: "\n").drop { $0 == " " || $0 == "\n" || $0 == "\t" })
  }

  /// The index of the `>` that closes the tag starting at `start`, skipping quoted attribute
  /// values; nil when `<` does not start a tag.
  private static func tagEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    guard start + 1 < scalars.count else { return nil }
    let next = scalars[start + 1]
    guard next == "/" || next == "!" || next == "?" || next.properties.isAlphabetic else {
      return nil
    }
    var quote: Unicode.Scalar?
    var index = start + 1
    while index < scalars.count {
      let scalar = scalars[index]
      if let open = quote {
        if scalar == open { quote = nil }
      } else if scalar == "\"" || scalar == "'" {
        quote = scalar
      } else if scalar == ">" {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The lower-cased tag name with a leading `/` for end tags: `a`, `/p`, `br`.
  private static func tagName(_ scalars: [Unicode.Scalar], from start: Int) -> String {
    var name = ""
    var index = start + 1
    if index < scalars.count && scalars[index] == "/" {
      name = "/"
      index += 1
    }
    while index < scalars.count,
      scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index])
    {
      name.unicodeScalars.append(scalars[index])
      index += 1
    }
    return name.lowercased()
  }

  private static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–",
    "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
    "copy": "©", "reg": "®", "trade": "™", "euro": "€",
  ]

  /// Decodes `&amp;`, `&#39;` or `&#x27;` starting at `start`: the text and the index of `;`.
  private static func entity(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
    var index = start + 1
    var body = ""
    while index < scalars.count && index - start <= 10 {
      let scalar = scalars[index]
      if scalar == ";" {
        if let text = named[body] { return (text, index) }
        if body.hasPrefix("#x") || body.hasPrefix("#X") {
          return UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            .map { (String($0), index) }
        }
        if body.hasPrefix("#") {
          return UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { (String($0), index) }
        }
        return nil
      }
      body.unicodeScalars.append(scalar)
      index += 1
    }
    return nil
  }
}
