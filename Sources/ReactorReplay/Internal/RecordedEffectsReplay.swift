import ReactorCore
import ReactorTracing

/// Mutate replay with effects played back from the recording (``ReplayEffects/recorded``).
///
/// Sent actions go to the reactor at their recorded times and `mutate` runs for real; the
/// effects it starts are played by a ``RecordedEffectPlayer``, and the recorded mutations of
/// streams are delivered too. The run is compared with the trace by ``MutateComparison``,
/// which with a player compares each sent action's effects and cancellations and each
/// mutation's state hash as well.
///
/// As with effects that run, the replay stops at the first divergence: before each action is
/// sent, what came before it in the trace is compared, and when it differs the action is not
/// sent (a reactor whose state left the recorded path may trap on it).
@MainActor
enum RecordedEffectsReplay {
  static func run<R: Reactor>(
    _ reader: TraceReader, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool,
    willSend: ((_ sequence: Int, _ label: String) -> Void)? = nil
  ) async throws(ReplayError) -> ReplayResult {
    let header = reader.header
    let (player, evolution) = try Self.player(
      reader, for: reactor, allowingReactorMismatch: allowingReactorMismatch, isInSession: false)
    let timeline = player.timeline
    var actions: [R.Action] = []
    for action in timeline.actions {
      actions.append(
        try ReplayChecks.decode(
          R.Action.self, from: action.value, of: .action, evolution: evolution, line: action.line,
          sequence: action.sequence, label: action.label
        ) { try CodableValues.decodeOrThrow(R.Action.self, from: $0) })
    }
    if header.window != nil { try start(reactor, from: header) }

    reactor.runtime.effectRunner = player
    defer { reactor.runtime.effectRunner = nil }
    let recorder = try ReplayChecks.recorder(of: reactor, header: header, clock: clock)
    // Built now: a window may start with mutations, delivered before any action is sent.
    _ = reactor.state
    let comparison = MutateComparison(timeline, player: player)
    var divergence: ReplayResult?
    _ = try await MutateReplayDriver.drive(
      timeline, advance: advance, player: player,
      jump: { jump, line throws(ReplayError) in
        try ReplayChecks.perform(jump, on: reactor, line: line)
      },
      send: { position in
        let action = timeline.actions[position]
        // Stop at the first divergence: what came before this action must match.
        let before = comparison.compare(recorder.events, before: action.index)
        if before.divergence != nil {
          divergence = before
          return false
        }
        willSend?(action.sequence, action.label)
        player.currentPosition = position
        reactor.send(actions[position])
        player.currentPosition = nil
        return true
      })
    recorder.stop()
    player.finish()
    if let error = player.error { throw error }

    var result = timeline.reportingWrongJump(divergence ?? comparison.compare(recorder.events))
    result.warnings = reader.warnings
    result.schemaChanges = evolution.changes
    result.droppedEventCount = timeline.dropped
    result.playedEffects = player.playedEffects(reactor: nil)
    return result
  }

  /// Reads `reader` (a trace of `R`, or a reactor's lane of a session) and makes the player
  /// of its effects for `reactor`'s runtime, not attached yet.
  /// - Parameters:
  ///   - reader: The trace.
  ///   - reactor: The reactor the replay runs.
  ///   - allowingReactorMismatch: Whether the trace may have been recorded from another type.
  ///   - isInSession: Whether the reactor runs with the session's other reactors.
  /// - Returns: The player, and how the reactor's types changed since the recording.
  /// - Throws: ``ReplayError`` when the trace does not replay through `R`; a mutation the
  ///   player delivers that does not decode is its ``RecordedEffectPlayer/error``.
  static func player<R: Reactor>(
    _ reader: TraceReader, for reactor: R, allowingReactorMismatch: Bool, isInSession: Bool
  ) throws(ReplayError) -> (
    player: RecordedEffectPlayer<R.Action, R.Mutation, R.State>, evolution: SchemaEvolution
  ) {
    // A subclassed reactor is recorded by its own type (`type(of: reactor)`).
    let evolution = try ReplayChecks.check(
      reader.header, for: R.self, dynamicType: type(of: reactor),
      allowingReactorMismatch: allowingReactorMismatch, using: [.action, .mutation])
    guard CodableValues.isCodable(R.Action.self) else { throw .notCodable("Action") }
    guard CodableValues.isCodable(R.Mutation.self) else { throw .notCodable("Mutation") }
    let timeline = try RecordedTimeline(reader)
    // The mutations the replay delivers itself (those of effects and streams), each decoded
    // as it is delivered, inside the code that made it in the recording.
    let player = RecordedEffectPlayer<R.Action, R.Mutation, R.State>(
      timeline: timeline,
      decode: { index throws(ReplayError) in
        let line = timeline.lines[index]
        guard case .mutation(let mutation) = line.event.kind, let value = mutation.value else {
          throw .missingValue(line: line.line, what: "mutation")
        }
        return try ReplayChecks.decode(
          R.Mutation.self, from: value, of: .mutation, evolution: evolution, line: line.line,
          sequence: line.event.sequence, label: mutation.label
        ) { try CodableValues.decodeOrThrow(R.Mutation.self, from: $0) }
      }, runtime: reactor.runtime, isInSession: isInSession)
    return (player, evolution)
  }

  /// Makes `reactor` start from the state a windowed trace starts with.
  private static func start<R: Reactor>(_ reactor: R, from header: TraceHeader)
    throws(ReplayError)
  {
    guard CodableValues.isCodable(R.State.self) else { throw .notCodable("State") }
    guard case .json(let json) = header.initialState else {
      throw .missingValue(line: 1, what: "initial state")
    }
    let state: R.State
    do {
      state = try CodableValues.decodeOrThrow(R.State.self, from: json)
    } catch {
      throw .undecodable(line: 1, reason: "the recorded initial state: \(error)")
    }
    guard reactor.runtime.start(from: state) else {
      throw .undecodable(
        line: 1,
        reason: "the recorded initial state: the reactor was already used; replay through a "
          + "fresh one")
    }
  }
}
