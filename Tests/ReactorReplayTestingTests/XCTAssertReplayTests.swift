#if canImport(XCTest)
import Clocks
import Foundation
import ReactorReplay
import ReactorReplayTesting
import ReactorTestSupport
import ReactorTracing
import Synchronization
import XCTest

/// The XCTest assertions, run by `swift test` next to the Swift Testing suites.
///
/// `XCTExpectFailure` does not exist in swift-corelibs-xctest, so on Linux the failing paths
/// are checked by overriding `recordFailure(withDescription:inFile:atLine:expected:)` to
/// capture failures while ``capturingFailures(_:)`` runs. On Apple platforms only the passing
/// paths run.
final class XCTAssertReplayTests: XCTestCase {
  private let captured = Mutex<[String]?>(nil)

  @MainActor
  func testMatchingReplayPasses() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let result = XCTAssertReplay(path, reduces: AssertionCounterReactor())
      XCTAssertEqual(result?.stepsChecked, 3)
    }
  }

  @MainActor
  func testMutateReplayWithRecordedEffectsPassesWithoutRunningABody() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let clock = TestClock()
      let result = await XCTAssertReplay(
        path, mutates: AssertionCounterReactor(), effects: .recorded, clock: clock,
        advance: { await clock.advance(by: $0) })
      XCTAssertEqual(result?.stepsChecked, 3)
    }
  }

  @MainActor
  func testMatchingGoldenTracePasses() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let outcome = await XCTAssertGoldenTrace(path, isRecording: false) {
        try recordAssertionCounterTrace()
      }
      XCTAssertEqual(outcome, .matched)
    }
  }

  #if !canImport(Darwin)
  @MainActor
  func testDivergingReplayFailsWithTheStepAndValue() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let failures = capturingFailures {
        XCTAssertReplay(path, reduces: AssertionCounterReactor(step: 2))
      }
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.contains("event 2") == true, "\(failures)")
      XCTAssertTrue(failures.first?.contains("mutation increaseValue") == true)
      XCTAssertTrue(failures.first?.contains("+ AssertionCounterReactor.State(value: 2)") == true)
    }
  }

  @MainActor
  func testGoldenTraceRecordsAndFailsThenVerifiesThenReportsAMismatch() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      startCapturingFailures()
      let recorded = await XCTAssertGoldenTrace(path, isRecording: false) {
        try recordAssertionCounterTrace()
      }
      let recordingFailures = stopCapturingFailures()
      XCTAssertEqual(recorded, .recorded)
      XCTAssertEqual(recordingFailures.count, 1)
      XCTAssertTrue(recordingFailures.first?.contains("recorded the golden trace") == true)

      let verified = await XCTAssertGoldenTrace(path, isRecording: false) {
        try recordAssertionCounterTrace()
      }
      XCTAssertEqual(verified, .matched)

      startCapturingFailures()
      await XCTAssertGoldenTrace(path, isRecording: false) {
        try recordAssertionCounterTrace(step: 2)
      }
      let mismatchFailures = stopCapturingFailures()
      XCTAssertEqual(mismatchFailures.count, 1)
      XCTAssertTrue(
        mismatchFailures.first?.contains("differs from the golden trace at seq ") == true)
    }
  }

  /// Runs `body`, returning the failures it recorded instead of failing the test.
  private func capturingFailures(_ body: () -> Void) -> [String] {
    startCapturingFailures()
    body()
    return stopCapturingFailures()
  }

  private func startCapturingFailures() {
    captured.withLock { $0 = [] }
  }

  private func stopCapturingFailures() -> [String] {
    captured.withLock { failures in
      defer { failures = nil }
      return failures ?? []
    }
  }

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    let isCaptured = captured.withLock { failures in
      guard failures != nil else { return false }
      failures?.append(description)
      return true
    }
    if !isCaptured {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }
  #endif
}
#endif
