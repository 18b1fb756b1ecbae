import Dispatch
import FolioHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's `URLSession`, made synchronous for the CLI.
///
/// `connectTimeout` bounds the wait for the connection and for each piece of the response
/// (URLSession's request timeout); `totalTimeout` bounds the whole exchange. The body goes to a
/// file in `$TMPDIR` as it is decoded and is read back only when it is at most `maxBytes`
/// (after gzip or deflate decoding), so an oversized or "zip bomb" response never sits in
/// memory; `FetchHelper` also caps that file's size.
///
/// Redirects are followed, but one to another origin (scheme, host, port) goes without the
/// credential headers (`HTTPRules.credentialHeaders`: the API keys), and one from https to plain
/// http is not followed at all. The response carries the URL that served it.
public final class URLSessionTransport: HTTPTransport {
  private let connectTimeout: TimeInterval
  private let totalTimeout: TimeInterval
  private let maxBytes: Int

  public init(
    connectTimeout: TimeInterval, totalTimeout: TimeInterval,
    maxBytes: Int = HTTPRules.defaultMaxBytes
  ) {
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
    self.maxBytes = maxBytes
  }

  public func get(_ url: URL, headers: [String: String]) throws(HTTPTransportError)
    -> HTTPResponse
  {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: connectTimeout)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let transfer = Transfer(origin: url, maxBytes: maxBytes)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = connectTimeout
    configuration.timeoutIntervalForResource = totalTimeout
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
    // The session keeps its delegate until it is invalidated.
    defer { session.invalidateAndCancel() }
    // A download task, because URLSession hands a data task's decoded pieces to the delegate
    // asynchronously with no back-pressure: a small gzip body can inflate into gigabytes queued
    // in memory before the delegate sees the first 64 MiB. A download task writes each piece to
    // a file as libcurl decodes it, so memory stays flat; the file's size is bounded by the
    // helper's RLIMIT_FSIZE (see `FetchHelper`), and checked again here.
    let task = session.downloadTask(with: request)
    task.resume()
    guard transfer.done.wait(timeout: .now() + totalTimeout) == .success else {
      task.cancel()
      throw .timedOut
    }
    return try transfer.result()
  }
}

/// One request's state, filled in by URLSession's delegate calls on its own queue.
///
/// `@unchecked Sendable` because URLSession calls the delegate on its queue while the caller
/// waits on `done`: every access to the mutable state goes through `lock`.
private final class Transfer: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  let done = DispatchSemaphore(value: 0)
  private let origin: URL
  private let maxBytes: Int
  private let lock = NSLock()
  private var body: Data?
  private var response: URLResponse?
  private var error: (any Error)?
  private var tooLarge = false
  private var finished = false

  init(origin: URL, maxBytes: Int) {
    self.origin = origin
    self.maxBytes = maxBytes
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    guard let target = request.url else { return completionHandler(nil) }
    if origin.scheme?.lowercased() == "https" && target.scheme?.lowercased() != "https" {
      return completionHandler(nil)  // never downgrade: the 3xx itself is the answer
    }
    guard !HTTPRules.sameOrigin(origin, target) else { return completionHandler(request) }
    var stripped = request
    for name in request.allHTTPHeaderFields?.keys.map({ $0 }) ?? []
    where HTTPRules.credentialHeaders.contains(name.lowercased()) {
      stripped.setValue(nil, forHTTPHeaderField: name)
    }
    completionHandler(stripped)
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask,
    didFinishDownloadingTo location: URL
  ) {
    // The file is removed when this returns: read it now, unless it is over the cap.
    let size = (try? FileManager.default.attributesOfItem(atPath: location.path)[.size]) as? Int
    lock.lock()
    defer { lock.unlock() }
    response = downloadTask.response
    if let size, size > maxBytes {
      tooLarge = true
    } else {
      body = FileManager.default.contents(atPath: location.path)
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    lock.lock()
    self.error = error
    if response == nil { response = task.response }
    let first = !finished
    finished = true
    lock.unlock()
    if first { done.signal() }
  }

  func result() throws(HTTPTransportError) -> HTTPResponse {
    lock.lock()
    defer { lock.unlock() }
    if tooLarge { throw .tooLarge(limit: maxBytes) }
    if body == nil, let error {
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
    guard let body else { throw .failed("the response body could not be read back") }
    let served = (http.url ?? origin).absoluteString
    return HTTPResponse(
      status: http.statusCode, headers: headers, body: body,
      url: URL(string: HTTPRules.redacted(served)))
  }

  private static func describe(_ error: any Error) -> String {
    // Never Foundation's own text ("The operation could not be completed. (NSURLErrorDomain
    // error -1001.)"): each failure in words.
    guard let urlError = error as? URLError else { return "the request failed" }
    switch urlError.code {
    case .cannotConnectToHost: return "the connection was refused"
    case .cannotFindHost, .dnsLookupFailed: return "the host name could not be resolved"
    case .networkConnectionLost: return "the connection was lost before the response was complete"
    case .notConnectedToInternet: return "there is no network connection"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
      return "the secure connection failed"
    case .badServerResponse: return "the server sent a malformed HTTP response"
    case .timedOut: return "the request timed out"
    case .badURL, .unsupportedURL: return "the URL is not one that can be requested"
    case .cancelled: return "the request was cancelled"
    case .httpTooManyRedirects, .redirectToNonExistentLocation:
      return "the server redirected the request too often, or nowhere"
    case .zeroByteResource, .cannotDecodeRawData, .cannotDecodeContentData,
      .cannotParseResponse:
      return "the server's response could not be read"
    default: return "the request failed (URL error \(urlError.code.rawValue))"
    }
  }
}
