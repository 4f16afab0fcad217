import Clocks
import Foundation
import ReactorCore
import ReactorExploration
import ReactorTestSupport
import ReactorTracing
import Testing

@MainActor
@Suite struct KnownGraphTests {
  private func exploreTurnstile() async throws -> Exploration {
    let explorer = ReactorExplorer<TurnstileReactor>(
      reactor: "Turnstile", alphabet: [.coin, .push]
    ) { clock in TurnstileReactor(clock: clock) }
    var result: Exploration?
    try await withExclusiveMainSerialExecutor { result = try await explorer.explore() }
    return try #require(result)
  }

  @Test func exploresTheWholeGraphOfAFiniteReactorToItsFixedPoint() async throws {
    let exploration = try await exploreTurnstile()
    #expect(exploration.stopReason == .fixedPoint)
    #expect(exploration.states.map(\.value) == [["isLocked": true], ["isLocked": false]])
    let edges = exploration.transitions.map {
      "s\($0.source)→s\($0.target) \($0.mutation) ← \(exploration.alphabet[$0.action].label)"
    }
    #expect(
      Set(edges) == [
        "s0→s1 unlock ← coin", "s0→s0 lock ← push", "s1→s1 unlock ← coin", "s1→s0 lock ← push",
      ])
    #expect(exploration.runCount == 4)
  }

  @Test func coverageCountsWhatATraceExercisesAndScriptsWhatItMisses() async throws {
    let exploration = try await exploreTurnstile()
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("turnstile-\(UUID().uuidString).trace.jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = TurnstileReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.coin)
      await clock.advance(by: .milliseconds(100))
      reactor.send(.push)
      recorder.stop()
      try recorder.trace.write(to: path)
    }
    let coverage = try ExplorationCoverage(of: exploration, tracesAt: [path])
    #expect(coverage.exercisedStates.count == 2)
    #expect(coverage.transitionShare == 0.5)
    #expect(coverage.unexploredTransitionCount == 0)
    let missed = coverage.missedTransitions.map {
      exploration.script(forTransition: $0).summary
    }
    #expect(Set(missed) == ["push", "coin, coin"])
    // A trace is a session of one reactor: its lane, reactor 1, is matched the same way.
    let lane = try #require(try SessionTrace(contentsOf: path).lane(of: 1))
    let ofLane = try ExplorationCoverage(
      of: exploration, traces: [(1, { try TraceReader(bytes: lane.serialized) })])
    #expect(ofLane.exercisedStates == coverage.exercisedStates)
    #expect(ofLane.exercisedTransitions == coverage.exercisedTransitions)
    #expect(ofLane.json == coverage.json)
    #expect(coverage.matched.states == ["s0", "s1"])
  }

  @Test func aSeededInvariantViolationIsFoundWithAMinimalScript() async throws {
    let alphabet: [CombinationLockReactor.Action] = [.press(1), .press(2), .press(3)]
    let invariants = [
      ExplorationInvariant<CombinationLockReactor.State>("stays locked") { !$0.isOpen }
    ]
    var found: Exploration?
    var shallow: Exploration?
    try await withExclusiveMainSerialExecutor {
      let explorer = ReactorExplorer<CombinationLockReactor>(
        reactor: "Lock", alphabet: alphabet, invariants: invariants
      ) { _ in CombinationLockReactor() }
      found = try await explorer.explore(ExplorationOptions(maximumDepth: 4))
      // Every script of up to two presses: none opens the lock.
      shallow = try await explorer.explore(ExplorationOptions(maximumDepth: 2))
    }
    let exploration = try #require(found)
    let violation = try #require(exploration.violations.first)
    #expect(violation.invariant == "stays locked")
    #expect(exploration.script(to: violation.state).summary == "press(3), press(1), press(2)")
    #expect(try #require(shallow).violations.isEmpty)
  }

  @Test func aBadConditionIsRefusedNamingTheTerm() {
    #expect(
      throws: ExplorationError.malformedCondition("value", reason: "'value' is not path=value")
    ) {
      try StateCondition(parsing: "value")
    }
    #expect(throws: Never.self) { try StateCondition(parsing: #"query="a,b",isLoading=false"#) }
  }
}

@MainActor
@Suite struct ExplorationBoundTests {
  private func explore(_ options: ExplorationOptions) async throws -> Exploration {
    let explorer = ReactorExplorer<TurnstileReactor>(
      reactor: "Turnstile", alphabet: [.coin, .push]
    ) { clock in TurnstileReactor(clock: clock) }
    var result: Exploration?
    try await withExclusiveMainSerialExecutor { result = try await explorer.explore(options) }
    return try #require(result)
  }

  @Test func theReportNamesTheBoundThatStoppedTheExploration() async throws {
    #expect(try await explore(ExplorationOptions(maximumStates: 1)).stopReason == .states(1))
    #expect(try await explore(ExplorationOptions(maximumDepth: 0)).stopReason == .depth(0))
    #expect(try await explore(ExplorationOptions(maximumDepth: 0)).states.count == 1)
    #expect(
      try await explore(ExplorationOptions(timeLimit: .zero)).stopReason == .time(.zero))
    #expect(try await explore(ExplorationOptions()).stopReason == .fixedPoint)
  }

  @Test func aProjectionMergesStatesThatAgreeOnItsFields() async throws {
    let projected = try await explore(
      ExplorationOptions(identity: StateIdentity(keys: ["missing"])))
    #expect(projected.states.map(\.value) == [["missing": nil]])
    #expect(projected.transitions.count == 2)
  }

  @Test func aSleepLongerThanTheSettleLimitLeavesTheRunUnsettled() async throws {
    let exploration = try await explore(ExplorationOptions(settleLimit: .milliseconds(10)))
    #expect(exploration.unsettledRunCount > 0)
  }
}

@MainActor
@Suite struct ExplorationJSONTests {
  @Test func anExplorationReadBackFromItsJSONIsTheSame() async throws {
    let explorer = ReactorExplorer<CombinationLockReactor>(
      reactor: "Lock", alphabet: [.press(1), .press(2), .press(3)],
      invariants: [ExplorationInvariant("stays locked") { !$0.isOpen }]
    ) { _ in CombinationLockReactor() }
    var found: Exploration?
    try await withExclusiveMainSerialExecutor {
      found = try await explorer.explore(ExplorationOptions(maximumDepth: 3))
    }
    let exploration = try #require(found)
    let read = try Exploration(json: exploration.json)
    #expect(read.json == exploration.json)
    let violation = try #require(read.violations.first)
    #expect(read.script(to: violation.state).summary == "press(3), press(1), press(2)")
  }

  @Test func aMalformedSavedExplorationIsRefusedNamingTheMember() {
    #expect(throws: ExplorationError.malformedExploration("reactor is not a string")) {
      try Exploration(json: ["states": []])
    }
  }
}
