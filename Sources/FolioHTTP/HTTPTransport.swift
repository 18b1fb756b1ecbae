import Foundation

/// Sends GET requests. The CoinGecko client talks only to this protocol, so tests can point it
/// at a real loopback server or at a stub.
public protocol HTTPTransport {
  /// Fetches `url` with `headers` and returns the response, whatever its status.
  func get(_ url: URL, headers: [String: String]) throws(HTTPTransportError) -> HTTPResponse
}

/// One HTTP response: status, headers (names lower-cased) and the whole body.
public struct HTTPResponse: Equatable, Sendable {
  public let status: Int
  public let headers: [String: String]
  public let body: Data
  /// The URL that served the response, after any redirects (credentials removed); nil when
  /// the transport does not say.
  public let url: URL?

  public init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
    self.body = body
    self.url = url
  }
}

/// Why a request got no HTTP response at all.
public enum HTTPTransportError: Error, Equatable, Sendable {
  /// No complete response within the time allowed.
  case timedOut
  /// The connection failed: refused, reset, name not resolved, body cut short...
  case failed(String)
  /// The response body (decompressed) is larger than `limit` bytes; nothing of it is kept.
  case tooLarge(limit: Int)
  /// No request could be made at all (the network helper is missing or cannot be run);
  /// trying again cannot help.
  case unavailable(String)

  /// A phrase for messages.
  public var reason: String {
    switch self {
    case .timedOut: return "the request timed out"
    case .failed(let reason), .unavailable(let reason): return reason
    case .tooLarge(let limit):
      return "the response is larger than \(limit) bytes, the limit FOLIO_HTTP_MAX_BYTES sets"
    }
  }
}
