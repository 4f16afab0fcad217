import ReactorTracing

/// Sends ``LiveCommand``s to `reactor-trace serve`, which hands them to the app that streams
/// there and accepts control: what `reactor-trace send` runs.
///
/// ```swift
/// let client = try LiveCommandClient(server: "http://127.0.0.1:7878", token: token)
/// let stream = try client.send(.dispatch(action: ["increase": [:]], to: nil), stream: nil)
/// ```
///
/// Each call is one HTTP request on a connection of its own, and returns once the app took
/// the command (it performed it on its reactors' actor) or the server refused it.
public struct LiveCommandClient: Sendable {
  /// The server's host name or address.
  public var host: String
  /// The server's port.
  public var port: Int
  /// The token `reactor-trace serve` printed.
  public var token: String
  /// How long connecting, and each read and write, may take: the server waits up to 5 s for
  /// the app to take a command.
  public var timeout: Duration

  /// A client for the server at `server`.
  /// - Parameters:
  ///   - server: `http://HOST:PORT`, as `reactor-trace serve` printed it (a path after it is
  ///     ignored).
  ///   - token: The server's token.
  ///   - timeout: As ``timeout``.
  /// - Throws: ``LiveCommandError/malformed(_:)`` for a URL that names no server.
  public init(server: String, token: String, timeout: Duration = .seconds(10))
    throws(LiveCommandError)
  {
    guard server.hasPrefix("http://") else {
      throw .malformed("the server is http://HOST:PORT, not '\(server)'")
    }
    var authority = server.dropFirst("http://".count)
    if let slash = authority.firstIndex(of: "/") { authority = authority[..<slash] }
    let host: Substring
    let portText: Substring
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      host = authority[authority.index(after: authority.startIndex)..<close]
      portText = authority[authority.index(after: close)...].drop { $0 == ":" }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    } else {
      throw .malformed("the server's URL names no port: '\(server)'")
    }
    guard !host.isEmpty, let port = Int(portText), (1...65_535).contains(port) else {
      throw .malformed("the server is http://HOST:PORT, not '\(server)'")
    }
    guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .malformed("a token is printable ASCII without spaces")
    }
    self.host = String(host)
    self.port = port
    self.token = token
    self.timeout = timeout
  }

  /// Sends `command` and waits until the app took it or the server refused it.
  /// - Parameters:
  ///   - command: The command.
  ///   - stream: The stream whose app takes it; `nil` for the only one that accepts control.
  /// - Returns: The name of the stream whose app took it.
  /// - Throws: ``LiveCommandError``: the server's refusal, or why it could not be reached.
  @discardableResult
  public func send(_ command: LiveCommand, stream: String?) throws(LiveCommandError) -> String {
    let body = command.requestBody(stream: stream).serialized
    let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    let head =
      "POST \(LiveProtocol.commandPath) HTTP/1.1\r\n" + "Host: \(hostHeader)\r\n"
      + "Authorization: Bearer \(token)\r\n" + "Content-Type: application/json\r\n"
      + "Connection: close\r\n"
    let response: HTTPSocket.Response
    do {
      let socket = try HTTPSocket(
        host: host, port: port, timeoutMilliseconds: LiveStream.milliseconds(timeout))
      response = try socket.exchange(head: head, body: [body[...]])
    } catch {
      throw .unreachable(error.description)
    }
    let answer = try? JSONValue(parsing: response.body)
    switch response.status {
    case 200:
      guard let taken = answer?["stream"]?.stringValue else {
        throw .unreachable("the server's answer names no stream")
      }
      return taken
    case 401:
      throw .wrongToken
    default:
      let reason =
        answer?["error"]?.stringValue.map(TerminalText.line)
        ?? "the server answered \(response.status)"
      throw .refused(status: response.status, reason: reason)
    }
  }
}
