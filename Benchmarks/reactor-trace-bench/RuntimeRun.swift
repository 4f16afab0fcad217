import ReactorCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one runtime scenario in one tracing mode, in the current (child) process: builds the
/// reactor and its observers, times the actions (and, when traced, `stop()`), then verifies
/// the final state, every observer's states and every recorded event.
@MainActor
enum RuntimeRun {
  /// Runs `scenario` with `count` actions.
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - mode: Untraced, recorded in memory, or recorded to a file.
  ///   - count: The number of actions to send.
  ///   - directory: Where a trace file goes; it is removed once verified.
  /// - Returns: The timed seconds, the actions sent and, for a file, its size.
  /// - Throws: ``BenchFailure`` when recording fails or a verification does not hold.
  static func run(
    _ scenario: RuntimeScenario, mode: TracingMode, count: Int, directory: String
  ) async throws(BenchFailure) -> ChildReport {
    let path = "\(directory)/\(scenario.rawValue)-\(getpid()).trace.jsonl"
    let verification = Verification(scenario: "\(scenario.rawValue)/\(mode.rawValue)")
    defer { unlink(path) }
    switch scenario {
    case .counterSync:
      return try await counter(
        observers: 1, count: count, mode: mode, path: path, verification: verification)
    case .fanout:
      return try await counter(
        observers: 10, count: count, mode: mode, path: path, verification: verification)
    case .counterConcat:
      return try await concat(count: count, mode: mode, path: path, verification: verification)
    case .stateLarge:
      return try await largeState(
        count: count, mode: mode, path: path, verification: verification)
    case .stub:
      return try await stub(count: count, mode: mode, path: path, verification: verification)
    }
  }

  private static func counter(
    observers: Int, count: Int, mode: TracingMode, path: String, verification: Verification
  ) async throws(BenchFailure) -> ChildReport {
    let reactor = CounterSyncReactor()
    let tallies = (0..<observers).map { _ in StateTally() }
    // As ReactorKit's were measured: each observer through `map` and `distinctUntilChanged`.
    let subscriptions = tallies.map { tally in
      reactor.state.map(\.value).removeDuplicates().observe { value in
        tally.count += 1
        tally.checksum &+= value
      }
    }
    let recording = try Recording(reactor, mode: mode, path: path)

    let seconds = try await recording.timed {
      for _ in 0..<count { reactor.send(.increase) }
    }

    try verification.expect("the final value", reactor.currentState.value, equals: count)
    for (number, tally) in zip(1..., tallies) {
      try verification.expect("states seen by observer \(number)", tally.count, equals: count + 1)
      try verification.expect(
        "the checksum of observer \(number)", tally.checksum, equals: count * (count + 1) / 2)
    }
    let events = 2 * count
    let bytes = try recording.verify(events: events, by: verification)
    withExtendedLifetime(subscriptions) {}
    return ChildReport(
      seconds: seconds, units: count, bytes: bytes, events: bytes == nil ? nil : events,
      dropped: recording.dropped)
  }

  private static func concat(
    count: Int, mode: TracingMode, path: String, verification: Verification
  ) async throws(BenchFailure) -> ChildReport {
    let reactor = CounterConcatReactor()
    let tally = StateTally()
    let loading = StateTally()
    // As ReactorKit's was measured: the value and the loading flag, each through `map` and
    // `distinctUntilChanged`.
    let subscription = reactor.state.map(\.value).removeDuplicates().observe { value in
      tally.count += 1
      tally.checksum &+= value
    }
    let loadingSubscription = reactor.state.map(\.isLoading).removeDuplicates().observe {
      isLoading in
      loading.count += 1
      if isLoading { loading.flagged += 1 }
    }
    let recording = try Recording(reactor, mode: mode, path: path)

    let seconds = try await recording.timed {
      for _ in 0..<count { reactor.send(.increase) }
    }

    try verification.expect(
      "the final state", reactor.currentState,
      equals: CounterConcatReactor.State(value: count, isLoading: false))
    // Every value from 0 to `count`, once each.
    try verification.expect("values seen by the observer", tally.count, equals: count + 1)
    try verification.expect(
      "the observer's checksum", tally.checksum, equals: count * (count + 1) / 2)
    // Loading off at first, then on and off again for every action.
    try verification.expect("loading flags seen", loading.count, equals: 2 * count + 1)
    try verification.expect("loading flags that were on", loading.flagged, equals: count)
    let events = 4 * count
    let bytes = try recording.verify(events: events, by: verification)
    withExtendedLifetime((subscription, loadingSubscription)) {}
    return ChildReport(
      seconds: seconds, units: count, bytes: bytes, events: bytes == nil ? nil : events,
      dropped: recording.dropped)
  }

  private static func largeState(
    count: Int, mode: TracingMode, path: String, verification: Verification
  ) async throws(BenchFailure) -> ChildReport {
    let width = LargeStateReactor.width
    let reactor = LargeStateReactor()
    let tally = StateTally()
    // As ReactorKit's was measured: the counter through `map` and `distinctUntilChanged`.
    let subscription = reactor.state.map(\.counter).removeDuplicates().observe { counter in
      tally.count += 1
      tally.checksum &+= counter
    }
    let recording = try Recording(reactor, mode: mode, path: path)

    let seconds = try await recording.timed {
      for index in 0..<count { reactor.send(.increment(index % width)) }
    }

    let expected = (0..<width).map { count / width + ($0 < count % width ? 1 : 0) }
    try verification.require(
      reactor.currentState.values == expected,
      "the final state's values are not \(count / width) or \(count / width + 1) as expected")
    try verification.expect("the final counter", reactor.currentState.counter, equals: count)
    try verification.expect("counters seen by the observer", tally.count, equals: count + 1)
    try verification.expect(
      "the observer's checksum", tally.checksum, equals: count * (count + 1) / 2)
    let events = 2 * count
    let bytes = try recording.verify(events: events, by: verification)
    withExtendedLifetime(subscription) {}
    guard bytes != nil else { return ChildReport(seconds: seconds, units: count) }
    return ChildReport(
      seconds: seconds, units: count, bytes: bytes, events: events,
      fullStateBytes: try FullStateSize.meanBytes(
        count: count, finalState: reactor.currentState, by: verification),
      dropped: recording.dropped)
  }

  private static func stub(
    count: Int, mode: TracingMode, path: String, verification: Verification
  ) async throws(BenchFailure) -> ChildReport {
    let reactor = CounterSyncReactor()
    reactor.isStubEnabled = true
    let stub = reactor.stub
    // As ReactorKit's was measured: no state observer.
    let recording = try Recording(reactor, mode: mode, path: path)

    let seconds = try await recording.timed {
      for _ in 0..<count { reactor.send(.increase) }
    }

    try verification.expect("actions recorded by the stub", stub.actions.count, equals: count)
    for action in stub.actions where action != .increase {
      throw .verification(scenario: verification.scenario, reason: "the stub recorded \(action)")
    }
    try verification.expect("the final value", reactor.currentState.value, equals: 0)
    // The pipeline never runs, so a recorder sees no event.
    let bytes = try recording.verify(events: 0, by: verification)
    return ChildReport(seconds: seconds, units: count, bytes: bytes, events: bytes.map { _ in 0 })
  }
}
