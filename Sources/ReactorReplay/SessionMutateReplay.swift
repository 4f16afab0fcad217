import ReactorCore
public import ReactorTracing

/// Replays a whole session through today's code: a factory builds the app's reactors and
/// services wired as the app wires them, the actions the user sent (those with no origin in
/// another reactor, and not sent by the app while the factory built it) are sent again at their
/// recorded times, and the session the run records
/// is compared with the recorded one, event by event: every reactor's actions, mutations and
/// states, the actions reactors sent each other, the stream mutations, with their causes.
///
/// ```swift
/// let clock = TestClock()
/// let result = try await SessionMutateReplay.run(
///   session, clock: clock, advance: { await clock.advance(by: $0) }
/// ) { recorder in
///   let app = TaskApp(clock: clock)
///   recorder.record(app.list, name: "list")
///   recorder.record(app.edit, name: "edit")
///   app.bindViews()
///   return app
/// }
/// #expect(result.divergence == nil)
/// ```
///
/// It is the integration test of a whole screen flow: a change in any reactor's `mutate`,
/// `reduce` or hooks, or in a service between them, shows as the first event that differs,
/// with the reactor it happened in and, through its cause's `from`, the reactor that caused
/// it.
///
/// With `effects: .recorded`, no effect body runs, so the services need not answer (doubles
/// that fail if called will do): each reactor's effects are played back from its lane as
/// ``MutateReplay`` plays them (the recorded mutations at their times, the recorded end),
/// and the service events an effect published reach each reactor that merged them from the
/// recording, with the recorded publisher as their origin. What the reactors' synchronous
/// code does (`mutate`, `reduce`, the hooks, the views' bindings, actions sent between
/// reactors, elements published outside any effect) runs as today's code has it and is
/// compared event by event, effect starts and ends included.
@MainActor
public enum SessionMutateReplay {
  /// What a session mutate replay found.
  public struct Result: Sendable {
    /// The session the replay recorded.
    public var replayed: SessionTrace
    /// The first difference from the recorded session, or `nil` when they match.
    public var divergence: SessionDivergence?
    /// How many user actions were sent again.
    public var userActions: Int
    /// How many events matched before the divergence (all of them on a match).
    public var matchedEvents: Int
    /// The effects played back from the recording rather than run (with
    /// ``ReplayEffects/recorded``), each with its reactor.
    public var playedEffects: [PlayedEffect] = []
    /// What the replay's recorder noticed in the app (``SessionRecorder/warnings``): a state
    /// that holds a child reactor inline, each parent type once.
    public var warnings: [SessionRecordingWarning] = []

    /// Whether the replay recorded the same session.
    public var isMatch: Bool { divergence == nil }
  }

