public import ReactorCore
public import ReactorTracing

/// Replays a trace's sent actions through a fresh reactor on a test clock and reports the
/// first mutation that differs from the recorded ones.
///
/// Each action the trace records as sent (`source: sent`) is decoded and sent at its recorded
/// time: the clock is advanced to the action's time first, and to the time of the last event
/// at the end. The replay is recorded, and the mutations — label, value, and which sent action
/// or which stream caused them — are compared in order with the recorded ones. Mutations from
/// streams merged in `transform(mutation:)` (a service's events) are compared too, so the
/// fakes the reactor is built with must publish them again at the same times; actions from
/// streams merged in `transform(action:)` are not re-sent, and their mutations are not
/// compared.
///
/// The replay stops at the first divergence: before each action is sent, the mutations the
/// replay produced so far are compared with the ones recorded before that action, and when
/// they differ no further action is sent — a reactor whose state has already left the
/// recorded path may well trap on the next one (an index into a list that is not there).
///
/// A flight-recorder window that dropped the start of the run (a trace whose header has a
/// `window` with dropped events: it starts from a snapshot of the state, not from the
/// reactor's initial state) is refused with
/// ``ReplayError/windowed(firstSequence:droppedEvents:)``: a fresh reactor starts from its
/// initial state, and the effects running at the window's start cannot be restarted, so
/// re-sending the window's actions would compare against a run the reactor never had. With
/// effects played back from the recording (``ReplayEffects/recorded``), and in reduce and
/// structural replay, a window starts from its snapshot.
///
/// A trace with a gap (``TraceEvent/Gap``) is replayed up to its first gap: the actions
/// dropped there cannot be sent again, so what follows is not compared, and the result
/// counts the dropped events (``ReplayResult/droppedEventCount``).
///
/// The reactor must be built fresh, with its dependencies injected as fakes driven by the
/// same test clock, so that its effects run when the clock is advanced and not in real time.
/// With `effects: .recorded`, the bodies of async effects do not run: the mutations the trace
/// recorded for each effect are delivered at their recorded times and its recorded end is
/// reproduced, so the reactor needs no fakes that answer (services that fail if called will
/// do), and a flight recorder's window replays from the state it starts with. Each sent
/// action's effects (how many, and their names) and the cancellations it makes (by id, or by a
/// run with `cancelInFlight`) are then compared with the recording as well, and every state
/// `reduce` returns; ``ReplayResult/playedEffects`` lists the effects played back.
///
/// In tests, run the replay on the main serial executor so effects run deterministically:
///
/// ```swift
/// try await withMainSerialExecutor {
///   let clock = TestClock()
///   let result = try await MutateReplay.run(
///     trace, through: CounterReactor(clock: clock), clock: clock,
///     advance: { await clock.advance(by: $0) })
///   #expect(result.divergence == nil)
/// }
/// ```
@MainActor
public enum MutateReplay {
  /// Sends the trace's recorded actions to `reactor` at their recorded times and compares the
  /// mutations it produces with the recorded ones.
  /// - Parameters:
  ///   - trace: The recorded trace.
  ///   - reactor: A fresh reactor whose dependencies are fakes driven by `clock`; its
  ///     `Action` must be Codable.
  ///   - clock: The clock the replay's recording is timed on: the test clock.
  ///   - advance: Advances the test clock by a duration, running what became due:
  ///     `{ await clock.advance(by: $0) }`.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type.
  ///   - effects: Whether the effects `mutate` starts run (``ReplayEffects/run``, against
  ///     fakes) or are played back from the recording (``ReplayEffects/recorded``).
  ///   - willSend: Called before each recorded action is sent (after the clock reached its
  ///     time and what came before it matched), with its `seq` and label: a tool names the
  ///     action that was running when the reactor trapped.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError`` when the trace cannot be read, was recorded from another
  ///   reactor or with incompatible types, is a window, or holds actions that do not decode.
  public static func run<R: Reactor>(
    _ trace: Trace, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool = false,
    effects: ReplayEffects = .run,
    willSend: ((_ sequence: Int, _ label: String) -> Void)? = nil
  ) async throws(ReplayError) -> ReplayResult {
    try await run(
      ReplayChecks.open(trace), through: reactor, clock: clock, advance: advance,
      allowingReactorMismatch: allowingReactorMismatch, effects: effects, willSend: willSend)
  }

