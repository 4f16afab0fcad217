import Foundation

/// One request as ``HTTPConnection`` read it: within the server's limits, its head parsed,
/// its body whole (a `Content-Length` or a chunked one, never over the batch limit).
struct HTTPRequest: Sendable {
  /// `GET`, `POST`, … as sent.
  var method: String
  /// The request target as sent, path and query.
  var target: String
  /// `HTTP/1.1` or `HTTP/1.0`.
  var version: String
  /// Each header line's lowercased name and trimmed value, in order.
  var headers: [(name: String, value: String)]
  /// The body, decoded from its chunks when chunked.
  var body: [UInt8] = []
  /// `address:port` of the client.
  var client: String

  /// The target's path, before any `?`.
  var path: String {
    String(target.prefix { $0 != "?" })
  }

  /// The value of query item `name`, percent-decoded; `nil` when absent or undecodable.
  func query(_ name: String) -> String? {
    guard let mark = target.firstIndex(of: "?") else { return nil }
    for item in target[target.index(after: mark)...].split(separator: "&") {
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts[0] == name else { continue }
      let value = parts.count > 1 ? parts[1] : ""
      return String(value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
    return nil
  }

  /// The value of header `name` (lowercase), when it appears once; `nil` when absent.
  func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }

  /// How many times header `name` (lowercase) appears.
  func count(of name: String) -> Int {
    headers.lazy.filter { $0.name == name }.count
  }

  /// Whether the connection stays open after the response (HTTP/1.1 unless `close`,
  /// HTTP/1.0 only with `keep-alive`).
  var keepsAlive: Bool {
    let connection = header("connection")?.lowercased() ?? ""
    if version == "HTTP/1.0" { return connection.contains("keep-alive") }
    return !connection.contains("close")
  }

  /// The method and path for a log line, escaped and cut (``LogText``); the query shows as
  /// `?…`, since a client may have put a secret there.
  var shown: String {
    let query = target.contains("?") ? "?…" : ""
    return "\(LogText.escaped(method)) \(LogText.escaped(path))\(query)"
  }
}

/// A response: status, headers, body; ``HTTPConnection`` adds `Content-Length` and
/// `Connection`.
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [(String, String)] = []
  var body: [UInt8] = []
  /// Whether the server closes the connection after it.
  var closes = false

  /// A plain-text response that says no more than its status.
  static func plain(_ status: Int, closes: Bool = false) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain")],
      body: Array("\(status) \(phrase(status))\n".utf8), closes: closes)
  }

  /// The reason phrase of `status`.
  static func phrase(_ status: Int) -> String {
    switch status {
    case 101: "Switching Protocols"
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 421: "Misdirected Request"
    case 422: "Unprocessable Content"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 507: "Insufficient Storage"
    default: "Status"
    }
  }

  /// The status line and headers, with `Content-Length` and `Connection`.
  func head(keepAlive: Bool) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(Self.phrase(status))\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if status != 101 {
      text += "Content-Length: \(body.count)\r\n"
      text += keepAlive && !closes ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }
}
