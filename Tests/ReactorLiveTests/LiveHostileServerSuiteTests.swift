import Foundation
import Testing

@Suite("The live server under attack, as a real process")
struct LiveHostileServerSuiteTests {
  /// Runs Tests/Hostile/hostile_server_test.py against a real `reactor-trace-serve`.
  ///
  /// Clients over loopback that do not play by the rules (a file-size limit under the
  /// server, long lines, idle connections past the descriptor limit, chunked bodies over the
  /// batch limit, forged log lines, unsafe token files, a busy port, guessed tokens, two
  /// `Host` headers) and the soak: 10 apps streaming for 60 s while the attackers run, every
  /// acknowledged event on disk, the server's RSS within its bound, its descriptors back to
  /// their start. Linux only (it reads `/proc`).
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/proc/self/fd"),
      "skipped: the hostile-server suite reads /proc (Linux)"))
  func theServerHoldsAgainstHostileClientsAndTheSoak() throws {
    let products = try #require(builtProducts(), "reactor-trace or the live example is not built")
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "timeout", "900", "python3", root + "/Tests/Hostile/hostile_server_test.py", "--bin",
      products,
    ]
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "the hostile-server suite failed:\n\(report)")
  }
}
