import Dispatch
import FolioService
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's `URLSession`, made synchronous for the CLI.
///
/// `connectTimeout` bounds the wait for the connection and for each piece of the response
/// (URLSession's request timeout); `totalTimeout` bounds the whole exchange.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let connectTimeout: TimeInterval
  private let totalTimeout: TimeInterval

  public init(connectTimeout: TimeInterval, totalTimeout: TimeInterval) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = connectTimeout
    configuration.timeoutIntervalForResource = totalTimeout
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    session = URLSession(configuration: configuration)
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
  }

  deinit { session.invalidateAndCancel() }

  public func get(_ url: URL, headers: [String: String]) throws(HTTPTransportError)
    -> HTTPResponse
  {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: connectTimeout)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let box = OutcomeBox()
    let done = DispatchSemaphore(value: 0)
    let task = session.dataTask(with: request) { data, response, error in
      box.store(data: data, response: response, error: error)
      done.signal()
    }
    task.resume()
    guard done.wait(timeout: .now() + totalTimeout) == .success else {
      task.cancel()
      throw .timedOut
    }
    return try box.result()
  }
}

/// Carries a data task's outcome from URLSession's delegate queue to the waiting thread.
///
/// `@unchecked Sendable` because the completion handler must be `@Sendable`: every access
/// goes through `lock`, and the waiting thread reads only after the semaphore was signalled.
private final class OutcomeBox: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  private var response: URLResponse?
  private var error: (any Error)?

  func store(data: Data?, response: URLResponse?, error: (any Error)?) {
    lock.lock()
    defer { lock.unlock() }
    self.data = data
    self.response = response
    self.error = error
  }

  func result() throws(HTTPTransportError) -> HTTPResponse {
    lock.lock()
    defer { lock.unlock() }
    if let error {
      let code = (error as? URLError)?.code
      if code == .timedOut { throw .timedOut }
      throw .failed(Self.describe(error))
    }
    guard let http = response as? HTTPURLResponse else {
      throw .failed("the server sent no HTTP response")
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name] = value }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())
  }

  private static func describe(_ error: any Error) -> String {
    guard let urlError = error as? URLError else { return error.localizedDescription }
    switch urlError.code {
    case .cannotConnectToHost: return "the connection was refused"
    case .cannotFindHost, .dnsLookupFailed: return "the host name could not be resolved"
    case .networkConnectionLost: return "the connection was lost before the response was complete"
    case .notConnectedToInternet: return "there is no network connection"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
      return "the secure connection failed"
    case .badServerResponse: return "the server sent a malformed HTTP response"
    default: return urlError.localizedDescription
    }
  }
}
