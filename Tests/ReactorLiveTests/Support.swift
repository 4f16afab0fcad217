import Foundation
import ReactorLiveServer
import ReactorTestSupport
import Synchronization

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct ScratchDirectory {
  let path: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/reactor-live-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A ``LiveServer`` running in this process, with its log lines kept.
final class RunningServer: Sendable {
  let endpoint: LiveServerEndpoint
  private let task: Task<Void, any Error>
  private let logs: Logs

  private init(endpoint: LiveServerEndpoint, task: Task<Void, any Error>, logs: Logs) {
    self.endpoint = endpoint
    self.task = task
    self.logs = logs
  }

  /// Starts a server on `port` (0: a free one) keeping streams in `directory`.
  static func start(
    directory: String, port: Int = 0, token: String? = nil,
    configure: (inout LiveServerConfiguration) -> Void = { _ in }
  ) async throws -> RunningServer {
    let log = Logs()
    var configuration = LiveServerConfiguration(port: port, directory: directory, token: token)
    configure(&configuration)
    let server = try await LiveServer(
      configuration: configuration, log: { line in log.append(line) })
    let (ready, continuation) = AsyncStream.makeStream(of: LiveServerEndpoint.self)
    let task = Task {
      defer { continuation.finish() }
      try await server.run { endpoint in
        continuation.yield(endpoint)
        continuation.finish()
      }
    }
    var iterator = ready.makeAsyncIterator()
    guard let endpoint = await iterator.next() else {
      _ = try await task.value
      throw CocoaError(.fileReadUnknown)
    }
    return RunningServer(endpoint: endpoint, task: task, logs: log)
  }

  /// The log lines so far.
  var log: [String] { logs.lines.withLock { $0 } }

  /// Stops listening and waits until it has.
  func stop() async {
    task.cancel()
    _ = try? await task.value
  }
}

/// Log lines written from the server's tasks.
final class Logs: Sendable {
  let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
}

/// Polls `condition` until it holds, failing after `limit`: for work other threads and
/// processes do, never as a measure of time.
@MainActor
func eventually(
  within limit: Duration = .seconds(30), _ what: String,
  _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + limit
  while try await !condition() {
    guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
    try await Task.sleep(for: .milliseconds(10))
  }
}

/// A condition that did not come true in time.
struct TimedOut: Error, CustomStringConvertible {
  var what: String
  var description: String { "timed out waiting for \(what)" }
}

/// The lines of a file, split at newlines (the last one included only if complete).
func lines(of path: String) throws -> [String] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  lines.removeLast()
  return lines
}

/// Runs blocking work (a synchronous socket exchange) on a thread of its own, so that it
/// never holds one of the few threads the server's tasks need to answer it.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Runs a test that serves in this process alone among the tests that switch the process to
/// the main serial executor: while one of those runs, every task (the server's too) waits for
/// it to drive the main queue, so the two must not overlap.
@MainActor
func withoutSerialExecutorTests(_ body: () async throws -> Void) async throws {
  await SerialExecutorGate.shared.enter()
  do {
    try await body()
  } catch {
    await SerialExecutorGate.shared.leave()
    throw error
  }
  await SerialExecutorGate.shared.leave()
}

/// What a raw exchange with a server produced: the response's bytes until the server closed
/// (or the time ran out), and whether the server reset the connection.
struct RawReply: Sendable {
  var bytes: [UInt8]
  var wasReset: Bool
  var timedOut: Bool

  /// The first response's status code, when one arrived.
  var status: Int? {
    let text = String(decoding: bytes.prefix(64), as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 ") else { return nil }
    return Int(text.dropFirst(9).prefix(3))
  }

  var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A plain TCP connection to a server on loopback, for requests no well-behaved client
/// sends; every wait on it is bounded by `timeoutMilliseconds`.
final class RawConnection: @unchecked Sendable {
  let descriptor: Int32

  init(port: Int, timeoutMilliseconds: Int = 10_000) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw CocoaError(.fileReadUnknown)
    }
    var time = timeval(
      tv_sec: timeoutMilliseconds / 1000, tv_usec: .init((timeoutMilliseconds % 1000) * 1000))
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(descriptor) }

  /// Sends `bytes`; `false` when the server closed or reset the connection first.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { return false }
      sent += count
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Reads until the server closes, resets, or the time runs out.
  func readToEnd() -> RawReply {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        bytes += buffer[..<count]
        continue
      }
      if count == 0 { return RawReply(bytes: bytes, wasReset: false, timedOut: false) }
      let code = errno
      return RawReply(
        bytes: bytes, wasReset: code == ECONNRESET, timedOut: code == EAGAIN || code == EWOULDBLOCK)
    }
  }

  /// Reads until `count` bytes or a blank line after a head arrived (one response head).
  func readHead() -> RawReply {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while !bytes.suffix(4).elementsEqual([13, 10, 13, 10]) {
      let count = recv(descriptor, &byte, 1, 0)
      guard count == 1 else {
        return RawReply(bytes: bytes, wasReset: errno == ECONNRESET, timedOut: count < 0)
      }
      bytes.append(byte)
    }
    return RawReply(bytes: bytes, wasReset: false, timedOut: false)
  }
}

/// Sends `bytes` on a new connection and reads the reply to its end, on a thread of its own.
func rawExchange(port: Int, _ bytes: [UInt8]) async throws -> RawReply {
  try await onThread {
    let connection = try RawConnection(port: port)
    connection.send(bytes)
    return connection.readToEnd()
  }
}

/// A trace header line and `count` event lines from sequence 1, as a recorder sends them.
func batch(events count: Int, from first: Int = 1, padding: Int = 0) -> String {
  var text = counterHeader
  for seq in first..<(first + count) {
    text +=
      #"{"seq":\#(seq),"t":0,"kind":"action","id":\#(seq),"label":"increase","pad":"\#(String(repeating: "x", count: padding))"}"#
      + "\n"
  }
  return text
}

/// `POST` of `body` to stream `id` from `from`, with the token and `Connection: close`.
func postHead(_ id: String, from: Int = 1, token: String, length: Int) -> String {
  "POST /live/v1/streams/\(id)?from=\(from) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    + "Authorization: Bearer \(token)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
}

/// The header line of `Traces/counter.trace.jsonl`, newline included.
let counterHeader: String = {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  let text =
    (try? String(
      contentsOf: root.appendingPathComponent("Traces/counter.trace.jsonl"), encoding: .utf8)) ?? ""
  return String(text.prefix { $0 != "\n" }) + "\n"
}()
