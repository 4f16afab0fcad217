import Clocks
import ReactorCore
import ReactorExamples
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

/// `trace` with its jump retargeted to the last mutation before it: a trace that lies, whose
/// jump's state (the value 1) is not the state after its new target (the value 2).
private func lying(_ trace: Trace) throws -> (trace: Trace, jump: Int, target: Int) {
  var trace = trace
  let index = try #require(
    trace.events.firstIndex { if case .jump = $0.kind { true } else { false } })
  let target = try #require(
    trace.events[..<index].last { if case .mutation = $0.kind { true } else { false } }
  ).sequence
  guard case .jump(var jump) = trace.events[index].kind else { throw CancellationError() }
  jump.target = target
  trace.events[index].kind = .jump(jump)
  return (trace, trace.events[index].sequence, target)
}

/// A trace or session whose jump's state is not the one recorded after its target (one that
/// lies) is a divergence in every replay, naming the jump and its target (issue 43).
@MainActor
@Suite struct WrongJumpTests {
  /// The start of what every replay says of the lying jump.
  static func problem(target: Int) -> String {
    "a jump to the state after event \(target) whose state (hash "
  }

  /// The `seq` of a session's jump and its target.
  static func jump(in session: SessionTrace) throws -> (jump: Int, target: Int) {
    for event in session.events {
      if case .reactor(_, .jump(let jump)) = event.kind { return (event.sequence, jump.target) }
    }
    throw CancellationError()
  }

  @Test func aStructuralReplayFindsAJumpWhoseStateIsNotItsTargets() async throws {
    try await withExclusiveMainSerialExecutor {
      let (trace, jump, target) = try lying(try await recordJumpingCounterTrace())
      let replay = try StructuralReplay(trace)
      try replay.checkRemaining()
      let found = replay.divergences.map(\.description)
      #expect(found.count == 1, "\(found)")
      let line = try #require(found.first)
      #expect(line.hasPrefix("line \(jump + 1): event \(jump) is " + Self.problem(target: target)))
      #expect(line.contains("is not the one recorded after event \(target) (hash "))
      #expect(!line.contains("\n"))
    }
  }

  @Test func aHandWrittenTraceWhoseJumpLiesIsADivergenceAndOneThatDoesNotIsNot() throws {
    // Counter.trace.jsonl, declared 1.4, with a jump before its end line to the state after
    // event 9, which is the state after event 4 (hash 71e0daefed5fc2d1), not the one after
    // event 10.
    func counter(jumpingTo target: Int) throws -> [UInt8] {
      try LyingInputTests.lines("Traces/counter.trace.jsonl") { index, line in
        if index == 0 { return line.replacing(#""version":"1.1""#, with: #""version":"1.4""#) }
        guard index == 19 else { return line }
        return #"{"seq":19,"t":1500000000,"kind":"jump","to":\#(target),"external":"client","#
          + #""snapshot":{"alertMessage":{"value":null,"valueUpdatedCount":0},"#
          + #""isLoading":true,"value":1},"hash":"71e0daefed5fc2d1"}"#
          + "\n" + #"{"seq":20,"t":1500000000,"kind":"end","observed":19,"dropped":0}"#
      }
    }
    #expect(try LyingInputTests.divergences(counter(jumpingTo: 9)) == [])
    #expect(try LyingInputTests.divergences(counter(jumpingTo: 4)) == [])
    #expect(
      try LyingInputTests.divergences(counter(jumpingTo: 10)) == [
        "line 20: event 19 is a jump to the state after event 10 whose state (hash "
          + "71e0daefed5fc2d1) is not the one recorded after event 10 (hash 71dcdaefed5bd9fa)"
      ])
    #expect(
      try LyingInputTests.divergences(counter(jumpingTo: 0)) == [
        "line 20: event 19 is a jump to the state after event 0 whose state (hash "
          + "71e0daefed5fc2d1) is not the one recorded after event 0 (hash 2ddfd7135ad998ad)"
      ])
  }

