import Foundation

/// The rules every transport follows for what it sends and accepts.
public enum HTTPRules {
  /// The largest response body read by default (64 MiB), after decompression;
  /// `FOLIO_HTTP_MAX_BYTES` changes it.
  public static let defaultMaxBytes = 64 << 20

  /// Request headers that carry credentials. They are sent only to the origin asked for: a
  /// redirect to another origin drops them.
  public static let credentialHeaders: Set<String> = [
    "x-cg-demo-api-key", "x-cg-pro-api-key", "authorization", "proxy-authorization", "cookie",
  ]

  /// The origin of `url`: scheme, host and port (the scheme's default when none is written),
  /// lower-cased; nil without a scheme or host.
  public static func origin(_ url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
      return nil
    }
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    return "\(scheme)://\(host):\(port)"
  }

  /// True when `a` and `b` have the same origin.
  public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    guard let first = origin(a) else { return false }
    return first == origin(b)
  }

  /// `text` (a URL, or text that starts like one) without the `user:password@` part of its
  /// authority, so that credentials are neither stored nor printed. Works on text that is not
  /// a valid URL too.
  public static func redacted(_ text: String) -> String {
    guard let schemeEnd = text.range(of: "://") else { return text }
    let rest = text[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
    return String(text[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
  }
}
