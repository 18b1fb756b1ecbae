import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `HTTPTransport` through `folio-fetch`, Folio's network helper, run once per request.
///
/// URLSession lives in FoundationNetworking, which loads libcurl and its TLS stack (some 30
/// shared libraries) at start-up: about 11 ms on every run of any command. So, as git does
/// with `git-remote-https`, only the helper links it, and `folio` starts it when it needs the
/// network. The helper is looked for beside the running executable unless `FOLIO_FETCH`
/// names it.
///
/// The exchange (the helper is `FetchHelper` in FolioNetwork):
/// `folio-fetch --connect-timeout SECONDS --total-timeout SECONDS --max-bytes N --scratch DIR
/// URL` (DIR: an empty folder folio makes and removes, for the body as it arrives), the
/// request headers on standard input as `Name: value` lines (so API keys never show in `ps`).
/// Exit 0: standard output holds `HTTP STATUS URL` (the URL that served the response, after
/// redirects), `name: value` header lines, an empty line, then the body. Exit 1: no response;
/// one line `timed-out`, `too-large` or `failed: REASON`.
///
/// Both sides bound the body by `maxBytes`: the helper stops reading past it, and folio stops
/// reading a helper that sends more (and ends it), so neither holds an oversized response.
public struct HelperTransport: HTTPTransport {
  public let executable: URL
  let connectTimeout: TimeInterval
  let totalTimeout: TimeInterval
  let maxBytes: Int

  public init(
    executable: URL, connectTimeout: TimeInterval, totalTimeout: TimeInterval,
    maxBytes: Int = HTTPRules.defaultMaxBytes
  ) {
    self.executable = executable
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
    self.maxBytes = maxBytes
  }

  /// What folio reads from the helper beyond the body: the status line and headers.
  static let headroom = 1 << 20

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
      throw .unavailable(
        "\(Self.name), folio's network helper, was not found at \(executable.path); "
          + "install it beside folio or set FOLIO_FETCH to its path")
    }
    // The helper writes the body to a file in this folder as it arrives (see `FetchHelper`);
    // removed here whatever became of the helper.
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("folio-fetch-" + UUID().uuidString)
    do {
      try FileManager.default.createDirectory(
        at: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .failed(
        "cannot make a folder for \(Self.name) in \(scratch.deletingLastPathComponent().path)")
    }
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "--connect-timeout", String(connectTimeout), "--total-timeout", String(totalTimeout),
      "--max-bytes", String(maxBytes), "--scratch", scratch.path, url.absoluteString,
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      throw .unavailable(
        "\(Self.name), folio's network helper, at \(executable.path) could not be started"
          + Self.describe(error) + "; reinstall it beside folio or set FOLIO_FETCH to its path")
    }
    let request = Self.headerLines(headers)
    // Should the helper be gone already, the write fails instead of SIGPIPE ending folio; its
    // exit status below says what happened.
    let previous = signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: Data(request.utf8))
    try? input.fileHandleForWriting.close()
    signal(SIGPIPE, previous)
    let reply = Self.read(output.fileHandleForReading, atMost: maxBytes + Self.headroom)
    guard let reply else {
      // A helper that sends more than it may is ended: its reply is not wanted.
      process.terminate()
      try? output.fileHandleForReading.close()
      process.waitUntilExit()
      throw .tooLarge(limit: maxBytes)
    }
    process.waitUntilExit()
    return try Self.response(from: reply, status: process.terminationStatus)
  }

  /// Why a program could not be started, in words (": permission denied"), never the
  /// system's own error text; empty when that is not known.
  static func describe(_ error: any Error) -> String {
    let error = error as NSError
    let posix =
      error.domain == NSPOSIXErrorDomain
      ? Int32(error.code)
      : ((error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
        $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
      })
    guard let posix, let text = strerror(posix) else { return "" }
    return ": " + String(cString: text).lowercased()
  }

  /// Reads `handle` to its end; nil as soon as it holds more than `limit` bytes.
  static func read(_ handle: FileHandle, atMost limit: Int) -> Data? {
    var reply = Data()
    while true {
      guard let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
      reply.append(chunk)
      if reply.count > limit { return nil }
    }
    return reply
  }

  /// Reads the helper's standard output given its exit status.
  static func response(from reply: Data, status: Int32) throws(HTTPTransportError)
    -> HTTPResponse
  {
    func line(_ bytes: Data.SubSequence) -> String { String(decoding: bytes, as: UTF8.self) }
    guard status == 0 else {
      let message = line(reply.prefix { $0 != UInt8(ascii: "\n") })
      if message == "timed-out" { throw .timedOut }
      if message.hasPrefix("too-large") {
        throw .tooLarge(limit: Int(message.dropFirst(10)) ?? HTTPRules.defaultMaxBytes)
      }
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
    let first = lines.first?.split(separator: " ", maxSplits: 2) ?? []
    guard first.count >= 2, first[0] == "HTTP", let code = Int(first[1]) else {
      throw .failed("\(name) sent a malformed reply")
    }
    return HTTPResponse(
      status: code, headers: headers(fromLines: lines.dropFirst()), body: Data(rest),
      url: first.count > 2 ? URL(string: String(first[2])) : nil)
  }

  /// The helper's reply before the body, for a response (exit 0).
  public static func head(of response: HTTPResponse) -> String {
    let served = response.url.map { " " + $0.absoluteString } ?? ""
    return "HTTP \(response.status)\(served)\n" + headerLines(response.headers) + "\n"
  }

  /// The helper's one-line reply when there is no response (exit 1).
  public static func reply(for failure: HTTPTransportError) -> String {
    switch failure {
    case .timedOut: return "timed-out\n"
    case .tooLarge(let limit): return "too-large \(limit)\n"
    case .failed(let reason), .unavailable(let reason):
      return "failed: \(reason.replacingOccurrences(of: "\n", with: " "))\n"
    }
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
