import Clocks
import ReactorCore
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// The counter, with a jump from the page back to the state after its first increase
/// (issue 43), then more actions from there.
@MainActor
private func recordJumpingCounterTrace() async throws -> Trace {
  let clock = TestClock()
  let reactor = ReplayCounterReactor(clock: clock)
  var options = TraceOptions(clock: clock)
  options.recordsJumps = true
  let recorder = try InMemoryTraceRecorder(recording: reactor, options: options)
  reactor.send(.increase)
  await clock.advance(by: .milliseconds(500))
  await recorder.waitUntilIdle()
  let afterFirst = reactor.currentState
  let target = try #require(recorder.trace.events.last?.sequence)
  reactor.send(.increase)
  await clock.advance(by: .milliseconds(500))
  await recorder.waitUntilIdle()
  reactor.jump(to: afterFirst, event: target, from: "page")
  reactor.send(.decrease)
  await clock.advance(by: .milliseconds(100))
  reactor.send(.increase)
  await clock.advance(by: .milliseconds(500))
  await recorder.waitUntilIdle()
  #expect(reactor.currentState.value == 1)
  recorder.stop()
  return recorder.trace
}

/// Replays reproduce a run with a jump: the replayed reactor's state is set at the jump, and
/// later actions run from it.
@MainActor
@Suite struct JumpReplayTests {
  @Test func aStructuralReplayChecksTheJumpsStateAndShowsItAsAStep() async throws {
    try await withExclusiveMainSerialExecutor {
      let replay = try StructuralReplay(try await recordJumpingCounterTrace())
      var steps: [ReplayStep] = []
      try replay.forEachStep { steps.append($0) }
      #expect(replay.divergences.isEmpty)
      let jump = try #require(steps.first { $0.kind == "jump" })
      #expect(jump.label.hasPrefix("jump to event ") == true)
      #expect(jump.cause == "external page")
      #expect(jump.changes == [ReplayStep.Change(path: [.key("value")], before: 2, after: 1)])
    }
  }

  @Test func aReduceReplayGoesOnFromTheJumpsState() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordJumpingCounterTrace()
      let result = try ReduceReplay.run(
        TraceReader(bytes: trace.serialized, name: "jump"),
        through: ReplayCounterReactor(clock: TestClock()))
      #expect(result.divergence == nil)
      let mutations = trace.events.filter {
        if case .mutation = $0.kind { true } else { false }
      }
      #expect(result.stepsChecked == mutations.count)
    }
  }

  @Test(arguments: [ReplayEffects.run, .recorded])
  func aMutateReplayJumpsWhereTheRunJumpedAndProducesTheRecordedMutations(
    effects: ReplayEffects
  ) async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordJumpingCounterTrace()
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock)
      let result = try await MutateReplay.run(
        trace, through: reactor, clock: clock, advance: { await clock.advance(by: $0) },
        effects: effects)
      #expect(result.divergence == nil, "\(String(describing: result.divergence))")
      #expect(result.stepsChecked == 12)
      #expect(reactor.currentState.value == 1)
    }
  }
}
