import Clocks
import ReactorCore
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// Issue 39, item 1: a session replayed with its effects played back decodes each recorded
/// mutation as it delivers it, as the code that made it in the recording, so that the
/// Codable reactors the mutation holds are created by the same parent.
@MainActor
@Suite struct DecodedChildReplayTests {
  /// A row that encodes as its title and is created again by decoding it.
  final class RowReactor: Reactor {
    enum Action: Codable, Sendable { case toggle }
    enum Mutation: Codable, Sendable { case toggled }
    struct State: Codable, Sendable {
      var title: String
      var isDone = false
    }
    let initialState: State
    let runtime = Runtime()

    init(title: String) {
      initialState = State(title: title)
    }

    func mutate(action: Action) -> Effect<Mutation> { .just(.toggled) }

    func reduce(state: State, mutation: Mutation) -> State {
      var state = state
      state.isDone.toggle()
      return state
    }
  }

  /// A list whose effect loads its rows: the rows, reactors, travel in the mutation.
  final class ListReactor: Reactor {
    enum Action: Codable, Sendable { case load }
    enum Mutation: Codable, Sendable { case setRows([RowReactor]) }
    struct State: Encodable, Sendable {
      var rows: [Row] = []
    }
    /// A row as the list's state holds it: recorded as a reference to its lane.
    struct Row: Encodable, Sendable {
      let reactor: RowReactor
      let reference: ReactorReference

      func encode(to encoder: any Encoder) throws { try reference.encode(to: encoder) }
    }

    let initialState = State()
    let runtime = Runtime()
    let clock: TestClock<Duration>

    init(clock: TestClock<Duration>) {
      self.clock = clock
    }

    func mutate(action: Action) -> Effect<Mutation> {
      let clock = self.clock
      return .run(name: "load") { send in
        try await clock.sleep(for: .milliseconds(10))
        send(.setRows([RowReactor(title: "milk"), RowReactor(title: "bread")]))
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      switch mutation {
      case .setRows(let rows):
        State(rows: rows.map { Row(reactor: $0, reference: ReactorReference($0)) })
      }
    }
  }

  /// Whether a reactor is this test's: the recorder is the process's, and a test running
  /// beside this one may start reactors of its own while it is installed.
  private static let isOwn: @MainActor (AnyObject) -> Bool = {
    $0 is ListReactor || $0 is RowReactor
  }

  @Test func rowsDecodedFromAPlayedBackMutationAreCreatedByTheirList() async throws {
    let recorded = Box<SessionTrace?>(nil)
    let replayed = Box<SessionMutateReplay.Result?>(nil)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let recorder = try SessionRecorder.recordingEveryReactor(
        options: TraceOptions(metadata: ["app": "rows"], clock: clock), including: Self.isOwn)
      let list = ListReactor(clock: clock)
      recorder.record(list, name: "list")
      list.send(.load)
      await clock.advance(by: .milliseconds(10))
      recorder.stop()
      recorder.uninstall()
      recorded.value = recorder.session

      // The replay's clock is never advanced past the start: the effect's body never runs.
      let replayClock = TestClock()
      replayed.value = try await SessionMutateReplay.run(
        recorder.session, clock: replayClock, advance: { await replayClock.advance(by: $0) },
        including: Self.isOwn, effects: .recorded
      ) { recorder in
        let list = ListReactor(clock: TestClock())
        recorder.record(list, name: "list")
        return list
      }
      extendLifetime(list)
    }
    let session = try #require(recorded.value)
    let parents = session.events.compactMap { event -> Int?? in
      guard case .introduced(let introduction) = event.kind, introduction.reactor > 1 else {
        return nil
      }
      return introduction.parent
    }
    #expect(parents == [1, 1])
    let result = try #require(replayed.value)
    #expect(result.isMatch, "\(result.divergence.map(String.init(describing:)) ?? "")")
    #expect(result.matchedEvents == session.events.count)
  }
}

extension DecodedChildReplayTests.RowReactor: @preconcurrency Codable {
  convenience init(from decoder: any Decoder) throws {
    self.init(title: try String(from: decoder))
  }

  func encode(to encoder: any Encoder) throws {
    try initialState.title.encode(to: encoder)
  }
}