  @Test func aSessionWhoseJumpLiesNamesTheReactor() async throws {
    try await withExclusiveMainSerialExecutor {
      // Numbered from 1, as a session file is.
      let session = try SessionTrace(
        bytes: SessionTrace(bytes: lying(try await recordJumpingCounterTrace()).trace.serialized)
          .serialized)
      let (jump, target) = try Self.jump(in: session)
      let found = try LyingInputTests.divergences(session)
      #expect(found.count == 1, "\(found)")
      #expect(
        found.first?.contains(
          "event \(jump) of reactor 1 is " + Self.problem(target: target)) == true,
        "\(found)")
    }
  }

  @Test func aReduceReplayStopsAtAJumpWhoseStateIsNotItsTargets() async throws {
    try await withExclusiveMainSerialExecutor {
      let (trace, jump, target) = try lying(try await recordJumpingCounterTrace())
      let result = try ReduceReplay.run(
        TraceReader(bytes: trace.serialized, name: "lie"),
        through: ReplayCounterReactor(clock: TestClock()))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == jump)
      #expect(divergence.reason.hasPrefix(Self.problem(target: target)))
      let mutationsBefore = trace.events.prefix { $0.sequence < jump }.filter {
        if case .mutation = $0.kind { true } else { false }
      }
      #expect(result.stepsChecked == mutationsBefore.count)
    }
  }

  @Test(arguments: [ReplayEffects.run, .recorded])
  func aMutateReplayReportsAJumpWhoseStateIsNotItsTargets(effects: ReplayEffects) async throws {
    try await withExclusiveMainSerialExecutor {
      let (trace, jump, target) = try lying(try await recordJumpingCounterTrace())
      let clock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: ReplayCounterReactor(clock: clock), clock: clock,
        advance: { await clock.advance(by: $0) }, effects: effects)
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == jump)
      #expect(divergence.reason.hasPrefix(Self.problem(target: target)))
    }
  }

  @Test(arguments: [ReplayEffects.run, .recorded])
  func aSessionMutateReplayReportsAJumpWhoseStateIsNotItsTargets(
    effects: ReplayEffects
  ) async throws {
    try await withExclusiveMainSerialExecutor {
      // Numbered from 1, as a session file is.
      let session = try SessionTrace(
        bytes: SessionTrace(bytes: lying(try await recordJumpingCounterTrace()).trace.serialized)
          .serialized)
      let (jump, target) = try Self.jump(in: session)
      let clock = TestClock()
      let result = try await SessionMutateReplay.run(
        session, clock: clock, advance: { await clock.advance(by: $0) }, effects: effects
      ) { recorder in
        let reactor = ReplayCounterReactor(clock: clock)
        recorder.record(reactor)
        return reactor
      }
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == jump)
      #expect(divergence.reactor == 1)
      #expect(
        divergence.replayed?.contains(Self.problem(target: target)) == true,
        "\(divergence)")
    }
  }

  /// Counter.trace.jsonl as committed (1.1, which cannot hold a jump), with a jump that tells
  /// the truth before its end line.
  static func undeclaredJump() throws -> [UInt8] {
    try LyingInputTests.lines("Traces/counter.trace.jsonl") { index, line in
      guard index == 19 else { return line }
      return #"{"seq":19,"t":1500000000,"kind":"jump","to":9,"external":"client","#
        + #""snapshot":{"alertMessage":{"value":null,"valueUpdatedCount":0},"#
        + #""isLoading":true,"value":1},"hash":"71e0daefed5fc2d1"}"#
        + "\n" + #"{"seq":20,"t":1500000000,"kind":"end","observed":19,"dropped":0}"#
    }
  }

  @Test func aJumpInATraceWhoseVersionCannotHoldOneIsADivergenceInStructuralReplay() throws {
    #expect(
      try LyingInputTests.divergences(Self.undeclaredJump()) == [
        "line 20: event 19 is a jump in a 1.1 trace, which cannot hold one (jumps came with "
          + "1.4): its state cannot be checked"
      ])
  }

  @Test func aJumpInATraceWhoseVersionCannotHoldOneIsADivergenceInReduceReplay() throws {
    let result = try ReduceReplay.run(
      TraceReader(bytes: Self.undeclaredJump(), name: "undeclared"), through: CounterReactor())
    let divergence = try #require(result.divergence)
    #expect(divergence.sequence == 19)
    #expect(
      divergence.reason
        == "a jump in a 1.1 trace, which cannot hold one (jumps came with 1.4): its state "
        + "cannot be checked")
  }

  @Test func aSessionLaneThatHoldsAJumpUnderA11HeaderIsStillChecked() async throws {
    try await withExclusiveMainSerialExecutor {
      // A lane of a session is a trace of one reactor with a 1.1 header, whatever it holds.
      let session = try SessionTrace(
        bytes: SessionTrace(bytes: lying(try await recordJumpingCounterTrace()).trace.serialized)
          .serialized)
      let lane = try #require(session.lane(of: 1))
      #expect(lane.header.version < TraceHeader.jumpVersion)
      let (jump, target) = try Self.jump(in: session)
      let result = try ReduceReplay.run(lane, through: ReplayCounterReactor(clock: TestClock()))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == jump)
      #expect(divergence.reason.hasPrefix(Self.problem(target: target)))
      let structural = try StructuralReplay(lane)
      try structural.checkRemaining()
      #expect(
        structural.divergences.map(\.description).contains {
          $0.contains("event \(jump) is " + Self.problem(target: target))
        })
    }
  }
}
