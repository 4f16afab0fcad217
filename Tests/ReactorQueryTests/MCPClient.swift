import Foundation
import ReactorTracing

/// A client of `reactor-trace mcp` speaking the protocol itself: JSON-RPC messages, one per
/// line, on the server's standard input and output.
final class MCPClient {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffer: [UInt8] = []
  private var nextID = 0

  /// Starts `reactor-trace mcp` (which runs reactor-trace-mcp) with `arguments`.
  init(arguments: [String], directory: String = repositoryRoot) throws {
    process.executableURL = try productsDirectory().appendingPathComponent("reactor-trace")
    process.arguments = ["mcp"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// Whether the server still runs.
  var isRunning: Bool { process.isRunning }

  /// Sends a request and returns the response with its id; `nil` when the server closed its
  /// output first.
  func request(_ method: String, _ parameters: JSONValue? = nil) throws -> JSONValue? {
    nextID += 1
    var message = JSONObject()
    message["jsonrpc"] = "2.0"
    message["id"] = .int(Int64(nextID))
    message["method"] = .string(method)
    if let parameters { message["params"] = parameters }
    try send(.object(message))
    while let line = readLine() {
      let response = try JSONValue(parsing: line)
      if response["id"] == .int(Int64(nextID)) { return response }
    }
    return nil
  }

  /// Sends a notification.
  func notify(_ method: String) throws {
    try send(["jsonrpc": "2.0", "method": .string(method)])
  }

  /// Sends raw bytes as one line.
  func sendRaw(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Initializes the session as a client does.
  func initialize() throws -> JSONValue? {
    let response = try request(
      "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [:],
        "clientInfo": ["name": "reactor-trace-tests", "version": "1"],
      ])
    try notify("notifications/initialized")
    return response
  }

  /// Calls a tool; returns its result.
  func call(_ tool: String, _ arguments: JSONValue) throws -> JSONValue? {
    try request("tools/call", ["name": .string(tool), "arguments": arguments])?["result"]
  }

  /// Closes the server's input and waits for it to end; returns its exit status.
  func close() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func send(_ message: JSONValue) throws {
    try sendRaw(String(decoding: message.serialized, as: UTF8.self))
  }

  private func readLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        if !line.isEmpty { return line }
        continue
      }
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { return nil }
      buffer += data
    }
  }
}
