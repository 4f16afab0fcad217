import Foundation
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// Structural replay of sessions: states and causes within each reactor and across them.
@Suite struct StructuralSessionReplayTests {
  private func replay(_ session: SessionTrace) throws -> (
    StructuralReplay, [ReplayStep]
  ) {
    let replay = try StructuralReplay(session)
    var steps: [ReplayStep] = []
    while let step = try replay.next() { steps.append(step) }
    return (replay, steps)
  }

  @Test func aConsistentSessionReplaysWithEveryCauseResolvedAcrossReactors() throws {
    let (replay, steps) = try replay(SessionFixture.session())
    #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    #expect(steps.count == 14)
    #expect(replay.causality.isComplete)
    #expect(replay.causality.resolvedActions == 3)
    #expect(replay.causality.resolvedMutations == 4)
    #expect(
      steps[5].description
        == #"#6 [r1] 0.05 seconds mutation add("milk") ← stream taskService from reactor 2 'edit', action 1 (save), effect 1"#
        + "\n  titles: [] → [\"milk\"]"
    )
    #expect(
      steps[6].description
        == "#7 [r3] 0.06 seconds reactor TaskApp.CellReactor 'cell' ← created by reactor 1 during event 6"
    )
    #expect(
      steps[10].description
        == "#11 [r1] 0.1 seconds action remove(0) ← sent from reactor 3 'cell', action 1 (delete)")
    #expect(steps[11].changes.map(\.path) == [[.key("titles")]])
    #expect(steps[12].description == "#13 [r3] 0.12 seconds release reactor 3")
    #expect(replay.liveReactors.keys.sorted() == [1, 2])
    #expect(replay.currentState(of: 1) == .json(SessionFixture.listState))
    #expect(replay.currentState(of: 3) == nil)
  }

  @Test func anOriginAtAnActionThatDidNotHappenYetIsABrokenCauseOfTheReceivingReactor() throws {
    let (replay, _) = try replay(
      SessionFixture.session(origin: TraceEvent.ReactorOrigin(reactor: 2, action: 2)))
    #expect(
      replay.divergences.map(\.description) == [
        "line 7: event 6 of reactor 1 comes from reactor 2, action 2, whose action 2 did not come before it"
      ])
    // The list's stream mutation no longer resolves; nothing else changes.
    #expect(replay.causality.unresolvedMutations == 1)
    #expect(replay.causality.resolvedMutations == 3)
  }

  @Test func anOriginInAReactorThatIsNotAliveOrWithoutAnActionIsABrokenCause() throws {
    let unknown = try replay(
      SessionFixture.session(origin: TraceEvent.ReactorOrigin(reactor: 7, action: 1)))
    #expect(
      unknown.0.divergences.map(\.description) == [
        "line 7: event 6 of reactor 1 comes from reactor 7, action 1, which was not introduced before it"
      ])
    let noAction = try replay(SessionFixture.session(origin: TraceEvent.ReactorOrigin(reactor: 2)))
    #expect(
      noAction.0.divergences.map(\.description) == [
        "line 7: event 6 of reactor 1 comes from reactor 2, with no action of it"
      ])
    #expect(!noAction.0.causality.isComplete)
  }

  @Test func aStreamElementWithoutAnOriginResolvesToTheNamedExternalStream() throws {
    let (replay, _) = try replay(SessionFixture.session(origin: nil))
    #expect(replay.divergences.isEmpty)
    #expect(replay.causality.isComplete)
  }

  @Test func aParentThatIsNotAliveAndAnEditedStateAreFoundAndReadingGoesOn() throws {
    var session = SessionFixture.session()
    guard case .introduced(var cell) = session.events[6].kind else {
      Issue.record("event 7 is not the cell's introduction")
      return
    }
    cell.parent = 5
    session.events[6].kind = .introduced(cell)
    guard case .reactor(1, .mutation(var mutation)) = session.events[11].kind else {
      Issue.record("event 12 is not the list's mutation")
      return
    }
    mutation.stateHash = TraceHash(1)
    session.events[11].kind = .reactor(1, .mutation(mutation))
    let (replay, steps) = try replay(session)
    #expect(steps.count == 14)
    #expect(
      replay.divergences.map(\.description) == [
        "line 8: event 7 introduces reactor 3 with parent 5, which was not introduced before it",
        "session:13: the state after event 12 does not match its hash (recorded 0000000000000001, "
          + "reconstructed \(TraceHeader.State.json(SessionFixture.listState).hash)): "
          + "the trace was edited or corrupted",
      ])
  }

  @Test func aTraceOfOneReactorReplaysAsASessionOfOne() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Traces/tasklist.trace.jsonl").path
    let replay = try StructuralReplay(path: path)
    try replay.checkRemaining()
    #expect(replay.divergences.isEmpty)
    #expect(replay.stepCount > 10)
    #expect(replay.causality.isComplete)
    #expect(replay.liveReactors[1]?.type == "ReactorExamples.TaskListReactor")
  }
}
