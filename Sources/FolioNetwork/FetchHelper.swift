import FolioHTTP
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `folio-fetch` program: one GET over `URLSessionTransport`, in the exchange that
/// `HelperTransport` (FolioHTTP) describes and reads back.
public enum FetchHelper {
  static let usage =
    "usage: folio-fetch --connect-timeout SECONDS --total-timeout SECONDS [--max-bytes N] "
    + "[--scratch FOLDER] URL"

  /// Runs the helper with its arguments (without the program name); request headers are read
  /// from `input`, the reply written to `output`. Returns the exit status: 0 a response,
  /// 1 none (timed out, too large or failed), 64 bad arguments (with a message on `error`).
  public static func run(
    _ arguments: [String], input: FileHandle = .standardInput,
    output: FileHandle = .standardOutput, error: FileHandle = .standardError
  ) -> Int32 {
    // folio ignores SIGPIPE, and an ignored signal stays ignored across exec: restore the
    // default, so a folio that stopped reading ends the helper instead of a write trapping.
    // SIGXFSZ too, which the RLIMIT_FSIZE backstop below relies on to end the helper.
    signal(SIGPIPE, SIG_DFL)
    signal(SIGXFSZ, SIG_DFL)
    let request: Request
    do {
      request = try parse(arguments)
    } catch let usage {
      error.write(Data("folio-fetch: \(usage.message)\n".utf8))
      return 64
    }
    let headers = HelperTransport.headers(
      fromLines: String(decoding: input.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
    )
    // URLSession writes the body to a file in $TMPDIR as it arrives: give it a folder of its
    // own (`--scratch`, made and removed by folio; else one made here and removed on a normal
    // exit).
    let scratch: URL
    var ownScratch = false
    if let given = request.scratch {
      scratch = URL(fileURLWithPath: given)
    } else {
      scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("folio-fetch-\(getpid())-\(UUID().uuidString)")
      ownScratch =
        (try? FileManager.default.createDirectory(
          at: scratch, withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o700])) != nil
    }
    setenv("TMPDIR", scratch.path, 1)
    defer { if ownScratch { try? FileManager.default.removeItem(at: scratch) } }
    // However fast a compressed body inflates, the body file is watched and the helper ends
    // as soon as it passes the cap (folio then reads "too-large"); a body that arrives whole
    // before the watcher looks is measured when it is complete. RLIMIT_FSIZE is the backstop
    // should the watcher be starved of CPU: URLSession's write then fails and the helper stops
    // (folio reports that it stopped). It leaves 16 MiB above twice the cap, so a small cap
    // (FOLIO_HTTP_MAX_BYTES=1000) is still answered "too-large", not by a failed write.
    watch(scratch, limit: request.maxBytes, output: output)
    let backstop = rlim_t(request.maxBytes) * 2 + (16 << 20)
    var fileSize = rlimit(rlim_cur: backstop, rlim_max: backstop)
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &fileSize)
    let transport = URLSessionTransport(
      connectTimeout: request.connectTimeout, totalTimeout: request.totalTimeout,
      maxBytes: request.maxBytes)
    do {
      let response = try transport.get(request.url, headers: headers)
      // Two writes: joining head and body would copy the body.
      output.write(Data(HelperTransport.head(of: response).utf8))
      output.write(response.body)
      return 0
    } catch let failure {
      output.write(Data(HelperTransport.reply(for: failure).utf8))
      return 1
    }
  }

  /// Starts a thread that ends the process with the `too-large` reply once the files in
  /// `folder` together hold more than `limit` bytes.
  static func watch(_ folder: URL, limit: Int, output: FileHandle) {
    let path = folder.path
    Thread.detachNewThread {
      while true {
        usleep(2_000)
        var total = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
          var info = stat()
          if stat(path + "/" + name, &info) == 0 { total += Int(info.st_size) }
        }
        if total > limit {
          // Not removed here: URLSession reopens the file for each piece and would trap on a
          // missing one. Whoever made the folder removes it (folio does, after the helper).
          let reply = Array(HelperTransport.reply(for: .tooLarge(limit: limit)).utf8)
          _ = reply.withUnsafeBytes { Glibc.write(output.fileDescriptor, $0.baseAddress, $0.count) }
          _exit(1)
        }
      }
    }
  }

  /// What the arguments ask for.
  struct Request {
    var url: URL
    var connectTimeout: TimeInterval
    var totalTimeout: TimeInterval
    var maxBytes: Int
    /// The folder for the body file (`--scratch`).
    var scratch: String?
  }

  struct UsageError: Error {
    let message: String
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Request {
    var rest = arguments[...]
    var connectTimeout: TimeInterval = 10
    var totalTimeout: TimeInterval = 30
    var maxBytes = HTTPRules.defaultMaxBytes
    var scratch: String?
    var target: URL?
    while let argument = rest.popFirst() {
      switch argument {
      case "--max-bytes":
        guard let text = rest.popFirst(), let bytes = Int(text), bytes > 0 else {
          throw UsageError(message: "--max-bytes needs a whole number of bytes above zero")
        }
        maxBytes = bytes
      case "--scratch":
        guard let folder = rest.popFirst(), !folder.isEmpty else {
          throw UsageError(message: "--scratch needs a folder")
        }
        scratch = folder
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
    return Request(
      url: target, connectTimeout: connectTimeout, totalTimeout: totalTimeout, maxBytes: maxBytes,
      scratch: scratch)
  }
}
