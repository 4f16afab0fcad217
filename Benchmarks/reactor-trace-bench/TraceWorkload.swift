import ReactorCore
import ReactorReplay
import ReactorTracing

/// The trace measurements run in a child process: writing the counter-concat trace, reading
/// it back, and replaying it through `reduce`.
@MainActor
enum TraceWorkload {
  /// Records counter-concat with `actions` actions to `path` (four events per action) and
  /// times it until every event is on disk.
  /// - Returns: The seconds, the events written and the file's size.
  /// - Throws: ``BenchFailure`` when recording fails or the file misses an event.
  static func write(actions: Int, to path: String) async throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "trace-write")
    let reactor = CounterConcatReactor()
    let recording = try Recording(reactor, mode: .file, path: path)

    let seconds = try await recording.timed {
      for _ in 0..<actions { reactor.send(.increase) }
    }

    try verification.expect("the final value", reactor.currentState.value, equals: actions)
    let events = 4 * actions
    let bytes = try recording.verify(events: events, by: verification)
    return ChildReport(seconds: seconds, units: events, bytes: bytes, events: events)
  }

  /// Reads the trace at `path` with `TraceReader`, rebuilding and checking every state.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - events: The events the trace holds besides its end line.
  /// - Returns: The seconds and the events read, not counting the end line.
  /// - Throws: ``BenchFailure`` when the trace does not read back whole.
  static func read(path: String, events: Int) throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "trace-read")
    let bytes = try TraceFileCheck.size(of: path)

    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    var mutations = 0
    var ends = 0
    do {
      let reader = try TraceReader(path: path)
      while let event = try reader.next() {
        switch event.kind {
        case .end: ends += 1
        case .mutation: mutations += 1
        default: break
        }
        count += 1
      }
      try verification.expect("warnings", reader.warnings, equals: [])
    } catch {
      throw .verification(scenario: verification.scenario, reason: "\(error)")
    }
    let seconds = start.duration(to: clock.now).seconds

    try verification.expect("events read", count, equals: events + 1)
    try verification.expect("end lines read", ends, equals: 1)
    try verification.expect("mutations read", mutations, equals: events / 4 * 3)
    return ChildReport(seconds: seconds, units: events, bytes: bytes, events: events)
  }

  /// Replays the counter-concat trace at `path` through a fresh reactor's `reduce`.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - steps: The mutations the trace holds.
  /// - Returns: The seconds and the steps replayed.
  /// - Throws: ``BenchFailure`` when the replay fails or diverges.
  static func replay(path: String, steps: Int) throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "reduce-replay")

    let clock = ContinuousClock()
    let start = clock.now
    let result: ReplayResult
    do {
      result = try ReduceReplay.run(path: path, through: CounterConcatReactor())
    } catch {
      throw .verification(scenario: verification.scenario, reason: "\(error)")
    }
    let seconds = start.duration(to: clock.now).seconds

    try verification.require(
      result.divergence == nil, "the replay diverged: \(String(describing: result.divergence))")
    try verification.expect("steps replayed", result.stepsChecked, equals: steps)
    return ChildReport(seconds: seconds, units: steps)
  }
}
