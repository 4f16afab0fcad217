import FlyingSocks
import Foundation

/// Why a request could not be read: the status to answer with (none when the client went
/// away) and the reason for the refusal's log line.
struct HTTPReadFailure: Error {
  var status: Int
  var reason: String
}

/// One client's connection: reads requests within the server's limits, in time linear in
/// their length, and writes responses and WebSocket frames.
///
/// The request line and each header line are at most ``LiveServerConfiguration``'s
/// `maximumLineBytes`, the whole head at most `maximumHeadBytes`, a body (counted, or chunked
/// and decoded) at most `maximumBatchBytes`; past a limit the request is refused (414, 431,
/// 413) and the connection closed. How long a request may take to arrive is the server's
/// business (``ConnectionTable``'s deadlines shut a late connection down).
struct HTTPConnection: Sendable {
  let socket: AsyncSocket
  /// `address:port` of the client.
  let client: String
  let maximumLineBytes: Int
  let maximumHeadBytes: Int
  let maximumBodyBytes: Int
  private var buffer: [UInt8] = []
  /// Where the unread bytes start.
  private var start = 0
  /// How far past `start` a newline has been looked for already (reading stays linear).
  private var scanned = 0

  init(
    socket: AsyncSocket, client: String, maximumLineBytes: Int, maximumHeadBytes: Int,
    maximumBodyBytes: Int
  ) {
    self.socket = socket
    self.client = client
    self.maximumLineBytes = maximumLineBytes
    self.maximumHeadBytes = maximumHeadBytes
    self.maximumBodyBytes = maximumBodyBytes
  }

