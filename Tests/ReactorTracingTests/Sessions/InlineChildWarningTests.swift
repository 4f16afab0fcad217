import Clocks
import ReactorCore
import ReactorExamples
import ReactorJSON
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// A state that holds a `Codable` child reactor inline, as its content, gets one warning per
  /// parent type pointing to `ReactorReference`; a state that holds references does not.
  @MainActor
  @Suite struct InlineChildWarnings {
    @Test func theTodoListWarnsOnceThatItHoldsItsRowsInline() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: clock),
          including: { $0 is TodoListReactor || $0 is TodoCellReactor || $0 is TodoEditReactor })
        defer { recorder.stop() }
        // Two apps: two lists of the same type (reactors 1 and 2), each with its rows inline.
        let apps = [TodoApp(clock: clock), TodoApp(clock: clock)]
        for app in apps { app.viewDidLoad() }
        await clock.advance(by: .milliseconds(100))
        // A row added later is a new inline child of a list type already reported.
        apps[0].list.send(.addTask)
        let compose = try #require(apps[0].presented)
        compose.send(.updateTitle("Buy milk"))
        compose.send(.submit)
        await clock.advance(by: .milliseconds(500))
        #expect(recorder.session.reactors.filter { $0.shortType == "TodoCellReactor" }.count == 7)
        #expect(
          recorder.warnings == [
            .inlineChildReactor(
              parentType: "ReactorExamples.TodoListReactor",
              childType: "ReactorExamples.TodoCellReactor", child: 3,
              path: StatePath(components: ["sections", "0", "items", "0"]))
          ])
        #expect(
          recorder.warnings.first?.description
            == "TodoListReactor holds its child TodoCellReactor inline: its recorded state has "
            + "reactor 3's state at sections.0.items.0, a copy that goes stale as the child "
            + #"changes; hold a ReactorReference there, recorded as {"reactor": 3}, the "#
            + "child's own lane (README.md, 'Recording a whole app')")
        withExtendedLifetime(apps) {}
      }
    }

    @Test func theTaskAppWhoseListHoldsReferencesDoesNotWarn() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: clock),
          including: { $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor })
        defer { recorder.stop() }
        let app = TaskApp(clock: clock)
        recorder.record(app.list, name: "list")
        recorder.record(app.edit, name: "edit")
        app.bindViews()
        app.list.send(.refresh)
        await clock.advance(by: .milliseconds(100))
        #expect(recorder.session.reactors.count == 5)
        #expect(recorder.warnings.isEmpty)
        withExtendedLifetime(app) {}
      }
    }

    @Test func eachParentTypeWarnsOnceWhereverItHoldsTheChild() async throws {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: TestClock()),
          including: { $0 is InlineRows || $0 is InlineDetail || $0 is CodableRow })
        defer { recorder.stop() }
        let lists = [InlineRows(), InlineRows()]
        let detail = InlineDetail()
        for list in lists {
          list.send(.load(["milk", "eggs"]))
          // Its view binds each row once the list holds it.
          for row in list.currentState.rows { _ = row.state }
        }
        detail.send(.show("bread"))
        _ = detail.currentState.row?.state
        #expect(recorder.session.reactors.count == 8)
        #expect(
          recorder.warnings.map { warning in
            guard case .inlineChildReactor(let parent, _, let child, let path) = warning else {
              return ""
            }
            return "\(parent.split(separator: ".").last ?? "") \(child) \(path)"
          } == ["InlineRows 2 rows.0", "InlineDetail 8 row"])
        withExtendedLifetime((lists, detail)) {}
      }
    }

    @Test func aCodableChildHeldAsAReferenceOrANonCodableChildCopiedDoesNotWarn()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: TestClock()),
          including: {
            $0 is ReferencedRows || $0 is CopiedRow || $0 is CodableRow || $0 is TitledRowReactor
          })
        defer { recorder.stop() }
        let list = ReferencedRows()
        list.send(.load(["milk", "eggs"]))
        for row in list.currentState.rows { _ = row.reactor.state }
        // A row that is not Codable, whose state its parent copies: data, not a reactor.
        let copier = CopiedRow()
        copier.send(.show("bread"))
        _ = copier.currentState.row?.state
        list.send(.load(["milk"]))
        #expect(recorder.session.reactors.count == 6)
        #expect(recorder.recordedState(of: 1) == ["rows": [["reactor": 6]]])
        #expect(recorder.warnings.isEmpty)
        withExtendedLifetime((list, copier)) {}
      }
    }
  }
}

/// A row that is its own content, as a `Codable` cell reactor is: encoded as its state.
@MainActor
private final class CodableRow: Reactor, Encodable {
  enum Action: Codable, Sendable {
    case toggle
  }

  struct State: Codable, Sendable {
    var title: String
    var isDone = false
  }

  let initialState: State
  let runtime = Runtime()

  init(title: String) {
    initialState = State(title: title)
  }

  nonisolated func encode(to encoder: any Encoder) throws {
    try MainActor.assumeIsolated { currentState }.encode(to: encoder)
  }

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.isDone.toggle()
    return state
  }
}

/// A list holding its rows inline, made in `reduce`.
@MainActor
private final class InlineRows: Reactor {
  enum Action: Codable, Sendable {
    case load([String])
  }

  struct State: Encodable, Sendable {
    var rows: [CodableRow] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    guard case .load(let titles) = mutation else { return state }
    return State(rows: titles.map(CodableRow.init))
  }
}

/// A screen holding one row inline, in a field.
@MainActor
private final class InlineDetail: Reactor {
  enum Action: Codable, Sendable {
    case show(String)
  }

  struct State: Encodable, Sendable {
    var title = "Detail"
    var row: CodableRow?
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    guard case .show(let title) = mutation else { return state }
    return State(title: state.title, row: CodableRow(title: title))
  }
}

/// A list holding `Codable` rows as references to their lanes.
@MainActor
private final class ReferencedRows: Reactor {
  enum Action: Codable, Sendable {
    case load([String])
  }

  /// A row and the reference its list's state records in its place.
  struct Row: Encodable, Sendable {
    let reactor: CodableRow
    let reference: ReactorReference

    @MainActor init(title: String) {
      reactor = CodableRow(title: title)
      reference = ReactorReference(reactor)
    }

    func encode(to encoder: any Encoder) throws {
      try reference.encode(to: encoder)
    }
  }

  struct State: Encodable, Sendable {
    var rows: [Row] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    guard case .load(let titles) = mutation else { return state }
    return State(rows: titles.map(Row.init))
  }
}

/// A screen holding a row that is not `Codable` and a copy of its state.
@MainActor
private final class CopiedRow: Reactor {
  enum Action: Codable, Sendable {
    case show(String)
  }

  struct State: Encodable, Sendable {
    var row: TitledRowReactor?
    var shown: TitledRowReactor.State?

    enum CodingKeys: String, CodingKey {
      case shown
    }
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    guard case .show(let title) = mutation else { return state }
    let row = TitledRowReactor(title: title)
    return State(row: row, shown: row.initialState)
  }
}
