public import ReactorCore
public import ReactorReplay
public import Testing

/// Replays one reactor of the session at `sessionPath` through `reactor`'s `reduce` and
/// records a Swift Testing issue when it diverges or cannot run.
///
/// ```swift
/// @MainActor @Test func theEditScreenStillReducesItsSession() {
///   expectReplay(
///     "Traces/taskapp.session.jsonl", reactorID: 2,
///     reduces: TaskEditReactor(service: TaskAppService(clock: ContinuousClock())))
/// }
/// ```
///
/// The reactor's lane of the session is replayed as a trace of that reactor alone, as
/// ``expectReplay(_:reduces:allowingReactorMismatch:strict:sourceLocation:)`` replays a
/// trace (``ReactorReplay/ReduceReplay/run(_:reactor:through:)``); the issue names the session,
/// the reactor and the divergence, whose `seq` is the session's.
/// - Parameters:
///   - sessionPath: The session file (or a trace of one reactor, whose reactor is 1).
///   - reactorID: The reactor's id in the session.
///   - reactor: A reactor of the recorded type, whose `reduce` to run.
///   - sourceLocation: Where to report the issue; by default, the call.
/// - Returns: What the replay found, or `nil` when it could not run.
@MainActor
@discardableResult
public func expectReplay<R: Reactor>(
  _ sessionPath: String,
  reactorID: Int,
  reduces reactor: R,
  sourceLocation: SourceLocation = #_sourceLocation
) -> ReplayResult? {
  let outcome = ReplayCheck.run(sessionPath, reactorID: reactorID, reduces: reactor)
  if let failure = outcome.failure {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  for warning in outcome.warnings {
    Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
  }
  return outcome.result
}
