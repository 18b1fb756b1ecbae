// folio-fetch: Folio's network helper. `folio market refresh` runs it once per request, so that
// only this small program loads URLSession, libcurl and the TLS libraries, and every other
// folio command starts without them (see `HelperTransport` in FolioService for the exchange).
//
//   folio-fetch --connect-timeout SECONDS --total-timeout SECONDS URL  < headers
import FolioNetwork
import FolioService
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("folio-fetch: \(message)\n".utf8))
  exit(64)
}

var arguments = CommandLine.arguments.dropFirst()
var connectTimeout: TimeInterval = 10
var totalTimeout: TimeInterval = 30
var target: URL?
while let argument = arguments.popFirst() {
  switch argument {
  case "--connect-timeout", "--total-timeout":
    guard let text = arguments.popFirst(), let seconds = TimeInterval(text), seconds >= 0 else {
      fail("\(argument) needs a number of seconds")
    }
    if argument == "--connect-timeout" { connectTimeout = seconds } else { totalTimeout = seconds }
  default:
    guard target == nil, let url = URL(string: argument), url.scheme != nil else {
      fail("usage: folio-fetch --connect-timeout SECONDS --total-timeout SECONDS URL")
    }
    target = url
  }
}
guard let target else {
  fail("usage: folio-fetch --connect-timeout SECONDS --total-timeout SECONDS URL")
}

var headers: [String: String] = [:]
while let line = readLine() {
  guard let colon = line.firstIndex(of: ":") else { continue }
  headers[String(line[..<colon])] = line[line.index(after: colon)...]
    .trimmingCharacters(in: .whitespaces)
}

let transport = URLSessionTransport(connectTimeout: connectTimeout, totalTimeout: totalTimeout)
do {
  let response = try transport.get(target, headers: headers)
  var head = "HTTP \(response.status)\n"
  for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
    head += "\(name): \(value.replacingOccurrences(of: "\n", with: " "))\n"
  }
  FileHandle.standardOutput.write(Data((head + "\n").utf8) + response.body)
  exit(0)
} catch .timedOut {
  print("timed-out")
  exit(1)
} catch .failed(let reason) {
  print("failed: \(reason.replacingOccurrences(of: "\n", with: " "))")
  exit(1)
}
