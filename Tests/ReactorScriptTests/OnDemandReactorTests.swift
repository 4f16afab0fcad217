import Clocks
import ReactorExamples
import ReactorReplay
import ReactorScript
import ReactorTestSupport
import ReactorTracing
import Testing

/// An app whose screens appear after its factory returns (the todo app, ported from RxTodo):
/// reactors named by a naming rule when they appear, addressed by type and order, rows that
/// encode inline selected through their own lanes, and the action the app sends at start-up
/// left to the factory by replays.
@MainActor
@Suite("Reactors created on demand: naming rules, addresses by order, start-up actions")
struct OnDemandReactorTests {
  private let script = """
    {"app": "TodoApp"}
    {"t": 100, "to": "list", "action": "addTask"}
    {"t": 110, "to": "edit", "action": {"updateTitle": {"_0": "Buy milk"}}}
    {"t": 120, "to": "edit", "action": "submit"}
    {"t": 300, "to": "list/sections.0.items[id=task-2]", "action": "toggle"}
    {"t": 310, "to": "list/sections.0.items[isDone=true]", "action": "toggle"}
    {"t": 400, "to": "list", "action": {"selectTask": {"_0": [0, 0]}}}
    {"t": 410, "to": "TodoEditReactor[-1]", "action": {"updateTitle": {"_0": "Port it"}}}
    {"t": 420, "to": "edit[-1]", "action": "submit"}
    """

  /// Builds the todo app as its registered session factory does.
  private static func build(_ recorder: SessionRecorder, clock: TestClock<Duration>) -> TodoApp {
    recorder.name(TodoListReactor.self, "list")
    recorder.name(TodoEditReactor.self, "edit")
    let app = TodoApp(clock: clock)
    app.viewDidLoad()
    return app
  }

  private static func isTodo(_ reactor: AnyObject) -> Bool {
    reactor is TodoListReactor || reactor is TodoCellReactor || reactor is TodoEditReactor
  }

  /// Records `text` through the todo app.
  private func record(_ text: String, settle: Duration = .seconds(10)) async throws
    -> SessionTrace
  {
    let script = try ReactorScript(parsing: text, name: "todo.jsonl")
    let session = Recorded()
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      session.value = try await SessionScriptRunner.record(
        script, clock: clock, including: Self.isTodo, settle: settle
      ) { Self.build($0, clock: clock) }
    }
    return try #require(session.value)
  }

  /// Replays `session` through the todo app, effects run.
  private func replay(_ session: SessionTrace) async throws -> SessionMutateReplay.Result {
    let result = Replayed()
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      result.value = try? await SessionMutateReplay.run(
        session, clock: clock, advance: { await clock.advance(by: $0) }, including: Self.isTodo
      ) { Self.build($0, clock: clock) }
    }
    return try #require(result.value)
  }

  @Test func aSessionRecordedWithoutSettlingReplaysToTheSameEnd() async throws {
    // The last step's save is still in flight when the recording stops.
    let session = try await record(script, settle: .zero)
    guard case .end(let end)? = session.events.last?.kind else {
      Issue.record("no end line")
      return
    }
    #expect(end.runningEffects.map(\.start.name) == ["check title", "save"])
    let replay = try await replay(session)
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
  }

  /// The user's actions in `session`: the reactor each went to and its label.
  private func userActions(_ session: SessionTrace) -> [String] {
    session.events.compactMap { event in
      guard case .reactor(let reactor, .action(let action)) = event.kind, action.from == nil
      else { return nil }
      return "\(reactor) \(action.label)"
    }
  }

  @Test func aPositionAfterANameOrTypeReadsAndWritesBack() throws {
    let latest = try ReactorAddress(parsing: "TodoEditReactor[-1]")
    #expect(latest == ReactorAddress(name: "TodoEditReactor", index: -1))
    #expect(latest.description == "TodoEditReactor[-1]")
    let nested = try ReactorAddress(parsing: "board[0]/cards[title=Buy milk]")
    #expect(nested.index == 0)
    #expect(nested.description == "board[0]/cards[title=Buy milk]")
    do {
      _ = try ReactorAddress(parsing: "edit[last]")
      Issue.record("edit[last] was read")
    } catch {
      #expect(error.isMalformed)
      #expect(error.reason.hasPrefix("[last] after a name or type is a position"))
    }
  }

  @Test func screensCreatedOnDemandAreNamedByTheRuleAndAddressedByOrder() async throws {
    let session = try await record(script)
    let named = session.reactors.filter { $0.name == "edit" }
    #expect(named.map(\.reactor) == [5, 7])
    #expect(session.reactors.first?.name == "list")
    // The start-up refresh is the factory's; each step reached the screen it names.
    #expect(
      userActions(session) == [
        "1 refresh", "1 addTask", #"5 updateTitle("Buy milk")"#, "5 submit", "3 toggle",
        "3 toggle", "1 selectTask([0, 0])", #"7 updateTitle("Port it")"#, "7 submit",
      ])
  }

  @Test func aSelectorMatchesARowsOwnStateWhenTheListEncodesItInline() async throws {
    // The list's copy of row task-2 still says isDone false after the first toggle: the
    // second step finds the row through its lane, where it is true.
    let session = try await record(script)
    let toggles = session.events.filter {
      if case .reactor(3, .mutation(let mutation)) = $0.kind {
        return mutation.label.hasPrefix("setDone")
      }
      return false
    }
    #expect(toggles.count == 2)
  }

  @Test func anAddressMatchingNoLiveReactorSaysWhatThereIs() async throws {
    do {
      _ = try await record(
        #"{"app": "TodoApp"}"# + "\n" + #"{"t": 100, "to": "edit[-1]", "action": "submit"}"#)
      Issue.record("recorded a step to a screen not presented")
    } catch let error as ScriptError {
      guard case .unreachableReactor(_, _, let address) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(address.reason == "no live reactor is named 'edit'; named: list")
    }
    do {
      _ = try await record(
        #"{"app": "TodoApp"}"# + "\n" + #"{"t": 100, "to": "TodoCellReactor", "action": "toggle"}"#)
      Issue.record("recorded a step to one of three rows")
    } catch let error as ScriptError {
      guard case .unreachableReactor(_, _, let address) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(
        address.reason
          == "3 live reactors are of type 'TodoCellReactor' (ids 2, 3, 4); pick one by "
          + "position: 'TodoCellReactor[-1]' is the latest")
    }
  }

  @Test func theSameScriptRecordsTheSameBytesAndReplaysWithoutSendingStartUpActionsTwice()
    async throws
  {
    let first = try await record(script)
    let second = try await record(script)
    #expect(first.serialized == second.serialized)
    let replay = try await replay(first)
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    // The 8 steps; the refresh the list's view sends when it loads is the factory's.
    #expect(replay.userActions == 8)
  }
}

/// What a recording closure sets.
private final class Recorded: @unchecked Sendable {
  var value: SessionTrace?
}

/// What a replay closure sets.
private final class Replayed: @unchecked Sendable {
  var value: SessionMutateReplay.Result?
}
