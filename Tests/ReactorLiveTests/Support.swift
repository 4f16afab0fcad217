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
  static func start(directory: String, port: Int = 0, token: String? = nil) async throws
    -> RunningServer
  {
    let log = Logs()
    let server = try await LiveServer(
      configuration: LiveServerConfiguration(port: port, directory: directory, token: token),
      log: { line in log.append(line) })
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