  /// Reads the next request's line and headers; `nil` when the client closed the
  /// connection between requests.
  /// - Throws: ``HTTPReadFailure`` for a request over a limit or malformed; a socket error
  ///   when the connection failed or was shut down.
  mutating func readHead() async throws -> HTTPRequest? {
    var requestLine: [UInt8] = []
    // RFC 9112 §2.2: empty lines before a request line are ignored (a few of them).
    for _ in 0..<4 {
      guard let line = try await line(limit: maximumLineBytes, failure: 414, at: "request line")
      else { return nil }
      if !line.isEmpty {
        requestLine = line
        break
      }
    }
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
      parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8),
      requestLine.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 })
    else {
      throw HTTPReadFailure(
        status: 400, reason: "malformed request line '\(LogText.escaped(Self.text(requestLine)))'")
    }
    var request = HTTPRequest(
      method: Self.text(parts[0]), target: Self.text(parts[1]), version: Self.text(parts[2]),
      headers: [], client: client)
    var headBytes = requestLine.count
    while true {
      guard let line = try await line(limit: maximumLineBytes, failure: 431, at: "header line")
      else { throw SocketError.disconnected }
      if line.isEmpty { break }
      headBytes += line.count + 2
      guard headBytes <= maximumHeadBytes else {
        throw HTTPReadFailure(
          status: 431, reason: "request head over \(maximumHeadBytes) bytes (\(request.shown))")
      }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
        !line[..<colon].contains(where: { $0 <= 0x20 || $0 >= 0x7F })
      else {
        throw HTTPReadFailure(status: 400, reason: "malformed header line (\(request.shown))")
      }
      let name = Self.text(line[..<colon]).lowercased()
      let value = Self.text(line[(colon + 1)...]).trimmingCharacters(in: .whitespaces)
      request.headers.append((name, value))
    }
    return request
  }

  /// Reads the body `request`'s head announces: at most `maximumBodyBytes`, counted or
  /// chunked.
  /// - Throws: ``HTTPReadFailure`` (413 over the limit, 400 malformed framing, 501 another
  ///   transfer coding); a socket error when the connection failed.
  mutating func readBody(of request: HTTPRequest) async throws -> [UInt8] {
    let lengths = request.headers.filter { $0.name == "content-length" }
    let codings = request.headers.filter { $0.name == "transfer-encoding" }
    if !codings.isEmpty {
      guard lengths.isEmpty, codings.count == 1 else {
        throw HTTPReadFailure(status: 400, reason: "both Content-Length and Transfer-Encoding")
      }
      guard codings[0].value.lowercased() == "chunked" else {
        throw HTTPReadFailure(
          status: 501,
          reason: "unsupported Transfer-Encoding '\(LogText.escaped(codings[0].value))'")
      }
      try await continueIfAsked(request)
      return try await readChunkedBody()
    }
    guard lengths.count <= 1 else {
      throw HTTPReadFailure(status: 400, reason: "more than one Content-Length")
    }
    guard let text = lengths.first?.value else { return [] }
    guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }),
      let length = Int(text)
    else {
      throw HTTPReadFailure(
        status: 400, reason: "malformed Content-Length '\(LogText.escaped(text))'")
    }
    guard length <= maximumBodyBytes else {
      throw HTTPReadFailure(
        status: 413, reason: "batch of \(length) bytes, over \(maximumBodyBytes)")
    }
    try await continueIfAsked(request)
    return try await bytes(length)
  }

  /// Writes `response`; `keepAlive` says whether the connection stays open after it.
  func send(_ response: HTTPResponse, keepAlive: Bool) async throws {
    try await socket.write(Data(response.head(keepAlive: keepAlive) + response.body))
  }

  /// Writes raw bytes (a WebSocket frame).
  func write(_ bytes: [UInt8]) async throws {
    try await socket.write(Data(bytes))
  }

  /// The bytes read past the current request (a WebSocket's first frames), taken.
  mutating func takeBuffered() -> [UInt8] {
    defer {
      buffer = []
      start = 0
      scanned = 0
    }
    return Array(buffer[start...])
  }

  /// Reads at least one more byte into the buffer; `false` at the end of the stream.
  mutating func fill() async throws -> Bool {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(..<start)
      start = 0
    }
    do {
      let more = try await socket.read(atMost: 16 << 10)
      buffer.append(contentsOf: more)
      return !more.isEmpty
    } catch SocketError.disconnected {
      return false
    }
  }

  /// Exactly `count` bytes.
  mutating func bytes(_ count: Int) async throws -> [UInt8] {
    while buffer.count - start < count {
      guard try await fill() else { throw SocketError.disconnected }
    }
    let taken = Array(buffer[start..<(start + count)])
    start += count
    scanned = 0
    return taken
  }

  private mutating func continueIfAsked(_ request: HTTPRequest) async throws {
    if request.header("expect")?.lowercased() == "100-continue" {
      try await write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }
  }

  private mutating func readChunkedBody() async throws -> [UInt8] {
    var body: [UInt8] = []
    while true {
      guard let sizeLine = try await line(limit: 1024, failure: 400, at: "chunk size line") else {
        throw SocketError.disconnected
      }
      let digits = sizeLine.prefix { $0 != UInt8(ascii: ";") }
      let text = Self.text(digits).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty, text.count <= 15, let size = Int(text, radix: 16), size >= 0 else {
        throw HTTPReadFailure(status: 400, reason: "malformed chunk size")
      }
      guard size <= maximumBodyBytes - body.count else {
        throw HTTPReadFailure(
          status: 413, reason: "chunked batch over \(maximumBodyBytes) bytes")
      }
      if size == 0 { break }
      body += try await bytes(size)
      guard try await bytes(2) == [13, 10] else {
        throw HTTPReadFailure(status: 400, reason: "a chunk does not end with CRLF")
      }
    }
    var trailerBytes = 0
    while let trailer = try await line(limit: maximumLineBytes, failure: 431, at: "trailer") {
      if trailer.isEmpty { return body }
      trailerBytes += trailer.count
      guard trailerBytes <= maximumHeadBytes else {
        throw HTTPReadFailure(status: 431, reason: "trailers over \(maximumHeadBytes) bytes")
      }
    }
    throw SocketError.disconnected
  }

  /// The next line without its line ending.
  ///
  /// `nil` at the end of the stream before a byte of it. A line longer than `limit` throws `failure` at once, however much more follows.
  private mutating func line(limit: Int, failure: Int, at what: String) async throws -> [UInt8]? {
    while true {
      if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end - start <= limit else { break }
        let line = Array(buffer[start..<end])
        start = newline + 1
        scanned = 0
        return line
      }
      scanned = buffer.count - start
      guard scanned <= limit else { break }
      guard try await fill() else {
        if scanned == 0 { return nil }
        throw SocketError.disconnected
      }
    }
    throw HTTPReadFailure(
      status: failure,
      reason:
        "\(what) over \(limit) bytes ('\(LogText.escaped(Self.text(buffer[start..<min(buffer.count, start + 60)])))…')"
    )
  }

  private static func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}
