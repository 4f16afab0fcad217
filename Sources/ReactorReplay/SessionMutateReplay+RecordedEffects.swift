public import ReactorCore
public import ReactorTracing

extension SessionMutateReplay {
  /// Replays one reactor of a session through today's `mutate` with every effect played back
  /// from the recording: no services that answer, no other reactors.
  ///
  /// The reactor's lane (``ReactorTracing/SessionTrace/lane(of:)``) is replayed as
  /// ``MutateReplay`` does with ``ReplayEffects/recorded``, starting from the state the session
  /// introduced the reactor with. The actions the lane records as sent (by the user or by
  /// another reactor) are sent again; the service events other reactors' effects published,
  /// which this reactor merged in `transform(mutation:)`, arrive from the recording as its
  /// stream mutations, since those effects do not run.
  /// - Parameters:
  ///   - session: The session.
  ///   - id: The reactor's id in the session.
  ///   - reactor: A fresh reactor of the recorded type; its `Action`, `Mutation` and `State`
  ///     must be Codable.
  ///   - clock: The test clock the replay runs on.
  ///   - advance: Advances the test clock by a duration.
  /// - Returns: What the replay found, with the effects played back.
  /// - Throws: ``ReplayError/noSuchReactor(_:reactors:)`` when the session has no such
  ///   reactor, and what ``MutateReplay`` throws.
  public static func runWithRecordedEffects<R: Reactor>(
    _ session: SessionTrace, reactor id: Int, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void
  ) async throws(ReplayError) -> ReplayResult {
    guard let lane = session.lane(of: id) else {
      throw .noSuchReactor("reactor \(id)", reactors: session.reactors.map(\.reactor))
    }
    return try await RecordedEffectsReplay.run(
      ReplayChecks.open(lane), through: reactor, clock: clock, advance: advance,
      allowingReactorMismatch: false, startsFromRecordedState: true)
  }
}
