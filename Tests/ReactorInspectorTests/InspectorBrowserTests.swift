import Foundation
import Testing

/// What the browser tests need, and whether this machine has it.
private enum BrowserEnvironment {
  static let chromium = "/usr/bin/chromium"
  static let driver = "/usr/bin/chromedriver"

  /// Whether CI asked for the browser tests: then a missing browser fails them.
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["REACTOR_TRACE_BROWSER_TESTS"] == "required"
  }

  /// What is missing, or `nil` when everything is here.
  static let missing: String? = {
    let files = FileManager.default
    if !files.isExecutableFile(atPath: chromium) { return "\(chromium) (apt-get install chromium)" }
    if !files.isExecutableFile(atPath: driver) {
      return "\(driver) (apt-get install chromium-driver)"
    }
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", "import selenium"]
    python.standardOutput = FileHandle.nullDevice
    python.standardError = FileHandle.nullDevice
    guard (try? python.run()) != nil else { return "python3" }
    python.waitUntilExit()
    return python.terminationStatus == 0 ? nil : "Python's selenium (pip install selenium)"
  }()

  static var shouldRun: Bool { missing == nil || isRequired }
}

/// The repository's root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The `reactor-trace` built next to the test runner.
private func reactorTraceBinary() throws -> String {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("reactor-trace")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
    directory = directory.deletingLastPathComponent()
  }
  throw CocoaError(.fileNoSuchFile)
}

@Suite("Inspector in a real browser")
struct InspectorBrowserTests {
  /// Runs Tests/Browser/inspector_test.py in headless Chromium.
  ///
  /// The script opens generated pages, clicks, presses keys and compares what the page shows
  /// with `replay --state-at` and with the trace itself. Skipped, saying why, where Chromium or Selenium is missing, unless
  /// `REACTOR_TRACE_BROWSER_TESTS=required` (as in CI).
  @Test(
    .enabled(
      if: BrowserEnvironment.shouldRun,
      """
      skipped: headless Chromium, chromedriver or Python's selenium is missing; \
      set REACTOR_TRACE_BROWSER_TESTS=required to fail instead
      """))
  func inspectorPagesBehaveInHeadlessChromium() throws {
    if let missing = BrowserEnvironment.missing {
      Issue.record("the browser tests are required but \(missing) is missing")
      return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", repositoryRoot + "/Tests/Browser/inspector_test.py",
      "--reactor-trace", try reactorTraceBinary(),
    ]
    // A browser that hangs must not hold CI until its own limit: stop it after 10 minutes
    // (the tests take well under a minute).
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") {
      process.arguments = ["timeout", "600"] + (process.arguments ?? [])
    }
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "the browser tests failed:\n\(report)")
  }
}
