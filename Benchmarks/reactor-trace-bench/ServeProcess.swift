import Foundation

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
  private let process: Process

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
    let command = "\(executable) --port 0 --directory \(directory)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--port", "0", "--directory", directory]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw .child(command: command, reason: "cannot start: \(error)")
    }
    // serve prints the page's URL, then `apps: host H, port P, token T`.
    var text = ""
    let reader = output.fileHandleForReading
    while !text.contains("streams kept in") {
      let data = reader.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    guard let match = text.firstMatch(of: /apps: host \S+, port (\d+), token (\S+)/),
      let port = Int(match.output.1)
    else {
      process.terminate()
      throw .child(command: command, reason: "printed no port and token: \(text)")
    }
    self.port = port
    token = String(match.output.2)
    self.directory = directory
    self.process = process
  }

  /// Stops the server and waits until it has.
  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
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
