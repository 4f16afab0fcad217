import Foundation
import Testing

@testable import reactor_trace_bench

/// The command-round-trip row (issue 43) is in the plan and runs: its script dispatches
/// commands from the live page while the app streams, and reports their round trips.
@Suite
struct CommandRoundTripTests {
  @Test func thePlanHasTheCommandRoundTripRowAgainstItsGoal() throws {
    let plan = BenchPlan(directory: "/tmp", divisor: 1)
    let row = try #require(plan.rows.first { $0.id == "command-round-trip/1000/s-100KB" })
    #expect(row.count == BenchPlan.commands && row.unit == "commands")
    guard case .script(let name, let arguments) = row.job else {
      Issue.record("the row runs \(row.job), not a script")
      return
    }
    #expect(name == "live_bench.py")
    #expect(
      arguments == ["--only", "command", "--rates", "1000", "--commands", "100", "--report"])
  }

  /// Runs the row's script small: 3 commands while the app streams 100 events/s.
  ///
  /// It runs the `reactor-trace-serve` and `reactor-trace-live-example` built beside the tests
  /// and headless Chromium. Skipped where Chromium or Selenium is missing, unless
  /// `REACTOR_TRACE_BROWSER_TESTS=required` (as in CI).
  @Test(
    .enabled(
      if: Self.missing == nil
        || ProcessInfo.processInfo.environment["REACTOR_TRACE_BROWSER_TESTS"] == "required",
      "skipped: headless Chromium, chromedriver or Python's selenium is missing"))
  func aSmallRunDispatchesFromThePageAndReportsEachRoundTrip() throws {
    if let missing = Self.missing {
      Issue.record("the browser tests are required but \(missing) is missing")
      return
    }
    let products = try #require(
      Self.products(), "reactor-trace-serve or the live example is not built")
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "timeout", "600", "python3", root + "/Benchmarks/live/live_bench.py", "--bin", products,
      "--only", "command", "--rates", "100", "--commands", "3", "--report",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "the script failed:\n\(text)")
    let report = try #require(ChildReport(output: text), "no RESULT line in:\n\(text)")
    #expect(report.units == 3, "\(text)")
    let latency = try #require(report.latencyMilliseconds)
    #expect(latency.p50 > 0 && latency.p50 <= latency.p95 && latency.p95 <= latency.p99)
  }

  /// The directory holding `reactor-trace-serve` and `reactor-trace-live-example` built next
  /// to the test runner, or `nil`.
  private static func products() -> String? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let files = FileManager.default
      if files.isExecutableFile(
        atPath: directory.appendingPathComponent("reactor-trace-serve").path),
        files.isExecutableFile(
          atPath: directory.appendingPathComponent("reactor-trace-live-example").path)
      {
        return directory.path
      }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  /// What the script needs and this machine lacks, or `nil`.
  private static let missing: String? = {
    let files = FileManager.default
    for path in ["/usr/bin/chromium", "/usr/bin/chromedriver"]
    where !files.isExecutableFile(atPath: path) {
      return path
    }
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", "import selenium"]
    python.standardOutput = FileHandle.nullDevice
    python.standardError = FileHandle.nullDevice
    guard (try? python.run()) != nil else { return "python3" }
    python.waitUntilExit()
    return python.terminationStatus == 0 ? nil : "Python's selenium"
  }()
}
