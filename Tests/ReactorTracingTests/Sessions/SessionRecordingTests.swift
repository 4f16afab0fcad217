import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// Recording many reactors into one session: lanes, parents, releases, and the origins
  /// of what one reactor causes in another.
  @MainActor
  @Suite struct SessionRecording {
    @Test func aStreamElementPublishedByAnotherReactorsEffectRecordsThatEffectAsItsOrigin()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let service = TaskService(tasks: [], clock: clock)
        let editing = TaskListReactor(service: service)
        let showing = TaskListReactor(service: service)
        // Other suites' reactors may start while this test waits for its clock.
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: clock), including: { $0 === editing || $0 === showing })
        _ = showing.state
        editing.send(.add(title: "milk"))
        await clock.advance(by: .milliseconds(100))
        await recorder.waitUntilIdle()
        recorder.stop()
        #expect(showing.currentState.tasks.map(\.title) == ["milk"])
        #expect(editing.runtime.sessionID == nil && editing.runtime.monitor == nil)

        let session = try SessionTrace(bytes: recorder.session.serialized)
        #expect(session.reactors.map(\.reactor) == [1, 2])
        #expect(
          session.reactors.map(\.type)
            == Array(repeating: "ReactorExamples.TaskListReactor", count: 2))
        let inserts = session.events.compactMap { event -> (Int, TraceEvent.Mutation)? in
          guard case .reactor(let reactor, .mutation(let mutation)) = event.kind,
            mutation.label.hasPrefix("insertTask")
          else { return nil }
          return (reactor, mutation)
        }
        // Both lists, in the order they subscribed, the editing one included, made the
        // mutation from reactor 2's effect.
        #expect(inserts.map(\.0) == [1, 2])
        let origin = TraceEvent.ReactorOrigin(reactor: 2, action: 1, effect: 1)
        #expect(inserts.allSatisfy { $0.1.cause == .stream("taskService") && $0.1.from == origin })
      }
    }

    @Test func anActionSentFromAnotherReactorsMutateRecordsItsOriginAndChildrenTheirParent()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(including: {
          $0 is SpawningReactor || $0 is SpawnedReactor
        })
        let parent = SpawningReactor()
        parent.send(.spawn)
        parent.send(.spawn)
        parent.send(.releaseChildren)
        parent.send(.spawn)
        recorder.stop()
        let session = recorder.session
        #expect(session.reactors.map(\.reactor) == [1, 2, 3, 4])
        #expect(session.reactors.map(\.parent) == [nil, 1, 1, 1])
        // Each child was created during its parent's `spawn` action.
        let spawns = session.events.filter {
          if case .reactor(1, .action(let action)) = $0.kind { return action.label == "spawn" }
          return false
        }.map(\.sequence)
        #expect(session.reactors.dropFirst().map(\.createdDuring) == spawns)
        // The children the parent let go of ended their lanes, and nothing kept them alive.
        let releases = session.events.compactMap { event -> Int? in
          if case .released(let reactor) = event.kind { return reactor }
          return nil
        }
        #expect(releases == [2, 3])
        let sent = session.events.compactMap { event -> TraceEvent.Action? in
          if case .reactor(let reactor, .action(let action)) = event.kind, reactor > 1 {
            return action
          }
          return nil
        }
        #expect(sent.count == 3)
        #expect(sent.map(\.from?.reactor) == [1, 1, 1])
        #expect(sent.map(\.from?.action) == [1, 2, 4])

        // It reads back, every state checked against its hash.
        #expect(try SessionTrace(bytes: session.serialized).events == session.events)
      }
    }

    /// An action's mutations are applied within the action's activity, set once for the
    /// action: what each mutation's observers send records that action as its origin, and an
    /// action the reactor sends itself from an observer waits for the first to finish.
    @Test func eachMutationOfAnActionRecordsItsObserversActionsAsCausedByThatAction()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(including: {
          $0 is SequencingReactor || $0 is SpawnedReactor
        })
        let sequencing = SequencingReactor()
        let listener = SpawnedReactor()
        var seen: [Int] = []
        let subscription = sequencing.state.observe { state in
          seen.append(state.count)
          guard state.count > 0 else { return }
          listener.send(.hello)
          if state.count == 2 { sequencing.send(.twice) }
        }
        sequencing.send(.twice)
        recorder.stop()
        subscription.cancel()
        #expect(seen == [0, 1, 2, 3, 4])
        let session = recorder.session
        let actions = session.events.compactMap { event -> (Int, TraceEvent.Action)? in
          guard case .reactor(let reactor, .action(let action)) = event.kind else { return nil }
          return (reactor, action)
        }
        let listenerActions = actions.filter { $0.0 == 2 }.map(\.1)
        #expect(listenerActions.map(\.from?.reactor) == [1, 1, 1, 1])
        // The second `twice`, sent from an observer of the first's second mutation, ran after
        // the first: the listener's first two actions come from action 1, the next two from 2.
        #expect(listenerActions.map(\.from?.action) == [1, 1, 2, 2])
        let mutations = session.events.compactMap { event -> TraceEvent.Mutation? in
          guard case .reactor(1, .mutation(let mutation)) = event.kind else { return nil }
          return mutation
        }
        #expect(mutations.map(\.cause) == [.action(1), .action(1), .action(2), .action(2)])
        #expect(try SessionTrace(bytes: session.serialized).events == session.events)
      }
    }

    /// The events of a run recorded in memory (each action and mutation written straight as
    /// its line) and as a flight window (kept as events): the two paths write the same lines.
    @Test func aSessionInMemoryHoldsTheLinesAWindowsEventsWrite() async throws {
      let memory = try await Self.spawningSession(.memory)
      let window = try await Self.spawningSession(.window(FlightWindow(events: 10_000)))
      #expect(memory.count == 21)
      #expect(memory.map(\.serializedLine) == window.map(\.serializedLine))
    }

    /// Records a parent that spawns children, sends them actions from its `mutate` and lets
    /// them go.
    private static func spawningSession(
      _ destination: SessionDestination
    ) async throws -> [SessionEvent] {
      let events = EventBox()
      try await withExclusiveMainSerialExecutor {
        // A test clock: both runs have the same times.
        let recorder = try SessionRecorder.recordingEveryReactor(
          destination, options: TraceOptions(clock: TestClock()),
          including: { $0 is SpawningReactor || $0 is SpawnedReactor })
        let parent = SpawningReactor()
        parent.send(.spawn)
        parent.send(.spawn)
        parent.send(.releaseChildren)
        parent.send(.spawn)
        recorder.stop()
        events.value = recorder.session.events
      }
      return events.value
    }

    @Test func aUserActionHasNoOriginAndAReactorNotRecordedCausesNothingToBeRecorded()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder()
        let parent = SpawningReactor()
        #expect(recorder.record(parent, name: "parent") == 1)
        #expect(recorder.record(parent, name: "again") == 1)
        parent.send(.spawn)
        recorder.stop()
        let session = recorder.session
        // Only the parent was chosen: its child is not in the session.
        #expect(session.reactors.map(\.name) == ["parent"])
        guard case .reactor(1, .action(let action)) = session.events[1].kind else {
          Issue.record("no action")
          return
        }
        #expect(action.from == nil)
        #expect(parent.runtime.sessionID == nil)
      }
    }
  }
}

