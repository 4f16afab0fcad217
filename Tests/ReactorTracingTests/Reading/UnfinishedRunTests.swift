import Clocks
import ReactorCore
import ReactorTestSupport
import ReactorTracing
import Testing

/// A reactor whose effect waits on the clock and whose mutation has an optional payload.
final class WaitingReactor: Reactor {
  enum Action: Codable, Sendable { case load }
  enum Mutation: Codable, Sendable { case setError(String?) }
  struct State: Codable, Sendable { var error: String? }

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>

  init(clock: TestClock<Duration>) { self.clock = clock }

  func mutate(action: Action) -> Effect<Mutation> {
    .run(name: "load") { [clock] send in
      send(.setError(nil))
      try await clock.sleep(for: .milliseconds(300))
      send(.setError("Wrong password"))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    if case .setError(let error) = mutation { state.error = error }
    return state
  }
}

@MainActor
@Suite struct UnfinishedRunTests {
  @Test func theEndLineListsTheEffectsStillRunningAndReadersWarn() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = WaitingReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.load)
      await clock.advance(by: .milliseconds(100))
      recorder.stop()
      let lines = String(decoding: recorder.trace.serialized, as: UTF8.self)
        .split(separator: "\n")
      #expect(
        lines.last
          == #"{"seq":4,"t":100000000,"kind":"end","observed":3,"dropped":0,"running":[{"action":1,"effect":1,"name":"load"}]}"#
      )
      let reader = try TraceReader(bytes: recorder.trace.serialized)
      while try reader.next() != nil {}
      #expect(
        reader.warnings == [
          .unfinishedEffects(
            line: 5, time: .milliseconds(100),
            effects: [TraceEvent.EffectStart(effect: 1, action: 1, name: "load")])
        ])
      #expect(reader.eventCount == 4)
    }
  }

  @Test func aTraceCutOffNamesTheEffectsThatHadStartedAndNotEnded() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = WaitingReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.load)
      await clock.advance(by: .milliseconds(300))
      recorder.stop()
      // The header, the action and the effect's start: cut off before the rest.
      let lines = recorder.trace.serialized.split(separator: UInt8(ascii: "\n"))
      let cut = Array(lines.prefix(3).joined(separator: [UInt8(ascii: "\n")])) + [0x0A]
      let reader = try TraceReader(bytes: cut)
      while try reader.next() != nil {}
      #expect(
        reader.warnings.map(\.description) == [
          "the trace has no end line after line 3: the recording did not stop normally",
          "line 3: the run was not finished: the trace ends at 0 s with 1 effect still running "
            + "(effect 1 'load' of action 1)",
        ])
    }
  }

  @Test func waitUntilIdleReturnsWhenTheLastEffectEnds() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = WaitingReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      await recorder.waitUntilIdle()  // nothing runs: at once
      reactor.send(.load)
      let waiting = Task { await recorder.waitUntilIdle() }
      await clock.advance(by: .milliseconds(300))
      await waiting.value
      recorder.stop()
      guard case .end(let end)? = recorder.events.last?.kind else {
        Issue.record("no end line")
        return
      }
      #expect(end.runningEffects.isEmpty)
    }
  }

  @Test func labelsWriteOptionalPayloadsAsCodeWould() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = WaitingReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.load)
      await clock.advance(by: .milliseconds(300))
      recorder.stop()
      let labels = recorder.events.compactMap { event -> String? in
        if case .mutation(let mutation) = event.kind { return mutation.label }
        return nil
      }
      #expect(labels == [#"setError(nil)"#, #"setError("Wrong password")"#])
    }
  }
}
