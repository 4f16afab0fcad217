import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `reactor-trace-serve`, built beside the benchmark, running on a free loopback port with a
/// directory of its own: the server a `live` row streams to, in a process of its own so that
/// its work is not the measured process's (and callgrind, which does not follow children,
/// counts the app's alone).
final class ServeProcess {
  /// The port it listens on.
  let port: Int
  /// The token apps present.
  let token: String
  /// Where it keeps each stream, as `ID.trace.jsonl`.
  let directory: String
  private let pid: pid_t
  private var isRunning = true

  /// Starts the server and waits until it listens.
  /// - Parameter directory: Where it keeps streams; created if missing.
  /// - Throws: ``BenchFailure/missingTool(path:hint:)`` when it is not built, or
  ///   ``BenchFailure/child(command:reason:)`` when it does not start.
  init(directory: String) throws(BenchFailure) {
    let executable =
      ((Bundle.main.executablePath ?? CommandLine.arguments[0]) as NSString)
      .deletingLastPathComponent + "/reactor-trace-serve"
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw .missingTool(
        path: executable,
        hint: "Build it beside the benchmark: swift build -c release --product reactor-trace-serve")
    }
    let arguments = ["--port", "0", "--directory", directory]
    let command = ([executable] + arguments).joined(separator: " ")
    // posix_spawn with the pipe as its standard output only, as the bench's children are
    // started (Foundation's Process closes descriptors a run under valgrind must keep).
    var ends: [Int32] = [0, 0]
    guard ChildProcess.openPipe(&ends) else {
      throw .child(command: command, reason: "pipe failed: \(String(cString: strerror(errno)))")
    }
    let pid: pid_t
    do {
      pid = try ChildProcess.spawn(executable, arguments, keep: ends) { actions in
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
      }
    } catch {
      close(ends[0])
      close(ends[1])
      throw error
    }
    close(ends[1])
    defer { close(ends[0]) }
    // serve prints the page's URL, `apps: host H, port P, token T`, then where it keeps streams.
    var text = ""
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !text.contains("streams kept in") {
      let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      text += String(decoding: buffer[..<count], as: UTF8.self)
    }
    guard let match = text.firstMatch(of: /apps: host \S+, port (\d+), token (\S+)/),
      let port = Int(match.output.1)
    else {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      throw .child(command: command, reason: "printed no port and token: \(text)")
    }
    self.port = port
    token = String(match.output.2)
    self.directory = directory
    self.pid = pid
  }

  /// Stops the server and waits until it has.
  func stop() {
    guard isRunning else { return }
    isRunning = false
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  /// Stops the server and removes its directory and the streams it kept.
  func remove() {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  deinit {
    stop()
  }
}
