import Clocks
import ReactorCore
import ReactorJSON
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// A state that is not `Encodable` and holds reactors records each as a reference to its
  /// lane, with no `ReactorReference` written by hand.
  @MainActor
  @Suite struct SessionStateReferences {
    @Test func rowsHeldInAStateAreRecordedAsReferencesToTheirLanesIntroducedBeforeIt()
      async throws
    {
      let directory = try TemporaryDirectory()
      let path = directory.file("rows.session.jsonl")
      // Alone: the observer that records every reactor is one per process, and other suites
      // install theirs.
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(
          .file(path), options: TraceOptions(clock: TestClock()),
          including: { $0 is RowsReactor || $0 is TitledRowReactor })
        let list = RowsReactor()
        recorder.record(list, name: "rows")
        list.send(.add("milk"))
        list.send(.add("eggs"))
        list.send(.clear)
        try await recorder.close()
      }

      let session = try SessionTrace(contentsOf: path)
      #expect(session.reactors.map(\.reactor) == [1, 2, 3])
      #expect(session.reactors.map(\.parent) == [nil, 1, 1])
      #expect(session.reactors.first?.initialState == .json(["count": 0, "rows": []]))
      // Each row is introduced before the list's mutation that holds it, and released once
      // the list let go of it: the recording kept neither alive.
      let order = session.events.compactMap { event -> String? in
        switch event.kind {
        case .introduced(let introduction): "introduce \(introduction.reactor)"
        case .released(let reactor): "release \(reactor)"
        case .reactor(let reactor, .mutation(let mutation)): "[\(reactor)] \(mutation.label)"
        default: nil
        }
      }
      #expect(
        order == [
          "introduce 1", "introduce 2", "[1] add(\"milk\")", "introduce 3",
          "[1] add(\"eggs\")", "[1] clear", "release 2", "release 3",
        ])
      let replay = try StructuralSessionReplayProbe.states(of: session, reactor: 1)
      #expect(
        replay == [
          .json(["count": 1, "rows": [["reactor": 2]]]),
          .json(["count": 2, "rows": [["reactor": 2], ["reactor": 3]]]),
          .json(["count": 2, "rows": []]),
        ])
    }

    @Test func aStateThatIsNotEncodableIsRecordedAsJSONInASessionAndByItsDescriptionAlone()
      throws
    {
      let recorder = try SessionRecorder(options: TraceOptions(clock: TestClock()))
      let reactor = DescribedReactor()
      recorder.record(reactor)
      reactor.send(.bump)
      recorder.stop()
      #expect(recorder.session.reactors.first?.initialState == .json(["count": 0]))
      let alone = try InMemoryTraceRecorder(
        recording: DescribedReactor(), options: TraceOptions(clock: TestClock()))
      #expect(alone.header.initialState == .description("State(count: 0)"))
    }
  }
}

/// The states a session's reactor went through, rebuilt from its lane.
private enum StructuralSessionReplayProbe {
  static func states(of session: SessionTrace, reactor: Int) throws -> [TraceHeader.State] {
    let lane = try #require(session.lane(of: reactor))
    var state = lane.header.initialState
    var states: [TraceHeader.State] = []
    for event in lane.events {
      guard case .mutation(let mutation) = event.kind else { continue }
      try state.apply(mutation.state)
      #expect(state.hash == mutation.stateHash)
      states.append(state)
    }
    return states
  }
}

/// A list whose state, not `Encodable`, holds one reactor per row, made in `reduce`.
@MainActor
private final class RowsReactor: Reactor {
  enum Action: Codable, Sendable {
    case add(String)
    case clear
  }

  struct State: Sendable {
    var rows: [TitledRowReactor] = []
    var count = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .add(let title):
      state.rows.append(TitledRowReactor(title: title))
      state.count += 1
    case .clear:
      state.rows = []
    }
    return state
  }
}

/// A reactor whose state is not `Encodable` and holds no reactor.
@MainActor
private final class DescribedReactor: Reactor {
  enum Action: Codable, Sendable {
    case bump
  }

  struct State: Sendable {
    var count = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    State(count: state.count + 1)
  }
}
