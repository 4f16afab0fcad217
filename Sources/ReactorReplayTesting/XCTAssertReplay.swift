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
/// The failure message is the report ``expectReplay(_:reactorID:reduces:allowingReactorMismatch:strict:sourceLocation:)``
/// records: the step, the mutation and its action, and the state diff, or why the replay
/// could not run. With `strict: true`, a trace with warnings (cut off by a crash, without an
/// end line, or recorded while effects were still running) fails too; otherwise its warnings
/// are printed.
///
/// - Parameters:
///   - tracePath: The trace file, or a session.
///   - reactorID: In a session, the id of the reactor to replay; `nil` for a trace of one
///     reactor.
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
  reactorID: Int? = nil,
  reduces reactor: R,
  allowingReactorMismatch: Bool = false,
  strict: Bool = false,
  file: StaticString = #filePath,
  line: UInt = #line
) -> ReplayResult? {
  let outcome = ReplayCheck.run(
    tracePath, reactorID: reactorID, reduces: reactor,
    allowingReactorMismatch: allowingReactorMismatch, strict: strict)
  if let failure = outcome.failure {
    XCTFail(failure, file: file, line: line)
  }
  for warning in outcome.warnings { print(warning) }
  return outcome.result
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Replays the trace file at `tracePath` through `reactor`'s `mutate` on a test clock and
/// fails the XCTest test when it diverges or cannot run.
///
/// With `effects: .recorded`, effect bodies do not run: the trace's mutations for each effect
/// arrive at their recorded times, so the reactor can be built with services that fail if
/// called. The failure message is the report
/// ``expectReplay(_:mutates:effects:clock:advance:allowingReactorMismatch:strict:sourceLocation:)``
/// records.
///
/// ```swift
/// @MainActor func testSearchStillDoesWhatTheQASessionRecorded() async {
///   let clock = TestClock()
///   await XCTAssertReplay(
///     "Fixtures/qa-search.trace.jsonl",
///     mutates: GitHubSearchReactor(service: UncallableSearchService()), effects: .recorded,
///     clock: clock, advance: { await clock.advance(by: $0) })
/// }
/// ```
///
/// - Parameters:
///   - tracePath: The trace file.
///   - reactor: A fresh reactor; its `Action` and `Mutation` must be Codable.
///   - effects: Whether effects run or are played back from the recording.
///   - clock: The test clock the replay runs on.
///   - advance: Advances the test clock by a duration.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
///   - strict: Whether a warning about the trace fails the test.
///   - file: The file to report the failure in; by default, the caller's.
///   - line: The line to report the failure on; by default, the caller's.
/// - Returns: What the replay found, or `nil` when it could not run.
@MainActor
@discardableResult
public func XCTAssertReplay<R: Reactor>(
  _ tracePath: String,
  mutates reactor: R,
  effects: ReplayEffects,
  clock: any Clock<Duration>,
  advance: (Duration) async -> Void,
  allowingReactorMismatch: Bool = false,
  strict: Bool = false,
  file: StaticString = #filePath,
  line: UInt = #line
) async -> ReplayResult? {
  let outcome = await ReplayCheck.run(
    tracePath, mutates: reactor, effects: effects, clock: clock, advance: advance,
    allowingReactorMismatch: allowingReactorMismatch, strict: strict)
  if let failure = outcome.failure {
    XCTFail(failure, file: file, line: line)
  }
  for warning in outcome.warnings { print(warning) }
  return outcome.result
}
#endif
