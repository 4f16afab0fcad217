import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 keep-alive connection over a plain POSIX socket: what the live recorder sends
/// its batches with.
///
/// Deliberately small, so that an app embedding the recorder links no HTTP library (and on
/// Linux not FoundationNetworking, which brings libcurl): it connects with a timeout, sends
/// one request with a `Content-Length` body, and reads one response with a `Content-Length`
/// body, each read and write bounded by the socket's timeouts. Any failure closes it; the
/// caller connects again.
final class HTTPSocket {
  /// A response's status code and body.
  struct Response: Sendable {
    var status: Int
    var body: [UInt8]
  }

  /// What went wrong, in one line.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The largest response head or body accepted by default: the server's replies to an app
  /// are a few bytes.
  static var defaultResponseLimit: Int { 64 << 10 }

  /// The largest response head or body this socket accepts.
  private let responseLimit: Int

  private var descriptor: Int32
  private var received: [UInt8] = []

  /// Connects to `host:port`, waiting at most `timeoutMilliseconds` for the connection and
  /// for each later read or write, and accepting responses of at most `responseLimit` bytes
  /// (the tests fetch the live page, larger than any acknowledgement).
  init(
    host: String, port: Int, timeoutMilliseconds: Int,
    responseLimit: Int = HTTPSocket.defaultResponseLimit
  ) throws(Failure) {
    self.responseLimit = responseLimit
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Darwin)
    hints.ai_socktype = SOCK_STREAM
    #else
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    var lastError = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      candidate = info.pointee.ai_next
      // Not inherited by the app's child processes: a child holding it would keep the
      // connection open after the recorder closed it.
      #if canImport(Glibc)
      let type = info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
      #else
      let type = info.pointee.ai_socktype
      #endif
      let socketDescriptor = socket(info.pointee.ai_family, type, 0)
      guard socketDescriptor >= 0 else {
        lastError = String(cString: strerror(errno))
        continue
      }
      #if !canImport(Glibc)
      _ = fcntl(socketDescriptor, F_SETFD, FD_CLOEXEC)
      #endif
      if Self.connect(
        socketDescriptor, to: info.pointee.ai_addr, length: info.pointee.ai_addrlen,
        timeoutMilliseconds: timeoutMilliseconds, error: &lastError)
      {
        descriptor = socketDescriptor
        Self.configure(socketDescriptor, timeoutMilliseconds: timeoutMilliseconds)
        return
      }
      _ = close(socketDescriptor)
    }
    throw Failure(description: "cannot connect to \(host):\(port): \(lastError)")
  }

  deinit {
    if descriptor >= 0 { _ = close(descriptor) }
  }

  /// A non-blocking connect, waited for with `poll`, then back to blocking.
  private static func connect(
    _ descriptor: Int32, to address: UnsafeMutablePointer<sockaddr>?, length: socklen_t,
    timeoutMilliseconds: Int, error: inout String
  ) -> Bool {
    let flags = fcntl(descriptor, F_GETFL, 0)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    #if canImport(Darwin)
    let result = Darwin.connect(descriptor, address, length)
    #elseif canImport(Musl)
    let result = Musl.connect(descriptor, address, length)
    #else
    let result = Glibc.connect(descriptor, address, length)
    #endif
    if result == 0 { return true }
    guard errno == EINPROGRESS else {
      error = String(cString: strerror(errno))
      return false
    }
    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    let ready = poll(&poller, 1, Int32(clamping: timeoutMilliseconds))
    guard ready > 0 else {
      error = ready == 0 ? "timed out" : String(cString: strerror(errno))
      return false
    }
    var code: Int32 = 0
    var codeLength = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &codeLength) == 0, code == 0 else {
      error = String(cString: strerror(code))
      return false
    }
    return true
  }

  /// Timeouts on every read and write, no Nagle delay, and no SIGPIPE on a closed peer.
  private static func configure(_ descriptor: Int32, timeoutMilliseconds: Int) {
    var timeout = timeval(
      tv_sec: timeoutMilliseconds / 1000,
      tv_usec: .init((timeoutMilliseconds % 1000) * 1000))
    let size = socklen_t(MemoryLayout<timeval>.size)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
    var one: Int32 = 1
    let intSize = socklen_t(MemoryLayout<Int32>.size)
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, intSize)
    #if canImport(Darwin)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, intSize)
    #endif
  }

  /// Sends a request and reads its response.
  /// - Parameters:
  ///   - head: The request line and headers, without `Content-Length` and the blank line.
  ///   - body: The body's pieces, sent one after the other; none for a request without a
  ///     body.
  /// - Returns: The server's response.
  /// - Throws: ``Failure`` when the socket fails or the response is malformed.
  func exchange(head: String, body: [ArraySlice<UInt8>]) throws(Failure) -> Response {
    let length = body.reduce(0) { $0 + $1.count }
    let framing = body.isEmpty ? "\r\n" : "Content-Length: \(length)\r\n\r\n"
    try send(Array((head + framing).utf8)[...])
    for piece in body { try send(piece) }
    return try readResponse()
  }

  private func send(_ bytes: ArraySlice<UInt8>) throws(Failure) {
    #if canImport(Darwin)
    let flags: Int32 = 0
    #else
    let flags = Int32(MSG_NOSIGNAL)
    #endif
    guard bytes.withUnsafeBytes({ POSIXIO.send($0, to: descriptor, flags: flags) }) else {
      throw Failure(description: "send failed: \(String(cString: strerror(errno)))")
    }
  }

  private func readResponse() throws(Failure) -> Response {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      headEnd = received.firstRange(of: separator)?.upperBound
      if headEnd == nil {
        guard received.count < responseLimit else {
          throw Failure(description: "response head too long")
        }
        try receiveMore()
      }
    }
    let head = String(decoding: received[..<headEnd!], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first else { throw Failure(description: "empty response") }
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      throw Failure(description: "malformed status line")
    }
    var length = 0
    for line in lines.dropFirst() {
      let pair = line.split(separator: ":", maxSplits: 1)
      if pair.count == 2, pair[0].lowercased() == "content-length" {
        guard let value = Int(pair[1].filter { $0 != " " && $0 != "\t" }), value >= 0,
          value <= responseLimit
        else { throw Failure(description: "bad Content-Length") }
        length = value
      }
    }
    while received.count - headEnd! < length { try receiveMore() }
    let body = Array(received[headEnd!..<(headEnd! + length)])
    received.removeFirst(headEnd! + length)
    return Response(status: status, body: body)
  }

  private func receiveMore() throws(Failure) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { POSIXIO.receive(descriptor, into: $0) }
    if count < 0 {
      throw Failure(description: "receive failed: \(String(cString: strerror(errno)))")
    }
    guard count > 0 else { throw Failure(description: "the server closed the connection") }
    received.append(contentsOf: buffer[..<count])
  }
}
