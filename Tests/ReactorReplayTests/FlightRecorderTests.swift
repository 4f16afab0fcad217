import Clocks
import Foundation
import ReactorCore
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

@MainActor
@Suite struct FlightRecorderTests {
  private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("flight-\(UUID().uuidString)-\(name)").path
  }

  @Test func theWindowWrittenOnDemandReplaysStructurallyAndRecordingGoesOn() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock)
      let recorder = try FlightRecorder(
        recording: reactor, keeping: FlightWindow(events: 6, duration: nil),
        options: TraceOptions(clock: clock))
      // Four events per decrease: the action and three mutations.
      for _ in 0..<4 { reactor.send(.decrease) }
      let path = temporaryPath("window.trace.jsonl")
      defer { try? FileManager.default.removeItem(atPath: path) }
      try recorder.write(to: path)

      let trace = try Trace(contentsOf: path)
      #expect(trace.warnings.isEmpty)
      #expect(trace.header.window == TraceHeader.Window(firstSequence: 11, droppedEvents: 10))
      #expect(trace.events.map(\.sequence) == Array(11...17))
      guard case .end(let end)? = trace.events.last?.kind else {
        Issue.record("the window does not end with an end line")
        return
      }
      #expect(end == TraceEvent.End(observedEvents: 16, droppedEvents: 10))
      // It starts from a snapshot of the state before its first event: value -2.
      guard case .json(let initial) = trace.header.initialState else {
        Issue.record("the window's initial state is not JSON")
        return
      }
      #expect(initial["value"] == .int(-2))
      let replay = try StructuralReplay(path: path)
      var steps = 0
      while try replay.next() != nil { steps += 1 }
      #expect(replay.divergences.isEmpty)
      #expect(steps == 7)
      #expect(
        try ReduceReplay.run(path: path, through: ReplayCounterReactor(clock: clock)).divergence
          == nil)

      // Recording went on: a later window holds the later events.
      reactor.send(.increase)
      // The action, its effect starting and setLoading(true).
      #expect(recorder.observedEventCount == 19)
      let later = recorder.trace
      #expect(later.events.dropLast().last?.sequence == 19)
      recorder.stop()
    }
  }

  @Test func theWindowKeepsOnlyTheLastSecondsAndAtMostItsBytes() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock)
      let recorder = try FlightRecorder(
        recording: reactor, keeping: FlightWindow(duration: .seconds(5)),
        options: TraceOptions(clock: clock))
      reactor.send(.decrease)
      await clock.advance(by: .seconds(10))
      reactor.send(.decrease)
      let kept = recorder.trace.events
      #expect(kept.first?.sequence == 5)
      #expect(recorder.droppedEventCount == 4)

      let small = ReplayCounterReactor(clock: clock)
      let bounded = try FlightRecorder(
        recording: small, keeping: FlightWindow(bytes: 2_000), options: TraceOptions(clock: clock))
      for _ in 0..<50 { small.send(.decrease) }
      #expect(bounded.keptBytes <= 2_000)
      #expect(bounded.droppedEventCount > 0)
      #expect(try StructuralReplay(bounded.trace).checkedDivergences().isEmpty)
      recorder.stop()
      bounded.stop()
    }
  }

  @Test func theWindowIsRedactedAsTheOptionsSay() throws {
    let reactor = ReplayAccountReactor()
    let recorder = try FlightRecorder(
      recording: reactor, keeping: FlightWindow(events: 3),
      options: TraceOptions(redactions: [TraceRedaction("*.**.token")], clock: TestClock()))
    for user in ["ann", "bob", "cy"] { reactor.send(.login(user: user)) }
    let text = String(decoding: recorder.trace.serialized, as: UTF8.self)
    #expect(!text.contains("secret"))
    #expect(text.contains("<redacted>"))
    #expect(try StructuralReplay(recorder.trace).checkedDivergences().isEmpty)
  }

  @Test func aWindowThatKeepsNothingIsRefused() {
    #expect(throws: TraceRecordingError.self) {
      try FlightRecorder(recording: ReplayAccountReactor(), keeping: FlightWindow(events: 0))
    }
  }
}

extension StructuralReplay {
  /// Reads every step and returns the divergences.
  fileprivate func checkedDivergences() throws -> [StructuralDivergence] {
    while try next() != nil {}
    return divergences
  }
}
