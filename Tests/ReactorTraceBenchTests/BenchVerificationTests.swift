import Foundation
import Testing

@testable import reactor_trace_bench

/// The benchmark's checks catch a wrong result, and its scenarios pass them when run small.
@MainActor
@Suite
struct BenchVerificationTests {
  @Test func aWrongCountFailsTheVerification() {
    let verification = Verification(scenario: "counter-sync/untraced")
    #expect(throws: BenchFailure.self) {
      try verification.expect("states seen by observer 1", 999, equals: 1_001)
    }
    #expect(throws: Never.self) { try verification.expect("the final value", 1_000, equals: 1_000) }
  }

  @Test func aReportLineReadsBackAsTheSameReport() {
    let report = ChildReport(
      seconds: 0.25, units: 1_000, bytes: 123_456, events: 4_000, fullStateBytes: 3_333.5,
      dropped: 17)
    #expect(ChildReport(output: "progress\n" + report.line + "\n") == report)
    #expect(ChildReport(output: "no result here") == nil)
  }

  @Test(arguments: RuntimeScenario.allCases, TracingMode.allCases)
  func everyScenarioVerifiesASmallRun(scenario: RuntimeScenario, mode: TracingMode) async throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let report = try await RuntimeRun.run(scenario, mode: mode, count: 20, directory: directory)
    #expect(report.units == 20)
    let writes = [.file, .fileDropping, .live].contains(mode)
    #expect((report.events != nil) == writes)
    #expect((report.dropped != nil) == (mode != .file && writes && scenario != .stub))
    // A live run streams to `reactor-trace-serve` and finds every event in the file it kept.
    if mode == .live { #expect(report.dropped ?? 0 == 0 && report.bytes ?? 0 > 0) }
  }

  @Test(arguments: SessionWorkload.FileScenario.allCases)
  func aSessionRecordedToAFileHoldsEveryEvent(scenario: SessionWorkload.FileScenario)
    async throws
  {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for observed in [false, true] {
      let report = try await SessionWorkload.recordToFile(
        scenario, reactors: 3, actions: 20, path: directory + "/file.session.jsonl",
        observed: observed)
      #expect(report.units == scenario.eventsPerAction * 20)
      #expect(report.events == 2 * 3 + scenario.eventsPerAction * 20 + 1)
    }
    // The callgrind subtrahend: the same reactors, observers and loop, no recorder, no file.
    let untraced = try await SessionWorkload.recordToFile(
      scenario, reactors: 3, actions: 20, path: directory + "/untraced.session.jsonl",
      observed: true, untraced: true)
    #expect(untraced.units == scenario.eventsPerAction * 20)
    #expect(untraced.events == 0)
    #expect(!FileManager.default.fileExists(atPath: directory + "/untraced.session.jsonl"))
    let arguments = ["session-file", scenario.rawValue, "3", "20", "p"]
    #expect(
      try ChildCommand(arguments: arguments)
        == .sessionFile(
          scenario, reactors: 3, actions: 20, path: "p", observed: false, untraced: false))
    #expect(
      try ChildCommand(arguments: arguments + ["observed"])
        == .sessionFile(
          scenario, reactors: 3, actions: 20, path: "p", observed: true, untraced: false))
    #expect(
      try ChildCommand(arguments: arguments + ["observed", "untraced"])
        == .sessionFile(
          scenario, reactors: 3, actions: 20, path: "p", observed: true, untraced: true))
    for extra in [["other"], ["observed", "observed"], ["untraced", "other"]] {
      #expect(throws: BenchFailure.self) { try ChildCommand(arguments: arguments + extra) }
    }
  }

  @Test func aTraceFileThatLostAnEventFailsTheCheck() async throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/concat.trace.jsonl"
    let report = try await TraceWorkload.write(actions: 3, to: path)
    #expect(report.events == 12)
    let verification = Verification(scenario: "trace-write")
    #expect(try TraceFileCheck.verify(path: path, events: 12, by: verification) > 0)

    var lines = try String(contentsOfFile: path, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    lines.remove(at: 3)
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: BenchFailure.self) {
      try TraceFileCheck.verify(path: path, events: 12, by: verification)
    }
  }

  private static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "/reactor-trace-bench-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
