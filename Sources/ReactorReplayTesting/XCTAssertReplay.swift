#if canImport(XCTest)
public import ReactorCore
public import ReactorReplay
internal import XCTest

// XCTest assertions are named XCTAssert…, as XCTest's own are.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Replays the trace file at `tracePath` through `reactor`'s `reduce` and fails the XCTest
/// test when it diverges or cannot run.
///
/// ```swift
/// @MainActor func testCounterStillReducesItsTrace() {
///   XCTAssertReplay("Fixtures/counter.trace.jsonl", reduces: CounterReactor())
/// }
/// ```
///
/// The failure message is the report ``expectReplay(_:reduces:allowingReactorMismatch:sourceLocation:)``
/// records: the step, the mutation and its action, and the state diff, or why the replay
/// could not run. With `strict: true`, a trace with warnings (cut off by a crash, without an
/// end line, or recorded while effects were still running) fails too; otherwise its warnings
/// are printed.
///
/// - Parameters:
///   - tracePath: The trace file.
///   - reactor: The reactor whose `reduce` to run; its `Mutation` and `State` must be Codable.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
///   - strict: Whether a warning about the trace fails the test.
///   - file: The file to report the failure in; by default, the caller's.
///   - line: The line to report the failure on; by default, the caller's.
/// - Returns: What the replay found, or `nil` when it could not run.
@MainActor
@discardableResult
public func XCTAssertReplay<R: Reactor>(
  _ tracePath: String,
  reduces reactor: R,
  allowingReactorMismatch: Bool = false,
  strict: Bool = false,
  file: StaticString = #filePath,
  line: UInt = #line
) -> ReplayResult? {
  let outcome = ReplayCheck.run(
    tracePath, reduces: reactor, allowingReactorMismatch: allowingReactorMismatch,
    strict: strict)
  if let failure = outcome.failure {
    XCTFail(failure, file: file, line: line)
  }
  for warning in outcome.warnings { print(warning) }
  return outcome.result
}
#endif
