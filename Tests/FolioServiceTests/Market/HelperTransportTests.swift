import FolioTestSupport
import Foundation
import Testing

@testable import FolioHTTP
@testable import FolioNetwork

/// `folio-fetch`, the network helper, and how folio reads its replies.
@Suite struct HelperTransportTests {
  func transport(_ executable: URL = HelperTransport.besideExecutable) -> HelperTransport {
    HelperTransport(executable: executable, connectTimeout: 5, totalTimeout: 5)
  }

  @Test func fetchesStatusHeadersAndBodyFromALoopbackServer() throws {
    let server = try LoopbackServer()
    server.route("/ping", .json(#"{"ok":true}"#, status: 201))
    let url = try #require(URL(string: server.baseURL + "/ping?x=1"))
    let response = try transport().get(url, headers: ["x-cg-demo-api-key": "secret"])
    #expect(response.status == 201)
    #expect(response.body == Data(#"{"ok":true}"#.utf8))
    #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
    #expect(server.requests(to: "/ping").first?.headers["x-cg-demo-api-key"] == "secret")
  }

  @Test func aRefusedConnectionIsAFailureNotAResponse() throws {
    // Port 9 on loopback (discard) has no listener here.
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    #expect(throws: HTTPTransportError.self) { try transport().get(url, headers: [:]) }
  }

  @Test func aMissingHelperIsNamedWithWhatToDo() throws {
    let missing = URL(fileURLWithPath: "/nonexistent/folio-fetch")
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    #expect(
      throws: HTTPTransportError.unavailable(
        "folio-fetch, folio's network helper, was not found at /nonexistent/folio-fetch; "
          + "install it beside folio or set FOLIO_FETCH to its path")
    ) { try transport(missing).get(url, headers: [:]) }
  }

  @Test func aHelperThatQuitsWithoutReadingIsAFailureNotASignal() throws {
    let folder = TemporaryFolder("quitting-helper")
    let script = folder.file("helper")
    try "#!/bin/sh\nexit 3\n".write(toFile: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    // More than a pipe holds, so the write is still going when the helper has gone.
    let headers = ["x-large": String(repeating: "k", count: 1 << 20)]
    #expect(throws: HTTPTransportError.failed("folio-fetch stopped with status 3")) {
      try transport(URL(fileURLWithPath: script)).get(url, headers: headers)
    }
  }

  @Test func repliesAreReadByExitStatus() throws {
    let reply = Data("HTTP 429\nretry-after: 7\nx-empty:\n\nbody\nwith lines\n".utf8)
    let response = try HelperTransport.response(from: reply, status: 0)
    #expect(response.status == 429)
    #expect(response.headers == ["retry-after": "7", "x-empty": ""])
    #expect(response.body == Data("body\nwith lines\n".utf8))
    #expect(throws: HTTPTransportError.timedOut) {
      try HelperTransport.response(from: Data("timed-out\n".utf8), status: 1)
    }
    #expect(throws: HTTPTransportError.failed("the connection was refused")) {
      try HelperTransport.response(
        from: Data("failed: the connection was refused\n".utf8), status: 1)
    }
    #expect(throws: HTTPTransportError.failed("folio-fetch stopped with status 64")) {
      try HelperTransport.response(from: Data(), status: 64)
    }
    #expect(throws: HTTPTransportError.failed("folio-fetch sent a malformed reply")) {
      try HelperTransport.response(from: Data("HTTP x\n\n".utf8), status: 0)
    }
  }

  @Test func theHelperReadsItsArgumentsAndHeaders() throws {
    let request = try FetchHelper.parse(["--total-timeout", "2.5", "http://127.0.0.1:1/x?y=1"])
    #expect(request.url.absoluteString == "http://127.0.0.1:1/x?y=1")
    #expect(request.connectTimeout == 10)
    #expect(request.totalTimeout == 2.5)
    #expect(throws: FetchHelper.UsageError.self) {
      try FetchHelper.parse(["http://a.example/", "http://b.example/"])
    }
    #expect(throws: FetchHelper.UsageError.self) { try FetchHelper.parse(["--connect-timeout"]) }
    #expect(
      HelperTransport.headers(
        fromLines: "x-cg-demo-api-key: k: v\nno colon\nUser-Agent:  Folio/1 \n".split(
          separator: "\n"))
        == ["x-cg-demo-api-key": "k: v", "User-Agent": "Folio/1"])
  }

  @Test func theHelperRefusesBadArgumentsWithUsage() throws {
    let process = Process()
    process.executableURL = HelperTransport.besideExecutable
    process.arguments = ["--connect-timeout", "soon", "http://127.0.0.1:9/"]
    let err = Pipe()
    process.standardError = err
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 64)
    #expect(
      String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        == "folio-fetch: --connect-timeout needs a number of seconds\n")
  }

  @Test func folioStopsReadingAHelperThatSendsMoreThanTheCap() throws {
    let folder = TemporaryFolder("flooding-helper")
    let script = folder.file("folio-fetch")
    try "#!/bin/sh\ncat >/dev/null\nprintf 'HTTP 200\\n\\n'\nexec cat /dev/zero\n"
      .write(toFile: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    let capped = HelperTransport(
      executable: URL(fileURLWithPath: script), connectTimeout: 5, totalTimeout: 5,
      maxBytes: 1000)
    #expect(throws: HTTPTransportError.tooLarge(limit: 1000)) {
      try capped.get(url, headers: [:])
    }
  }

  @Test func theHelperStopsAtItsCapAndSaysSo() throws {
    let server = try LoopbackServer()
    server.route("/big", .json(String(repeating: "x", count: 5000)))
    server.route("/small", .json("[1]"))
    let url = try #require(URL(string: server.baseURL + "/big"))
    let capped = HelperTransport(
      executable: HelperTransport.besideExecutable, connectTimeout: 5, totalTimeout: 5,
      maxBytes: 4999)
    #expect(throws: HTTPTransportError.tooLarge(limit: 4999)) {
      try capped.get(url, headers: [:])
    }
    let small = try capped.get(try #require(URL(string: server.baseURL + "/small")), headers: [:])
    #expect(small.body == Data("[1]".utf8))
    #expect(small.url?.absoluteString == server.baseURL + "/small")
    #expect(throws: HTTPTransportError.tooLarge(limit: 77)) {
      try HelperTransport.response(from: Data("too-large 77\n".utf8), status: 1)
    }
    #expect(try FetchHelper.parse(["--max-bytes", "12", "http://a.example/"]).maxBytes == 12)
    #expect(throws: FetchHelper.UsageError.self) {
      try FetchHelper.parse(["--max-bytes", "0", "http://a.example/"])
    }
  }

  /// The helper links neither SQLite nor the storage and service layers: only FolioHTTP and
  /// FolioNetwork (Swift modules are linked statically, so their mangled names show which).
  func theHelperLinksNeitherSQLiteNorTheServiceLayer() throws {
    let helper = HelperTransport.besideExecutable.path
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: try #require(ExternalTool.ldd.path))
    ldd.arguments = [helper]
    let output = Pipe()
    ldd.standardOutput = output
    try ldd.run()
    let libraries = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    #expect(ldd.terminationStatus == 0)
    #expect(libraries.contains("libc.so"), "\(libraries)")
    #expect(!libraries.contains("libsqlite3"), "\(libraries)")
    let binary = try Data(contentsOf: URL(fileURLWithPath: helper))
    #expect(binary.range(of: Data("9FolioHTTP".utf8)) != nil)
    for module in ["12FolioService", "12FolioStorage"] {
      #expect(binary.range(of: Data(module.utf8)) == nil, "folio-fetch holds \(module)")
    }
  }

  @Test func credentialsAreRemovedFromURLsInText() {
    #expect(
      HTTPRules.redacted("https://u:p@h.example:8443/api?q=a@b")
        == "https://h.example:8443/api?q=a@b")
    #expect(HTTPRules.redacted("http://token@h/") == "http://h/")
    #expect(HTTPRules.redacted("http://h/a@b") == "http://h/a@b")
    #expect(HTTPRules.redacted("not a url") == "not a url")
  }
}

extension HelperTransportTests {
  /// The tests that run ldd: skipped, saying why, where it is not installed.
  @Suite(.requires(.ldd)) struct NeedsLDD {
    @Test func theHelperLinksNeitherSQLiteNorTheServiceLayer() throws {
      try HelperTransportTests().theHelperLinksNeitherSQLiteNorTheServiceLayer()
    }
  }
}
