import ReactorCore
import ReactorReplay
import ReactorTracing

/// The session measurements, run in a child process (issue 28).
///
/// They record many counter-concat reactors into one session in memory, write such a
/// session, and replay a session file structurally: the `session-record` and `session-read`
/// rows of the table (`session-write` makes the files those read); and record reactors of a
/// runtime scenario into a session file as they run, as an app does (`session-file`, whose
/// main thread callgrind counts against the single-reactor file recorder's).
@MainActor
enum SessionWorkload {
  /// The reactors a `session-file` run records.
  enum FileScenario: String, CaseIterable, Sendable {
    /// Counter-concat reactors: four events an action, a two-field state.
    case counterConcat = "counter-concat"
    /// Counter-sync reactors: two events an action, a one-field state.
    case counterSync = "counter-sync"
    /// The state-large reactor: two events an action, a state of 1,000 Ints.
    case stateLarge = "state-large"

    /// The events each action makes.
    var eventsPerAction: Int {
      switch self {
      case .counterConcat: 4
      case .counterSync, .stateLarge: 2
      }
    }
  }

  /// Records `reactors` reactors of `scenario` into one session written to `path` (the
  /// default options: the writer waits, never drops), sends `actions` actions round robin,
  /// closes the recorder, and checks that the file holds every event.
  ///
  /// `observed` subscribes each counter the state observers of its `runtime` run. `untraced`
  /// runs the same reactors, observers and loop with no recorder and writes nothing: the
  /// subtrahend of the callgrind comparison, the same work untraced.
  /// - Returns: The seconds from the first action to the file closed (to the last action,
  ///   untraced), and the events.
  /// - Throws: ``BenchFailure`` when the file misses an event or does not read back.
  static func recordToFile(
    _ scenario: FileScenario, reactors: Int, actions: Int, path: String, observed: Bool = false,
    untraced: Bool = false
  ) async throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "session-file/\(scenario.rawValue)")
    guard reactors >= 1, actions >= 0 else {
      throw .usage("child session-file SCENARIO REACTORS ACTIONS PATH")
    }
    let recorder: SessionRecorder?
    do {
      recorder = untraced ? nil : try SessionRecorder(.file(path))
    } catch {
      throw .file(path: path, reason: "\(error)")
    }
    // As in an app that has run an effect: the task-local of effect activities has been
    // bound, so every action sent from the loop looks its binding up (before any binding
    // the lookup is skipped).
    ReactorActivity.making(as: nil) {}
    let clock = ContinuousClock()
    let start = clock.now
    switch scenario {
    case .counterConcat:
      let counters = (0..<reactors).map { _ in CounterConcatReactor() }
      // As the runtime run observes it: the value and the loading flag.
      let tally = StateTally()
      let loading = StateTally()
      let subscriptions =
        observed
        ? counters.flatMap { counter in
          [
            counter.state.map(\.value).removeDuplicates().observe { value in
              tally.count += 1
              tally.checksum &+= value
            },
            counter.state.map(\.isLoading).removeDuplicates().observe { isLoading in
              loading.count += 1
              if isLoading { loading.flagged += 1 }
            },
          ]
        } : []
      for counter in counters { recorder?.record(counter) }
      sendRoundRobin(to: counters, actions: actions) { _ in .increase }
      try verification.expect(
        "the final values", counters.map(\.currentState.value).reduce(0, +), equals: actions)
      withExtendedLifetime(subscriptions) {}
    case .counterSync:
      let counters = (0..<reactors).map { _ in CounterSyncReactor() }
      // As the runtime run observes it: the value.
      let tally = StateTally()
      let subscriptions =
        observed
        ? counters.map { counter in
          counter.state.map(\.value).removeDuplicates().observe { value in
            tally.count += 1
            tally.checksum &+= value
          }
        } : []
      for counter in counters { recorder?.record(counter) }
      sendRoundRobin(to: counters, actions: actions) { _ in .increase }
      try verification.expect(
        "the final values", counters.map(\.currentState.value).reduce(0, +), equals: actions)
      withExtendedLifetime(subscriptions) {}
    case .stateLarge:
      let large = (0..<reactors).map { _ in LargeStateReactor() }
      for reactor in large { recorder?.record(reactor) }
      sendRoundRobin(to: large, actions: actions) { .increment($0 % LargeStateReactor.width) }
      try verification.expect(
        "the final counters", large.map(\.currentState.counter).reduce(0, +), equals: actions)
    }
    guard let recorder else {
      let seconds = start.duration(to: clock.now).seconds
      return ChildReport(seconds: seconds, units: scenario.eventsPerAction * actions, events: 0)
    }
    do {
      try await recorder.close()
    } catch {
      throw .file(path: path, reason: "\(error)")
    }
    let seconds = start.duration(to: clock.now).seconds
    let session: SessionTrace
    do {
      session = try SessionTrace(contentsOf: path)
    } catch {
      throw .verification(scenario: verification.scenario, reason: "\(error)")
    }
    // Introductions, the actions' events, the releases (the reactors are gone once their
    // case ends), the end line.
    let events = 2 * reactors + scenario.eventsPerAction * actions + 1
    try verification.expect("events in the file", session.events.count, equals: events)
    try verification.expect("warnings", session.warnings.count, equals: 0)
    return ChildReport(seconds: seconds, units: scenario.eventsPerAction * actions, events: events)
  }

  /// Sends `actions` actions round robin to `reactors`, the action made from its index.
  ///
  /// One reactor is held in a local, as the `runtime` run holds its reactor, so the loop
  /// retains nothing: a reactor with weak references (its observers') retains on the slow
  /// path, and taking each action's reactor out of the array cost about 190 instructions an
  /// action, which the session runs' callgrind figures charged to the loop.
  private static func sendRoundRobin<R: Reactor>(
    to reactors: [R], actions: Int, _ action: (Int) -> R.Action
  ) {
    if reactors.count == 1 {
      let reactor = reactors[0]
      for index in 0..<actions { reactor.send(action(index)) }
    } else {
      for index in 0..<actions { reactors[index % reactors.count].send(action(index)) }
    }
  }

  /// Records `reactors` counter-concat reactors into one session in memory and sends
  /// `actions` actions, round robin (four events per action).
  /// - Returns: The seconds and the events recorded.
  /// - Throws: ``BenchFailure`` when the session misses an event.
  static func record(reactors: Int, actions: Int) throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "session-record")
    let (recorder, counters, seconds) = try run(reactors: reactors, actions: actions)
    let events = recorder.session.events.count
    // Introductions, four events per action, the end line.
    try verification.expect("events recorded", events, equals: reactors + 4 * actions + 1)
    try verification.expect(
      "the final values", counters.map(\.currentState.value).reduce(0, +), equals: actions)
    return ChildReport(seconds: seconds, units: 4 * actions, events: events)
  }

  /// Records as ``record(reactors:actions:)`` does and writes the session to `path`.
  static func write(reactors: Int, actions: Int, to path: String) throws(BenchFailure)
    -> ChildReport
  {
    let (recorder, _, seconds) = try run(reactors: reactors, actions: actions)
    let session = recorder.session
    do {
      try session.write(to: path)
    } catch {
      throw .file(path: path, reason: "\(error)")
    }
    return ChildReport(seconds: seconds, units: 4 * actions, events: session.events.count)
  }

  /// Replays the session at `path` structurally, every state and cause checked.
  static func read(path: String, events: Int) throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "session-read")
    let clock = ContinuousClock()
    let start = clock.now
    let replay: StructuralReplay
    do {
      replay = try StructuralReplay(path: path)
      try replay.checkRemaining()
    } catch {
      throw .verification(scenario: verification.scenario, reason: "\(error)")
    }
    let seconds = start.duration(to: clock.now).seconds
    try verification.expect("divergences", replay.divergences.count, equals: 0)
    try verification.expect("events read", replay.stepCount, equals: events)
    try verification.expect("causality", replay.causality.isComplete, equals: true)
    return ChildReport(seconds: seconds, units: events, events: events)
  }

  private static func run(
    reactors: Int, actions: Int
  ) throws(BenchFailure) -> (SessionRecorder, [CounterConcatReactor], Double) {
    guard reactors >= 1, actions >= 0 else { throw .usage("child session-record REACTORS ACTIONS") }
    let recorder: SessionRecorder
    do {
      recorder = try SessionRecorder()
    } catch {
      throw .verification(scenario: "session-record", reason: "\(error)")
    }
    let counters = (0..<reactors).map { _ in CounterConcatReactor() }
    for counter in counters { recorder.record(counter) }
    let clock = ContinuousClock()
    let start = clock.now
    sendRoundRobin(to: counters, actions: actions) { _ in .increase }
    let seconds = start.duration(to: clock.now).seconds
    recorder.stop()
    return (recorder, counters, seconds)
  }
}
