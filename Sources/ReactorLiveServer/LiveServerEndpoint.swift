/// Where a running ``LiveServer`` can be reached, and the token it expects.
public struct LiveServerEndpoint: Sendable, Hashable {
  /// The host apps and pages use: the configured one, or `127.0.0.1` for a wildcard.
  public var host: String
  /// The port it listens on.
  public var port: Int
  /// The token apps present, and the page's URL carries.
  public var token: String

  /// The live page's address, the token in its fragment (never sent in a request line).
  public var pageURL: String { "http://\(authority)/#token=\(token)" }

  /// `host:port`, with an IPv6 address in brackets.
  public var authority: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}
