import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests: it serves canned
/// responses by path and query, and can answer slowly, cut a body short, send any status,
/// redirect (to itself or to a second server, which is another origin) or send a gzip body.
/// Every request it receives is recorded. Each connection is answered once and closed.
///
/// `@unchecked Sendable`: the accept loop and the connection handlers run on their own threads;
/// the routes, the request log and the stop flag are guarded by `lock`.
public final class LoopbackServer: @unchecked Sendable {
  /// A canned response.
  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// Seconds to wait before sending anything.
    public var delay: TimeInterval = 0
    /// Send only this many bytes of the body (the Content-Length still announces all of it),
    /// then close the connection.
    public var truncateTo: Int?

    public init(
      status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [],
      delay: TimeInterval = 0, truncateTo: Int? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
      self.truncateTo = truncateTo
    }

    /// A JSON body with `status`.
    public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:])
      -> Response
    {
      var all = headers
      all["Content-Type"] = "application/json"
      return Response(status: status, headers: all, body: Array(text.utf8))
    }

    /// A redirect to `location` (an absolute URL).
    public static func redirect(to location: String, status: Int = 302) -> Response {
      Response(status: status, headers: ["Location": location])
    }

    /// `compressed` (gzip bytes, such as `GzipBomb.zeros`) sent with `Content-Encoding: gzip`.
    public static func gzip(_ compressed: [UInt8]) -> Response {
      Response(
        status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        body: compressed)
    }

    /// The bytes of a file in Fixtures/.
    public static func fixture(_ name: String) throws -> Response {
      Response(
        status: 200, headers: ["Content-Type": "application/json"],
        body: try Fixtures.bytes(name))
    }
  }

  /// A request as received.
  public struct Request: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    /// Header names lower-cased.
    public let headers: [String: String]
  }

  private struct Route {
    let path: String
    let query: [String: String]
    var responses: [Response]
  }

  /// The port the server listens on.
  public let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var routes: [Route] = []
  private var log: [Request] = []
  private var stopped = false

  /// The base URL to give clients, such as `http://127.0.0.1:41234/api/v3`.
  public var baseURL: String { "http://127.0.0.1:\(port)/api/v3" }

  /// The server's origin, such as `http://127.0.0.1:41234`.
  public var origin: String { "http://127.0.0.1:\(port)" }

  public init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
    var reuse: Int32 = 1
    setsockopt(
      descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 64) == 0 else {
      close(descriptor)
      throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    listener = descriptor
    port = UInt16(bigEndian: address.sin_port)
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { stop() }

  /// Stops accepting connections.
  public func stop() {
    lock.lock()
    let wasStopped = stopped
    stopped = true
    lock.unlock()
    guard !wasStopped else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// Serves `responses` for GET `path` (under /api/v3) when the query holds every item of
  /// `query`; successive requests get successive responses and the last one repeats. Among
  /// matching routes the one with the most query items wins, and among those the one added last
  /// (so a test can replace a route).
  public func route(_ path: String, query: [String: String] = [:], _ responses: Response...) {
    lock.lock()
    defer { lock.unlock() }
    routes.append(Route(path: "/api/v3" + path, query: query, responses: responses))
  }

  /// Every request received so far, oldest first.
  public var requests: [Request] {
    lock.lock()
    defer { lock.unlock() }
    return log
  }

  /// The requests whose path is `path` (under /api/v3).
  public func requests(to path: String) -> [Request] {
    requests.filter { $0.path == "/api/v3" + path }
  }

  // MARK: - Serving

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR && !isStopped { continue }
        return
      }
      Thread.detachNewThread { [self] in handle(client) }
    }
  }

  private func handle(_ client: Int32) {
    defer { close(client) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard let head = readHead(client), let request = parse(head) else { return }
    let response = respond(to: request)
    var slept: TimeInterval = 0
    while slept < response.delay && !isStopped {
      usleep(10_000)
      slept += 0.01
    }
    var text = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
    text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n"
    for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
    text += "\r\n"
    guard send(client, Array(text.utf8)) else { return }
    let body = response.truncateTo.map { Array(response.body.prefix($0)) } ?? response.body
    _ = send(client, body)
  }

  private func readHead(_ client: Int32) -> String? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while data.count < 65_536 {
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return nil }
      data += buffer[0..<count]
      if let text = String(bytes: data, encoding: .utf8), text.contains("\r\n\r\n") {
        return text
      }
    }
    return nil
  }

  private func parse(_ head: String) -> Request? {
    let lines = head.components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2 else { return nil }
    let target = String(parts[1])
    let components = URLComponents(string: target)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Request(
      method: String(parts[0]), path: components?.path ?? target, query: query, headers: headers)
  }

  private func respond(to request: Request) -> Response {
    lock.lock()
    defer { lock.unlock() }
    log.append(request)
    let candidates = routes.indices.filter { index in
      routes[index].path == request.path
        && routes[index].query.allSatisfy { request.query[$0.key] == $0.value }
    }
    let most = candidates.map { routes[$0].query.count }.max()
    guard let best = candidates.last(where: { routes[$0].query.count == most }) else {
      return .json(#"{"error":"not found"}"#, status: 404)
    }
    if routes[best].responses.count > 1 {
      return routes[best].responses.removeFirst()
    }
    return routes[best].responses.first ?? .json("{}", status: 500)
  }

  /// Writes all of `bytes`; false when the peer has gone. MSG_NOSIGNAL: a closed peer must not
  /// raise SIGPIPE in the test process.
  private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  private func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 307: return "Temporary Redirect"
    case 401: return "Unauthorized"
    case 404: return "Not Found"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}

/// A failure to start the loopback server.
public struct ServerError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
