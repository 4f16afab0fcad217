import ReactorCore
import ReactorReplay
import ReactorTracing

/// The session measurements, run in a child process (issue 28).
///
/// They record many counter-concat reactors into one session in memory, write such a
/// session, and replay a session file structurally: the `session-record` and `session-read`
/// rows of the table (`session-write` makes the files those read).
@MainActor
enum SessionWorkload {
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
    let replay: StructuralSessionReplay
    do {
      replay = try StructuralSessionReplay.run(path: path)
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
    for index in 0..<actions { counters[index % reactors].send(.increase) }
    let seconds = start.duration(to: clock.now).seconds
    recorder.stop()
    return (recorder, counters, seconds)
  }
}