/// A reactor that creates a child reactor in `mutate` and sends it an action there.
@MainActor
private final class SpawningReactor: Reactor {
  enum Action: Codable, Sendable {
    case spawn
    case releaseChildren
  }

  struct State: Codable, Sendable {
    var spawned = 0
  }

  let initialState = State()
  let runtime = Runtime()
  private var children: [SpawnedReactor] = []

  func mutate(action: Action) -> Effect<Action> {
    switch action {
    case .spawn:
      let child = SpawnedReactor()
      children.append(child)
      child.send(.hello)
    case .releaseChildren:
      children.removeAll()
    }
    return .just(action)
  }

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .spawn = mutation { state.spawned += 1 }
    return state
  }
}

/// A reactor whose action makes two mutations, as a sequence.
@MainActor
private final class SequencingReactor: Reactor {
  enum Action: Codable, Sendable {
    case twice
  }

  struct State: Codable, Sendable {
    var count = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Action> {
    .sequence([action, action])
  }

  func reduce(state: State, mutation: Action) -> State {
    State(count: state.count + 1)
  }
}

/// The child of ``SpawningReactor``.
@MainActor
private final class SpawnedReactor: Reactor {
  enum Action: Codable, Sendable {
    case hello
  }

  struct State: Codable, Sendable {
    var greeted = false
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    State(greeted: true)
  }
}

/// The events a recording closure sets.
private final class EventBox: @unchecked Sendable {
  var value: [SessionEvent] = []
}
