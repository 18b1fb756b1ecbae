import FolioService
import Foundation

/// The `folio-fetch` program: one GET over `URLSessionTransport`, in the exchange that
/// `HelperTransport` (FolioService) describes and reads back.
public enum FetchHelper {
  static let usage = "usage: folio-fetch --connect-timeout SECONDS --total-timeout SECONDS URL"

  /// Runs the helper with its arguments (without the program name); request headers are read
  /// from `input`, the reply written to `output`. Returns the exit status: 0 a response,
  /// 1 none (timed out or failed), 64 bad arguments (with a message on `error`).
  public static func run(
    _ arguments: [String], input: FileHandle = .standardInput,
    output: FileHandle = .standardOutput, error: FileHandle = .standardError
  ) -> Int32 {
    let request: (url: URL, connectTimeout: TimeInterval, totalTimeout: TimeInterval)
    do {
      request = try parse(arguments)
    } catch let usage {
      error.write(Data("folio-fetch: \(usage.message)\n".utf8))
      return 64
    }
    let headers = self.headers(String(decoding: input.readDataToEndOfFile(), as: UTF8.self))
    let transport = URLSessionTransport(
      connectTimeout: request.connectTimeout, totalTimeout: request.totalTimeout)
    do {
      let response = try transport.get(request.url, headers: headers)
      let head = "HTTP \(response.status)\n" + HelperTransport.headerLines(response.headers) + "\n"
      output.write(Data(head.utf8) + response.body)
      return 0
    } catch let failure {
      switch failure {
      case .timedOut: output.write(Data("timed-out\n".utf8))
      case .failed(let reason): output.write(Data("failed: \(oneLine(reason))\n".utf8))
      }
      return 1
    }
  }

  struct UsageError: Error {
    let message: String
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> (
    url: URL, connectTimeout: TimeInterval, totalTimeout: TimeInterval
  ) {
    var rest = arguments[...]
    var connectTimeout: TimeInterval = 10
    var totalTimeout: TimeInterval = 30
    var target: URL?
    while let argument = rest.popFirst() {
      switch argument {
      case "--connect-timeout", "--total-timeout":
        guard let text = rest.popFirst(), let seconds = TimeInterval(text), seconds >= 0 else {
          throw UsageError(message: "\(argument) needs a number of seconds")
        }
        if argument == "--connect-timeout" {
          connectTimeout = seconds
        } else {
          totalTimeout = seconds
        }
      default:
        guard target == nil, let url = URL(string: argument), url.scheme != nil else {
          throw UsageError(message: usage)
        }
        target = url
      }
    }
    guard let target else { throw UsageError(message: usage) }
    return (target, connectTimeout, totalTimeout)
  }

  /// The request headers from standard input.
  static func headers(_ text: String) -> [String: String] {
    HelperTransport.headers(fromLines: text.split(separator: "\n"))
  }

  private static func oneLine(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ")
  }
}
