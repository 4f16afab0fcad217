import Foundation
import Testing

/// The server with the reference Python SDK (`mcp` on PyPI) as its client.
///
/// Another implementation of the protocol than the tests' own. Skipped when the package is not
/// installed, unless REACTOR_TRACE_MCP_CLIENT_TESTS=required (CI installs it).
@Suite("reactor-trace mcp with Python's mcp package as the client")
struct MCPPythonClientTests {
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["REACTOR_TRACE_MCP_CLIENT_TESTS"] == "required"
  }

  /// Runs python3 with `arguments`; returns its status and output.
  static func python(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func thePythonClientCallsEveryToolAndGoesOnAfterAnError() throws {
    let (importable, _) = try Self.python(["-c", "import mcp.client.stdio"])
    guard importable == 0 || Self.isRequired else { return }
    let script = repositoryRoot + "/Tests/ReactorQueryTests/Python/mcp_client.py"
    let reactorTrace = try productsDirectory().appendingPathComponent("reactor-trace").path
    let (status, output) = try Self.python([script, reactorTrace, repositoryRoot])
    #expect(status == 0, "\(output)")
    #expect(output.contains(" passed, 0 failed"), "\(output)")
  }
}