  /// Replays `recorded` through the app `factory` builds.
  /// - Parameters:
  ///   - recorded: The recorded session.
  ///   - clock: The test clock the app's effects and services wait on.
  ///   - advance: Advances that clock by a duration and lets the work it wakes run.
  ///   - settle: The most virtual time to wait, after the last recorded event, for effects
  ///     still running to end; those that do not are listed in the replayed end line. None
  ///     when the recording's end line lists effects still running: it stopped there.
  ///   - including: Which reactors the replay records (all by default), as for
  ///     ``ReactorTracing/SessionRecorder/recordingEveryReactor(_:options:including:)``.
  ///   - effects: Whether effects run (against the app's services) or are played back from
  ///     the recording.
  ///   - factory: Builds the app with the recorder installed: records the reactors it names
  ///     by hand, in the order of the recording, binds its views, and returns what must stay
  ///     alive for the run (the app).
  /// - Returns: The replayed session and the first divergence, if any.
  /// - Throws: ``ReplayError`` when a user action has no value, or it does not decode, or
  ///   (with recorded effects) a reactor's lane does not replay through its type;
  ///   ``ReplayError/windowed(firstSequence:droppedEvents:)`` for a flight-recorder window,
  ///   which does not hold the start the app replays from.
  public static func run(
    _ recorded: SessionTrace, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, settle: Duration = .seconds(10),
    including: @escaping @MainActor (AnyObject) -> Bool = { _ in true },
    effects: ReplayEffects = .run,
    factory: (SessionRecorder) -> AnyObject
  ) async throws(ReplayError) -> Result {
    // The app starts from the beginning, which a window does not hold.
    if let window = recorded.header.window {
      throw .windowed(firstSequence: window.firstSequence, droppedEvents: window.droppedEvents)
    }
    // Default options besides the clock and metadata: nothing in them can be invalid.
    guard
      let recorder = try? SessionRecorder.recordingEveryReactor(
        options: TraceOptions(metadata: recorded.header.metadata, clock: clock),
        including: including)
    else { preconditionFailure("default session options were refused") }
    let playback =
      effects == .recorded ? RecordedSessionPlayback(recorded, recorder: recorder) : nil
    playback?.install()
    defer { playback?.uninstall() }
    let app = factory(recorder)
    let events = recorded.events
    // The actions the app sent while the factory built it (a screen's `viewDidLoad → refresh`)
    // belong to the factory, which just sent them again: the recorded ones it matches, one by
    // one from the first user action, are not re-sent.
    var factoryActions = Self.userActions(in: recorder.session.events)[...]
    var sentByFactory: Set<Int> = []
    for index in events.indices {
      guard let first = factoryActions.first else { break }
      guard let action = Self.userAction(events[index]) else { continue }
      guard action == first else { break }
      sentByFactory.insert(index)
      factoryActions = factoryActions.dropFirst()
    }
    var userActions = 0
    var play: ((Int) throws(ReplayError) -> Bool)?
    if let playback {
      play = { index throws(ReplayError) in
        if let error = playback.error { throw error }
        return playback.play(events[index])
      }
    }
    func userAction(_ index: Int) -> Int? {
      guard Self.userAction(events[index]) != nil, !sentByFactory.contains(index) else {
        return nil
      }
      return index
    }
    let (finished, elapsed) = try await MutateReplayDriver.drive(
      events.count, time: { events[$0].time }, position: userAction,
      isJump: { index in
        if case .reactor(_, .jump) = events[index].kind { true } else { false }
      }, advance: advance,
      play: play,
      jump: { index throws(ReplayError) in
        // The state set from outside the app, as the run did (issue 43).
        guard case .reactor(let reactor, .jump(let jump)) = events[index].kind,
          case .json(let state) = jump.state
        else { throw .missingValue(line: index + 2, what: "state") }
        do throws(SessionSendError) {
          try recorder.jump(
            reactor: reactor, to: state, event: jump.target, from: jump.external ?? "client")
        } catch {
          if case .undecodableState(_, let reason) = error {
            throw .undecodable(line: index + 2, reason: "jump's state: \(reason)")
          }
          // The reactor is not alive in the replay: the comparison names where it went.
        }
      },
      send: { index throws(ReplayError) in
        if let error = playback?.error { throw error }
        guard case .reactor(let reactor, .action(let action)) = events[index].kind,
          let value = action.value
        else { throw .missingValue(line: index + 2, what: "action") }
        do throws(SessionSendError) {
          try recorder.send(value, to: reactor)
        } catch {
          if case .undecodable(_, let reason) = error {
            throw .undecodable(line: index + 2, reason: "action \(action.label): \(reason)")
          }
          // The reactor is not alive in the replay: the run already went another way.
          return false
        }
        userActions += 1
        return true
      })
    let lastTime = finished ? events.last?.time ?? .zero : elapsed
    if lastTime > elapsed { await advance(lastTime - elapsed) }
    // A recording that stopped with effects still running (recorded with `--settle 0`, or
    // closed mid-run) is replayed to the same end: its effects are left running too.
    var settle = settle
    if case .end(let end)? = events.last?.kind, !end.runningEffects.isEmpty { settle = .zero }
    if let playback {
      if let error = playback.error { throw error }
      // Effects played back end when the recording ends them; those it leaves running wait.
      await advance(.zero)
      recorder.stop()
      playback.finish()
    } else {
      await settleEffects(of: recorder, advance: advance, within: settle)
      recorder.stop()
    }
    extendLifetime(app)
    let replayed = recorder.session
    var (matched, divergence) = compare(recorded.events, replayed.events)
    // The replay performs each jump as recorded, so the run cannot show a wrong one.
    if let wrong = wrongJump(in: events), matched >= wrong.index {
      (matched, divergence) = (wrong.index, wrong.divergence)
    }
    return Result(
      replayed: replayed, divergence: divergence, userActions: userActions,
      matchedEvents: matched, playedEffects: playback?.playedEffects ?? [],
      warnings: recorder.warnings)
  }

