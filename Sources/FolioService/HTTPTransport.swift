import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One HTTP response: status, headers (names lower-cased) and the whole body.
public struct HTTPResponse: Equatable, Sendable {
  public let status: Int
  public let headers: [String: String]
  public let body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
    self.body = body
  }
}

/// Why a request got no HTTP response at all.
public enum HTTPTransportError: Error, Equatable, Sendable {
  /// No complete response within the time allowed.
  case timedOut
  /// The connection failed: refused, reset, name not resolved, body cut short...
  case failed(String)

  /// A phrase for messages.
  public var reason: String {
    switch self {
    case .timedOut: return "the request timed out"
    case .failed(let reason): return reason
    }
  }
}

/// Sends GET requests. The CoinGecko client talks only to this protocol, so tests can point it
/// at a real loopback server or at a stub.
public protocol HTTPTransport {
  /// Fetches `url` with `headers` and returns the response, whatever its status.
  func get(_ url: URL, headers: [String: String]) throws(HTTPTransportError) -> HTTPResponse
}

/// `HTTPTransport` through `folio-fetch`, Folio's network helper, run once per request.
///
/// URLSession lives in FoundationNetworking, which loads libcurl and its TLS stack (some 30
/// shared libraries) at start-up: about 11 ms on every run of any command. So, as git does
/// with `git-remote-https`, only the helper links it, and `folio` starts it when it needs the
/// network. The helper is looked for beside the running executable unless `FOLIO_FETCH`
/// names it.
///
/// The exchange (the helper is `FetchHelper` in FolioNetwork):
/// `folio-fetch --connect-timeout SECONDS --total-timeout SECONDS URL`, the request headers on
/// standard input as `Name: value` lines (so API keys never show in `ps`). Exit 0: standard
/// output holds `HTTP STATUS`, `name: value` header lines, an empty line, then the body. Exit 1:
/// no response; one line `timed-out` or `failed: REASON`.
public struct HelperTransport: HTTPTransport {
  public let executable: URL
  let connectTimeout: TimeInterval
  let totalTimeout: TimeInterval

  public init(executable: URL, connectTimeout: TimeInterval, totalTimeout: TimeInterval) {
    self.executable = executable
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
  }

  /// The helper's name.
  public static let name = "folio-fetch"

  /// `folio-fetch` in the directory of the running executable.
  public static var besideExecutable: URL {
    let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return running.deletingLastPathComponent().appendingPathComponent(name)
  }

  public func get(_ url: URL, headers: [String: String]) throws(HTTPTransportError)
    -> HTTPResponse
  {
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      throw .failed(
        "\(Self.name), folio's network helper, was not found at \(executable.path); "
          + "install it beside folio or set FOLIO_FETCH to its path")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "--connect-timeout", String(connectTimeout), "--total-timeout", String(totalTimeout),
      url.absoluteString,
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      throw .failed("\(Self.name) could not be started: \(error.localizedDescription)")
    }
    let request = Self.headerLines(headers)
    // Should the helper be gone already, the write fails instead of SIGPIPE ending folio; its
    // exit status below says what happened.
    let previous = signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: Data(request.utf8))
    try? input.fileHandleForWriting.close()
    signal(SIGPIPE, previous)
    let reply = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try Self.response(from: reply, status: process.terminationStatus)
  }

  /// Reads the helper's standard output given its exit status.
  static func response(from reply: Data, status: Int32) throws(HTTPTransportError)
    -> HTTPResponse
  {
    func line(_ bytes: Data.SubSequence) -> String { String(decoding: bytes, as: UTF8.self) }
    guard status == 0 else {
      let message = line(reply.prefix { $0 != UInt8(ascii: "\n") })
      if message == "timed-out" { throw .timedOut }
      if message.hasPrefix("failed: ") { throw .failed(String(message.dropFirst(8))) }
      throw .failed("\(name) stopped with status \(status)")
    }
    var rest = reply[...]
    var lines: [String] = []
    while let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
      let text = line(rest[..<end])
      rest = rest[(end + 1)...]
      if text.isEmpty { break }
      lines.append(text)
    }
    guard let first = lines.first, first.hasPrefix("HTTP "), let code = Int(first.dropFirst(5))
    else { throw .failed("\(name) sent a malformed reply") }
    return HTTPResponse(
      status: code, headers: headers(fromLines: lines.dropFirst()), body: Data(rest))
  }

  /// Headers as the exchange carries them, both ways: `name: value` lines sorted by name, a
  /// line break inside a value turned into a space.
  public static func headerLines(_ headers: [String: String]) -> String {
    headers.sorted { $0.key < $1.key }.map { name, value in
      "\(name): \(value.replacingOccurrences(of: "\n", with: " "))\n"
    }.joined()
  }

  /// Reads `name: value` lines back; a line without a colon is ignored.
  public static func headers(fromLines lines: some Sequence<some StringProtocol>) -> [String:
    String]
  {
    var fields: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return fields
  }
}
