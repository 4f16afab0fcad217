import Foundation
import Testing

/// The directory holding the `reactor-trace` and `reactor-trace-live-example` built next to
/// the test runner.
func builtProducts() -> String? {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let files = FileManager.default
    if files.isExecutableFile(atPath: directory.appendingPathComponent("reactor-trace").path),
      files.isExecutableFile(
        atPath: directory.appendingPathComponent("reactor-trace-live-example").path)
    {
      return directory.path
    }
    directory = directory.deletingLastPathComponent()
  }
  return nil
}

/// What the browser tests need and this machine lacks, or `nil`.
private let missingBrowser: String? = {
  let files = FileManager.default
  if !files.isExecutableFile(atPath: "/usr/bin/chromium") { return "/usr/bin/chromium" }
  if !files.isExecutableFile(atPath: "/usr/bin/chromedriver") { return "/usr/bin/chromedriver" }
  let python = Process()
  python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  python.arguments = ["python3", "-c", "import selenium"]
  python.standardOutput = FileHandle.nullDevice
  python.standardError = FileHandle.nullDevice
  guard (try? python.run()) != nil else { return "python3" }
  python.waitUntilExit()
  return python.terminationStatus == 0 ? nil : "Python's selenium"
}()

private var isBrowserRequired: Bool {
  ProcessInfo.processInfo.environment["REACTOR_TRACE_BROWSER_TESTS"] == "required"
}

@Suite("Live server, app and page, as real processes")
struct LiveBrowserTests {
  /// Runs Tests/Browser/live_test.py against real processes.
  ///
  /// It starts a real `serve` and a real app process streaming to it, drives headless
  /// Chromium on the live page (compared with `replay --state-at`), kills the server and
  /// starts it again mid-stream, and checks the refusals. Skipped, saying why, where Chromium
  /// or Selenium is missing, unless `REACTOR_TRACE_BROWSER_TESTS=required` (as in CI).
  @Test(
    .enabled(
      if: missingBrowser == nil || isBrowserRequired,
      """
      skipped: headless Chromium, chromedriver or Python's selenium is missing; \
      set REACTOR_TRACE_BROWSER_TESTS=required to fail instead
      """))
  func aRealAppStreamsToARealServerAndTheLivePageShowsIt() throws {
    if let missingBrowser {
      Issue.record("the live browser tests are required but \(missingBrowser) is missing")
      return
    }
    let products = try #require(builtProducts(), "reactor-trace or the live example is not built")
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "timeout", "600", "python3", root + "/Tests/Browser/live_test.py", "--bin", products,
    ]
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "the live browser tests failed:\n\(report)")
  }
}
