import Clocks
import ReactorExamples
import ReactorReplay
import ReactorScript
import ReactorTestSupport
import ReactorTracing
import Testing

/// Scripts of a whole app: read and written, their addresses, and recorded as sessions with
/// each step's action reaching the reactor its address names at that moment.
@MainActor
@Suite("App scripts: addresses by name and path, recorded as sessions")
struct AppScriptTests {
  private let text = """
    {"app": "TaskApp", "meta": {"build": "7"}}
    {"t": 0, "to": "list", "action": "refresh"}
    {"t": 100, "to": "list/cells[task.id=2]", "action": "toggle"}
    {"t": 100, "to": " list / cells[1] ", "action": {"toggle": {}}}

    """

  @Test func anAppScriptNamesTheAppAndWhereEachActionGoesAndWritesItBack() throws {
    let script = try ReactorScript(parsing: text, name: "app.jsonl")
    #expect(script.app == "TaskApp")
    #expect(script.reactor == nil)
    #expect(script.metadata == ["build": "7"])
    #expect(
      script.steps.map(\.target?.description) == ["list", "list/cells[task.id=2]", "list/cells.1"])
    let selector = try #require(script.steps[1].target?.steps.first?.selector)
    #expect(selector.key.components == ["task", "id"])
    #expect(selector.value == .int(2))
    // Keys in canonical order; a case without payload written as its name.
    #expect(
      script.lines == [
        #"{"app":"TaskApp","meta":{"build":"7"}}"#,
        #"{"action":"refresh","t":0,"to":"list"}"#,
        #"{"action":"toggle","t":100,"to":"list/cells[task.id=2]"}"#,
        #"{"action":"toggle","t":100,"to":"list/cells.1"}"#,
      ])
    let again = try ReactorScript(parsing: script.text, name: "again.jsonl")
    #expect(again.app == script.app)
    #expect(again.steps.map(\.target) == script.steps.map(\.target))
    #expect(again.steps.map(\.time) == script.steps.map(\.time))
  }

  @Test func addressesReadAsANameThenPathsWithOptionalSelectors() throws {
    #expect(try ReactorAddress(parsing: "edit") == ReactorAddress(name: "edit"))
    #expect(try ReactorAddress(parsing: "list/cells[0]") == ReactorAddress(parsing: "list/cells.0"))
    let nested = try ReactorAddress(parsing: "board/columns.1/cards[title=Buy milk]/detail")
    #expect(nested.name == "board")
    #expect(nested.steps.map(\.path.description) == ["columns.1", "cards", "detail"])
    #expect(nested.steps[1].selector?.value == .string("Buy milk"))
    #expect(nested.description == "board/columns.1/cards[title=Buy milk]/detail")
    #expect(
      try ReactorAddress(parsing: #"list/cells[task.title="7"]"#).description
        == #"list/cells[task.title="7"]"#)
    let malformed: [(String, String)] = [
      ("", "it names no reactor before the first '/'"),
      ("/cells.0", "it names no reactor before the first '/'"),
      ("list/", "a step after '/' needs a path into the state, such as cells.0"),
      ("list/cells..0", "'cells..0' is not a state path: it has an empty field name"),
      ("list/cells[=2]", "in the selector [=2]: '' is not a state path: it is empty"),
    ]
    for (text, reason) in malformed {
      #expect(throws: ReactorAddressError.self) { try ReactorAddress(parsing: text) }
      do {
        _ = try ReactorAddress(parsing: text)
      } catch {
        #expect(error.isMalformed)
        #expect(error.reason.hasPrefix(reason), "\(text): \(error.reason)")
        #expect(error.description.hasPrefix("'\(text)' is not a reactor address: "))
      }
    }
  }

  @Test func aStepOfTheWrongKindIsRefusedWithItsLine() {
    let cases: [(String, String)] = [
      (
        #"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "action": "refresh"}"#,
        "s.jsonl:2: malformed step: a step of TaskApp's script says which reactor it goes 'to'"
      ),
      (
        #"{"t": 0, "to": "list", "action": "refresh"}"#,
        "s.jsonl:1: malformed step: 'to' addresses a reactor of an app: name the app in the "
          + "first line"
      ),
      (
        #"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "to": "list", "event": {"a": 1}}"#,
        "s.jsonl:2: malformed step: an app's script sends actions 'to' its reactors; it has no "
          + "'event' steps"
      ),
      (
        #"{"app": "TaskApp", "reactor": "x"}"#,
        "s.jsonl:1: malformed step: a script is of one reactor or of an app"
      ),
      (
        #"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "to": 3, "action": "refresh"}"#,
        "s.jsonl:2: malformed step: 'to' must be a string"
      ),
      (#"{"app": 3}"#, "s.jsonl:1: malformed step: 'app' must be a string"),
    ]
    for (text, message) in cases {
      do {
        _ = try ReactorScript(parsing: text, name: "s.jsonl")
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.description.hasPrefix(message), "\(error.description)")
      }
    }
  }

  @Test func eachRunnerRefusesTheOtherKindOfScript() async throws {
    let app = try ReactorScript(parsing: text, name: "app.jsonl")
    let clock = TestClock()
    await #expect(throws: ScriptError.self) {
      _ = try await ScriptRunner.record(app, reactor: CounterReactor(clock: clock), clock: clock)
    }
    let counter = try ReactorScript(parsing: #"{"t": 0, "action": "increase"}"#, name: "c.jsonl")
    do {
      _ = try await SessionScriptRunner.record(counter, clock: clock) { _ in clock }
      Issue.record("a reactor's script was recorded as an app's")
    } catch {
      #expect(error.description.hasPrefix("c.jsonl: it is the script of one reactor"))
    }
  }

  /// Records `script` through the task app, as its registered session factory builds it.
  private func record(_ text: String) async throws -> SessionTrace {
    let script = try ReactorScript(parsing: text, name: "taps.jsonl")
    let session = RecordedSession()
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      session.value = try await SessionScriptRunner.record(
        script, clock: clock,
        including: { $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor }
      ) { recorder in
        let app = TaskApp(clock: clock)
        recorder.record(app.list, name: "list")
        recorder.record(app.edit, name: "edit")
        app.bindViews()
        return app
      }
    }
    return try #require(session.value)
  }

  /// The task each user action on a row was sent to: the row reactor's task id.
  private func tasksOfToggledRows(in session: SessionTrace) throws -> [Int] {
    let reader = try SessionReader(bytes: session.serialized)
    var toggled: [Int] = []
    while let event = try reader.next() {
      guard case .reactor(let reactor, .action(let action)) = event.kind, action.from == nil,
        action.label == "toggle"
      else { continue }
      let introduction = try #require(session.reactors.first { $0.reactor == reactor })
      guard case .json(let state) = introduction.initialState,
        case .int(let id)? = StatePath(components: ["task", "id"]).value(in: state)
      else { throw ScriptError.recordingFailed("row \(reactor) has no task id") }
      toggled.append(Int(id))
    }
    return toggled
  }

  @Test func aPositionFollowsTheRowsWhileASelectorStaysOnItsTask() async throws {
    // Task 1 is deleted at t=200: from then on the first row shows task 2.
    let session = try await record(
      """
      {"app": "TaskApp"}
      {"t": 0, "to": "list", "action": "refresh"}
      {"t": 100, "to": "list/cells.0", "action": "toggle"}
      {"t": 100, "to": "list/cells[task.id=2]", "action": "toggle"}
      {"t": 200, "to": "list", "action": {"delete": {"id": 1}}}
      {"t": 300, "to": "list/cells.0", "action": "toggle"}
      {"t": 300, "to": "list/cells[task.id=3]", "action": "toggle"}
      """)
    #expect(try tasksOfToggledRows(in: session) == [1, 2, 2, 3])
    let replay = try StructuralReplay(session)
    while try replay.next() != nil {}
    #expect(replay.divergences.isEmpty, "\(replay.divergences)")
  }

  @Test func aNameOrPathThatReachesNoReactorStopsTheRunNamingTheStep() async throws {
    let cases: [(step: String, reason: String)] = [
      (
        #"{"t": 100, "to": "lsit", "action": "refresh"}"#,
        "no live reactor is named 'lsit'; named: edit, list"
      ),
      (
        #"{"t": 100, "to": "list/cells.3", "action": "toggle"}"#,
        "the state of 'list' has nothing at cells.3"
      ),
      (
        #"{"t": 100, "to": "list/cells", "action": "toggle"}"#,
        #"cells in the state of 'list' is [{"reactor":3},{"reactor":4},{"reactor":5}], not a "#
          + #"reference to a live reactor ({"reactor": id})"#
      ),
      (
        #"{"t": 100, "to": "list/isLoading[task.id=1]", "action": "toggle"}"#,
        "isLoading in the state of 'list' is false, not an array of reactors to select from"
      ),
      (
        #"{"t": 100, "to": "list/cells[task.isDone=false]", "action": "toggle"}"#,
        "3 reactors at cells in the state of 'list' have task.isDone = false"
      ),
      (
        #"{"t": 100, "to": "edit/title", "action": "toggle"}"#,
        #"title in the state of 'edit' is "", not a reference to a live reactor"#
      ),
    ]
    for (step, reason) in cases {
      do {
        _ = try await record(
          #"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "to": "list", "action": "refresh"}"#
            + "\n" + step)
        Issue.record("recorded: \(step)")
      } catch let error as ScriptError {
        guard case .unreachableReactor(let path, let line, let address) = error else {
          Issue.record("\(error)")
          continue
        }
        #expect(path == "taps.jsonl")
        #expect(line == 3)
        #expect(!address.isMalformed)
        #expect(address.reason.hasPrefix(reason), "\(address.reason)")
      }
    }
  }
}

/// The session a recording closure sets.
private final class RecordedSession: @unchecked Sendable {
  var value: SessionTrace?
}
