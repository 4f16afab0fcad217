#if canImport(XCTest)
public import ReactorReplay
public import ReactorTracing
internal import XCTest

// XCTest assertions are named XCTAssert…, as XCTest's own are.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Records a fresh trace and compares it with the golden trace file at `path`, failing the
/// XCTest test when they differ; writes the file instead when it is missing or
/// `REACTOR_TRACE_RECORD=1` is set.
///
/// ```swift
/// @MainActor func testCounterRunMatchesItsGoldenTrace() async {
///   await XCTAssertGoldenTrace(goldenPath) { try await recordCounterRun() }
/// }
/// ```
///
/// Like argument-parser's `assertSnapshot`, a run that records fails, saying it wrote the
/// file; run the test again to verify. The failure for a difference is the report
/// ``expectGoldenTrace(_:isRecording:sourceLocation:record:)`` records: the first differing
/// `seq`, both events and the state diff.
///
/// - Parameters:
///   - path: The golden trace file; find it relative to `#filePath`.
///   - isRecording: Whether to re-record; by default, `nil`: whether `REACTOR_TRACE_RECORD`
///     is `1`.
///   - file: The file to report the failure in; by default, the caller's.
///   - line: The line to report the failure on; by default, the caller's.
///   - record: Makes the fresh recording.
/// - Returns: What happened, or `nil` when the trace could not be checked.
@MainActor
@discardableResult
public func XCTAssertGoldenTrace(
  _ path: String,
  isRecording: Bool? = nil,
  file: StaticString = #filePath,
  line: UInt = #line,
  record: () async throws -> Trace
) async -> GoldenTrace.Outcome? {
  let (outcome, failure) = await GoldenCheck.run(path, isRecording: isRecording, record: record)
  if let failure {
    XCTFail(failure, file: file, line: line)
  }
  return outcome
}
#endif
