#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may use the server: apps that present the token, and pages loaded from the server's
/// own origin (which carry the token too).
///
/// A web page in the same browser can open a WebSocket to a local port, and DNS rebinding can
/// make a foreign page's host name resolve to 127.0.0.1, so the page and its socket are
/// served only to a `Host` that is an IP address or `localhost` with this server's port (a
/// rebinding page's `Host` is its own name), a socket only to an `Origin` equal to that same
/// `http://host:port`, and both only with the token.
struct AccessPolicy: Sendable {
  let token: String
  let port: Int
  /// Whether the server listens beyond loopback (`--host`): then any IP address may name it.
  let acceptsNetwork: Bool

  /// Why a request's `Host` does not name this server, or `nil` when it does.
  func hostRefusal(_ host: String?) -> String? {
    guard let host, !host.isEmpty else { return "no Host header" }
    let shown = LogText.escaped(host)
    guard let (name, port) = Self.split(host) else { return "malformed Host '\(shown)'" }
    guard port == self.port else {
      return "Host '\(shown)' names another port (DNS rebinding?)"
    }
    if name == "localhost" { return nil }
    guard let isLoopback = Self.loopback(ofAddress: name) else {
      return "Host '\(shown)' is a name, not this server's address (DNS rebinding?)"
    }
    if !isLoopback && !acceptsNetwork {
      return "Host '\(shown)' is not a loopback address, and the server listens on loopback only"
    }
    return nil
  }

  /// Why a WebSocket's `Origin` is not this server's own, or `nil` when it is.
  func originRefusal(_ origin: String?, host: String) -> String? {
    guard let origin else { return "no Origin header (only the live page may open a socket)" }
    guard origin == "http://\(host)" else {
      return
        "Origin '\(LogText.escaped(origin))' is not this server's (http://\(LogText.escaped(host)))"
    }
    return nil
  }

  /// Whether `presented` is the token, compared in constant time.
  func accepts(token presented: String?) -> Bool {
    guard let presented else { return false }
    let expected = Array(token.utf8)
    let given = Array(presented.utf8)
    guard expected.count == given.count else { return false }
    var difference: UInt8 = 0
    for index in expected.indices { difference |= expected[index] ^ given[index] }
    return difference == 0
  }

  /// The token an `Authorization: Bearer …` header carries.
  static func bearer(_ header: String?) -> String? {
    guard let header, header.hasPrefix("Bearer ") else { return nil }
    return String(header.dropFirst("Bearer ".count))
  }

  /// `name` and port of `host:port` or `[v6]:port`; port 80 when absent.
  private static func split(_ host: String) -> (String, Int)? {
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      let name = String(host[host.index(after: host.startIndex)..<close])
      let rest = host[host.index(after: close)...]
      if rest.isEmpty { return (name, 80) }
      guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
      return (name, port)
    }
    let parts = host.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return (host, 80)
    case 2:
      guard let port = Int(parts[1]) else { return nil }
      return (String(parts[0]), port)
    default: return nil
    }
  }

  /// Whether an IP address literal is a loopback address; `nil` when it is no address.
  static func loopback(ofAddress name: String) -> Bool? {
    var ipv4 = in_addr()
    if inet_pton(AF_INET, name, &ipv4) == 1 {
      return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
    }
    var ipv6 = in6_addr()
    if inet_pton(AF_INET6, name, &ipv6) == 1 {
      return withUnsafeBytes(of: &ipv6) { bytes in
        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
      }
    }
    return nil
  }
}
