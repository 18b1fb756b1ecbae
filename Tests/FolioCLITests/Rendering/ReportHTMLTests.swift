import FolioTestSupport
import Foundation
import Testing

@testable import FolioCLI

@Suite struct ReportHTMLTests {
  let sandbox = Sandbox()

  init() throws { try sandbox.useReportScenario() }

  func html() -> String {
    let result = sandbox.run("report", "--format", "html")
    #expect(result.code == 0, "\(result.err)")
    return result.out
  }

  func theDocumentIsWellFormedXHTML() throws {
    let path = sandbox.write("report.html", html())
    let check = try ExternalTool.python(
      """
      import sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      ns = {"h": "http://www.w3.org/1999/xhtml", "s": "http://www.w3.org/2000/svg"}
      print(root.tag)
      print(len(root.findall(".//s:svg", ns)))
      print(len(root.findall(".//h:table", ns)))
      print(root.find("h:head/h:title", ns).text)
      """, [path])
    #expect(check.code == 0, "\(check.err)")
    let lines = check.out.split(separator: "\n").map(String.init)
    #expect(lines.first == "{http://www.w3.org/1999/xhtml}html")
    // The value chart, the allocation donut and one 7-day sparkline (bitcoin's).
    #expect(lines.count == 4 && lines[1] == "3")
    #expect(lines.count == 4 && lines[2] == "5")
    #expect(lines.last == "Folio daily report: main, 2024-11-30")
  }

  @Test func theDocumentIsSelfContained() {
    let page = html()
    #expect(!page.lowercased().contains("<script"))
    #expect(!page.contains("<link"))
    #expect(!page.contains("<img"))
    #expect(!page.contains("url("))
    #expect(!page.contains("@import"))
    // The only URLs are the XML namespaces.
    let urls = page.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
    #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/") })
    #expect(
      page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"))
    #expect(page.contains("@media (prefers-color-scheme: dark)"))
    #expect(page.contains("Solana &amp; &lt;Co&gt; | *x*"))
  }

  func chromiumRendersAVisiblePage() throws {
    let chromium = try #require(ExternalTool.chromium.path)
    let page = sandbox.write("report.html", html())
    let shot = sandbox.file("report.png")
    let render = try Binary.runTool(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--user-data-dir=\(sandbox.file("chromium-profile"))", "--window-size=390,700",
        "--screenshot=\(shot)", URL(fileURLWithPath: page).absoluteString,
      ], environment: ["HOME": sandbox.path, "PATH": "/usr/bin:/bin"])
    #expect(FileManager.default.fileExists(atPath: shot), "chromium: \(render.err)")
    // Decode the PNG (zlib and the five row filters) and count its colours and the pixels
    // unlike the page's background.
    let check = try ExternalTool.python(Self.pngSummary, [shot])
    #expect(check.code == 0, "\(check.err)")
    let numbers = check.out.split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    try #require(numbers.count == 4, "\(check.out)")
    #expect(numbers[0] == 390)
    // Text, cards, the charts and coloured figures: many colours, much of the page drawn on.
    #expect(numbers[2] > 50, "only \(numbers[2]) colours")
    #expect(numbers[3] > 0.2, "only \(numbers[3] * 100)% of the pixels differ from the background")
  }

  /// A python3 script printing `width height colours drawn-fraction` of the PNG at argv[1].
  static let pngSummary = """
    import sys, struct, zlib
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR": width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        if kind == b"IDAT": idat += body
        pos += 12 + length
    assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
    n = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * n
    previous = bytes(stride)
    colours, drawn, background = set(), 0, None
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if kind == 0:
            out = line
        elif kind == 2:
            out = bytes((a + b) & 255 for a, b in zip(line, previous))
        else:
            out = bytearray(line)
            for x in range(stride):
                a = out[x - n] if x >= n else 0
                b = previous[x]
                if kind == 1:
                    out[x] = (out[x] + a) & 255
                elif kind == 3:
                    out[x] = (out[x] + ((a + b) >> 1)) & 255
                else:
                    c = previous[x - n] if x >= n else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    out[x] = (out[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            out = bytes(out)
        pixels = [out[x:x + 3] for x in range(0, stride, n)]
        if background is None:
            background = max(set(pixels), key=pixels.count)
        colours.update(pixels)
        drawn += sum(1 for p in pixels if p != background)
        previous = out
    print(width, height, len(colours), drawn / (width * height))
    """
}

extension ReportHTMLTests {
  /// The tests that run python3: skipped, saying why, where it is not installed.
  @Suite(.requires(.python3)) struct NeedsPython3 {
    @Test func theDocumentIsWellFormedXHTML() throws {
      try ReportHTMLTests().theDocumentIsWellFormedXHTML()
    }
  }
}

extension ReportHTMLTests {
  /// The tests that run Chromium and python3: skipped, saying why, where it is not installed.
  @Suite(.requires(.chromium), .requires(.python3)) struct NeedsChromiumPython3 {
    @Test func chromiumRendersAVisiblePage() throws {
      try ReportHTMLTests().chromiumRendersAVisiblePage()
    }
  }
}