  /// The first jump whose state is not the one its reactor recorded after the jump's
  /// target, with its index among `events`, as a divergence.
  private static func wrongJump(
    in events: [SessionEvent]
  ) -> (index: Int, divergence: SessionDivergence)? {
    var hashes: [Int: RecordedStateHashes] = [:]
    for (index, event) in events.enumerated() {
      switch event.kind {
      case .introduced(let introduction):
        hashes[introduction.reactor, default: RecordedStateHashes()].record(
          introduction.initialStateHash, at: event.sequence)
      case .released(let reactor):
        hashes[reactor] = nil
      case .gap:
        for reactor in Array(hashes.keys) { hashes[reactor]?.record(nil, at: event.sequence) }
      case .reactor(let reactor, .mutation(let mutation)):
        hashes[reactor]?.record(mutation.stateHash, at: event.sequence)
      case .reactor(let reactor, .jump(let jump)):
        let actual = jump.state.hash
        if let problem = hashes[reactor]?.problem(
          with: jump, at: event.sequence, actual: actual, reactor: "reactor \(reactor)")
        {
          return (
            index,
            SessionDivergence(
              sequence: event.sequence, reactor: reactor, recorded: describe(event),
              replayed: "[r\(reactor)] no such jump: " + problem)
          )
        }
        hashes[reactor]?.record(actual, at: event.sequence)
      default:
        break
      }
    }
    return nil
  }

  /// A user's action (sent, from no other reactor): its reactor and value.
  private static func userAction(_ event: SessionEvent) -> UserAction? {
    guard case .reactor(let reactor, .action(let action)) = event.kind, action.from == nil,
      action.source == .sent
    else { return nil }
    return UserAction(reactor: reactor, value: action.value)
  }

  /// The user's actions among `events`, in order.
  private static func userActions(in events: [SessionEvent]) -> [UserAction] {
    events.compactMap(userAction)
  }

  /// A user's action, as the factory's actions are matched against the recorded ones.
  private struct UserAction: Equatable {
    var reactor: Int
    var value: JSONValue?
  }

  /// Lets the work the last advance woke run and, while an effect still runs, advances the
  /// clock a millisecond at a time, at most `settle` in all: an effect that waits longer than
  /// the recording's does is listed in the end line instead of keeping the replay waiting.
  private static func settleEffects(
    of recorder: SessionRecorder, advance: (Duration) async -> Void, within settle: Duration
  ) async {
    var settled = Duration.zero
    while true {
      // Effects woken by the clock resume on the main actor, behind these yields.
      for _ in 0..<64 where !recorder.isIdle { await Task.yield() }
      if recorder.isIdle || settled >= settle { return }
      await advance(.milliseconds(1))
      settled += .milliseconds(1)
    }
  }

  /// The number of events that match, each compared as its whole line (reactor, kind, label,
  /// value, cause and `from`, state and hash), and the first difference.
  private static func compare(
    _ recorded: [SessionEvent], _ replayed: [SessionEvent]
  ) -> (matched: Int, divergence: SessionDivergence?) {
    for index in 0..<max(recorded.count, replayed.count) {
      let old = index < recorded.count ? recorded[index] : nil
      let new = index < replayed.count ? replayed[index] : nil
      if let old, let new, old.serializedLine == new.serializedLine { continue }
      return (
        index,
        SessionDivergence(
          sequence: old?.sequence ?? new?.sequence ?? 0, reactor: old?.reactor ?? new?.reactor,
          recorded: old.map(describe), replayed: new.map(describe))
      )
    }
    return (recorded.count, nil)
  }

  /// An event in a few words: `[r4] mutation setTask(…) ← stream taskService from reactor 2,
  /// action 5, effect 2`, with the state hash of a mutation.
  nonisolated static func describe(_ event: SessionEvent) -> String {
    let reactor = event.reactor.map { "[r\($0)] " } ?? ""
    switch event.kind {
    case .introduced(let introduction):
      return reactor + "reactor \(introduction.type)"
        + (introduction.parent.map { " (parent \($0))" } ?? "")
    case .released:
      return reactor + "release"
    case .gap(let gap):
      return "gap of \(gap.droppedEvents) events"
    case .end(let end):
      return "end (\(end.observedEvents) observed)"
    case .reactor(_, let kind):
      switch kind {
      case .action(let action):
        return reactor + "action \(action.label)" + (action.from.map { " ← from \($0)" } ?? "")
      case .effectStarted(let start):
        return reactor
          + "effectStart \(start.name ?? "effect \(start.effect)") of action \(start.action)"
      case .effectEnded(let end):
        return reactor + "effectEnd \(end.effect)"
      case .mutation(let mutation):
        let cause =
          switch mutation.cause {
          case .action(let action): "action \(action)"
          case .effect(let effect, let action): "effect \(effect) of action \(action)"
          case .stream(let name): "stream \(name)"
          }
        return reactor + "mutation \(mutation.label) ← \(cause)"
          + (mutation.from.map { " from \($0)" } ?? "") + ", state \(mutation.stateHash)"
      case .streamEnded(let end):
        return reactor + "streamEnd \(end.stream)"
      case .jump(let jump):
        return reactor + "jump to event \(jump.target) ← external"
          + (jump.external.map { " \($0)" } ?? "") + ", state \(jump.stateHash)"
      case .gap, .end:
        return reactor + "?"
      }
    }
  }
}