  /// Replays the trace file at `path` like
  /// ``run(_:through:clock:advance:allowingReactorMismatch:effects:)``.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - reactor: A fresh reactor whose dependencies are fakes driven by `clock`.
  ///   - clock: The test clock.
  ///   - advance: Advances the test clock by a duration.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type.
  ///   - effects: Whether effects run or are played back from the recording.
  ///   - willSend: Called before each recorded action is replayed, with its `seq` and label.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError`` when the trace cannot be replayed.
  public static func run<R: Reactor>(
    path: String, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool = false,
    effects: ReplayEffects = .run,
    willSend: ((_ sequence: Int, _ label: String) -> Void)? = nil
  ) async throws(ReplayError) -> ReplayResult {
    try await run(
      ReplayChecks.open(path), through: reactor, clock: clock, advance: advance,
      allowingReactorMismatch: allowingReactorMismatch, effects: effects, willSend: willSend)
  }

  private static func run<R: Reactor>(
    _ reader: TraceReader, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool, effects: ReplayEffects,
    willSend: ((_ sequence: Int, _ label: String) -> Void)?
  ) async throws(ReplayError) -> ReplayResult {
    if effects == .recorded {
      return try await RecordedEffectsReplay.run(
        reader, through: reactor, clock: clock, advance: advance,
        allowingReactorMismatch: allowingReactorMismatch, willSend: willSend)
    }
    let header = reader.header
    if let window = header.window, window.droppedEvents > 0 {
      throw .windowed(firstSequence: window.firstSequence, droppedEvents: window.droppedEvents)
    }
    let evolution = try ReplayChecks.check(
      header, for: R.self, dynamicType: type(of: reactor),
      allowingReactorMismatch: allowingReactorMismatch, using: [.action, .mutation])
    guard CodableValues.isCodable(R.Action.self) else { throw .notCodable("Action") }
    let timeline = try RecordedTimeline(reader)

    for line in timeline.lines {
      switch line.event.kind {
      case .action(let action) where action.source == .sent && !evolution.isEmpty:
        // An action of a changed case is named here, in trace order with mutations.
        guard let value = action.value else { continue }
        _ = try ReplayChecks.decode(
          R.Action.self, from: value, of: .action, evolution: evolution, line: line.line,
          sequence: line.event.sequence, label: action.label
        ) { try CodableValues.decodeOrThrow(R.Action.self, from: $0) }
      case .mutation(let mutation) where !evolution.isEmpty:
        // A recorded mutation of a changed case, of a sent action or a stream, is named here,
        // before any replay.
        switch mutation.cause {
        case .action(let id), .effect(_, let id):
          guard timeline.positions[id] != nil else { continue }
        case .stream: break
        }
        guard let value = mutation.value else { continue }
        _ = try ReplayChecks.decode(
          R.Mutation.self, from: value, of: .mutation, evolution: evolution, line: line.line,
          sequence: line.event.sequence, label: mutation.label
        ) { try CodableValues.decodeOrThrow(R.Mutation.self, from: $0) }
      default:
        break
      }
    }
    let actions = timeline.actions
    let recorder = try ReplayChecks.recorder(of: reactor, header: header, clock: clock)
    // Started before the first event, as `record` starts it: a scripted event handed to the
    // fakes before any action reaches the reactor.
    _ = reactor.state
    let comparison = MutateComparison<R.Action, R.Mutation, R.State>(timeline, player: nil)
    var stopped: ReplayResult?
    _ = try await MutateReplayDriver.drive(
      timeline, advance: advance, player: nil,
      jump: { jump, line throws(ReplayError) in
        try ReplayChecks.perform(jump, on: reactor, line: line)
      },
      send: { position throws(ReplayError) in
        let action = actions[position]
        // Stop at the first divergence: what the replay produced so far must be what the
        // trace recorded before this action, or the action is not sent.
        let partial = comparison.compare(recorder.events, before: action.index)
        if partial.divergence != nil {
          stopped = partial
          return false
        }
        willSend?(action.sequence, action.label)
        reactor.send(
          try ReplayChecks.decode(
            R.Action.self, from: action.value, of: .action, evolution: evolution,
            line: action.line, sequence: action.sequence, label: action.label
          ) { try CodableValues.decodeOrThrow(R.Action.self, from: $0) })
        return true
      })
    recorder.stop()
    return finish(
      timeline.reportingWrongJump(stopped ?? comparison.compare(recorder.events)), reader: reader,
      evolution: evolution,
      dropped: timeline.dropped)
  }

  /// `result` with what the reading found: warnings, schema changes and dropped events.
  private static func finish(
    _ result: ReplayResult, reader: TraceReader, evolution: SchemaEvolution, dropped: Int
  ) -> ReplayResult {
    var result = result
    result.warnings = reader.warnings
    result.schemaChanges = evolution.changes
    result.droppedEventCount = dropped
    return result
  }
}
