public import ReactorCore
public import ReactorReplay
public import Testing

/// Replays the trace file at `tracePath` through `reactor`'s `reduce` and records a Swift
/// Testing issue when it diverges or cannot run.
///
/// ```swift
/// @MainActor @Test func counterStillReducesItsTrace() {
///   expectReplay("Fixtures/counter.trace.jsonl", reduces: CounterReactor())
/// }
/// ```
///
/// In a session, `reactorID` picks the reactor: its lane replays as a trace of that reactor
/// alone (``ReactorReplay/ReduceReplay/run(_:reactor:through:allowingReactorMismatch:)``), and
/// the issue names the session, the reactor and the divergence, whose `seq` is the session's:
///
/// ```swift
/// expectReplay(
///   "Traces/taskapp.session.jsonl", reactorID: 2,
///   reduces: TaskEditReactor(service: TaskAppService(clock: ContinuousClock())))
/// ```
///
/// The issue's comment is the whole divergence report: the trace path, how many steps
/// matched, the step and line, the mutation and the action behind it, and a diff of the
/// recorded (`-`) and replayed (`+`) states. When the replay cannot run (the file is
/// unreadable, was recorded from another reactor, or its types changed), the comment says
/// why. Replay uses ``ReduceReplay/run(path:through:allowingReactorMismatch:)``.
///
/// A trace with warnings (cut off by a crash, without an end line, or recorded while effects
/// were still running) that matches records a warning issue, which does not fail the test;
/// with `strict: true` it records an error issue, which does.
///
/// - Parameters:
///   - tracePath: The trace file, or a session.
///   - reactorID: In a session, the id of the reactor to replay; `nil` for a trace of one
///     reactor (whose id is 1).
///   - reactor: The reactor whose `reduce` to run; its `Mutation` and `State` must be Codable.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
///   - strict: Whether a warning about the trace fails the test.
///   - sourceLocation: Where to report the issue; by default, the call.
/// - Returns: What the replay found, or `nil` when it could not run.
@MainActor
@discardableResult
public func expectReplay<R: Reactor>(
  _ tracePath: String,
  reactorID: Int? = nil,
  reduces reactor: R,
  allowingReactorMismatch: Bool = false,
  strict: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) -> ReplayResult? {
  let outcome = ReplayCheck.run(
    tracePath, reactorID: reactorID, reduces: reactor,
    allowingReactorMismatch: allowingReactorMismatch, strict: strict)
  if let failure = outcome.failure {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  for warning in outcome.warnings {
    Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
  }
  return outcome.result
}

/// Replays the trace file at `tracePath` through `reactor`'s `mutate` on a test clock and
/// records a Swift Testing issue when it diverges or cannot run.
///
/// With `effects: .recorded`, the reactor needs no fakes that answer: the bodies of its async
/// effects do not run, the mutations the trace recorded for them arrive at their recorded
/// times, and each action's effects and cancellations are compared as well as every mutation
/// and state (``MutateReplay``). Build the reactor with services that fail if called:
///
/// ```swift
/// @MainActor @Test func searchStillDoesWhatTheQASessionRecorded() async {
///   let clock = TestClock()
///   await expectReplay(
///     "Fixtures/qa-search.trace.jsonl",
///     mutates: GitHubSearchReactor(service: UncallableSearchService()), effects: .recorded,
///     clock: clock, advance: { await clock.advance(by: $0) })
/// }
/// ```
///
/// Run it on the main serial executor so what the replay schedules runs deterministically.
/// The issue's comment is the whole divergence report, as for
/// ``expectReplay(_:reactorID:reduces:allowingReactorMismatch:strict:sourceLocation:)``.
///
/// - Parameters:
///   - tracePath: The trace file.
///   - reactor: A fresh reactor; its `Action` and `Mutation` must be Codable.
///   - effects: Whether effects run against the reactor's fakes or are played back from the
///     recording.
///   - clock: The test clock the replay runs on.
///   - advance: Advances the test clock by a duration: `{ await clock.advance(by: $0) }`.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
///   - strict: Whether a warning about the trace fails the test.
///   - sourceLocation: Where to report the issue; by default, the call.
/// - Returns: What the replay found, or `nil` when it could not run.
@MainActor
@discardableResult
public func expectReplay<R: Reactor>(
  _ tracePath: String,
  mutates reactor: R,
  effects: ReplayEffects,
  clock: any Clock<Duration>,
  advance: (Duration) async -> Void,
  allowingReactorMismatch: Bool = false,
  strict: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> ReplayResult? {
  let outcome = await ReplayCheck.run(
    tracePath, mutates: reactor, effects: effects, clock: clock, advance: advance,
    allowingReactorMismatch: allowingReactorMismatch, strict: strict)
  if let failure = outcome.failure {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  for warning in outcome.warnings {
    Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
  }
  return outcome.result
}
