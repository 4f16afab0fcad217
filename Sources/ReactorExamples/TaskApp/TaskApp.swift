import ReactorCore

/// The task app wired as it runs: one service shared by a list (one reactor per row) and an
/// edit screen, with the list's view binding each visible row.
///
/// It is the example of a session of many reactors: recording it shows the edit screen's save
/// reaching the list through the service, the rows created and released as tasks come and
/// go, and each row's toggle reaching it back through the service.
///
/// ```swift
/// let recorder = try SessionRecorder.recordingEveryReactor(options: TraceOptions(clock: clock))
/// let app = TaskApp(clock: clock)
/// recorder.record(app.list, name: "list")
/// recorder.record(app.edit, name: "edit")
/// app.bindViews()
/// app.list.send(.refresh)
/// ```
@MainActor
public final class TaskApp {
  /// The shared service.
  public let service: TaskAppService
  /// The list screen.
  public let list: TaskAppListReactor
  /// The edit screen.
  public let edit: TaskEditReactor
  private var listBinding: Subscription?
  /// The bindings of the visible rows, in the list's order, with the row each binds.
  private var rowBindings: [(cell: ObjectIdentifier, subscription: Subscription)] = []

  /// The app over a fresh service holding the sample tasks.
  /// - Parameters:
  ///   - clock: The clock the service waits on.
  ///   - editIDOffset: The edit screen's seeded bug (``TaskEditReactor/init(service:publishedIDOffset:)``); 0 in the app.
  public init(clock: any Clock<Duration>, editIDOffset: Int = 0) {
    service = TaskAppService(clock: clock)
    list = TaskAppListReactor(service: service)
    edit = TaskEditReactor(service: service, publishedIDOffset: editIDOffset)
  }

  /// The reactors scripts address by name: `list` and `edit`.
  public var namedReactors: [(name: String, reactor: AnyObject)] {
    [("list", list), ("edit", edit)]
  }

  /// The row showing the task with `id`, if the list shows it.
  public func cell(forTask id: Int) -> TaskCellReactor? {
    list.currentState.cells.first { $0.reactor.initialState.task.id == id }?.reactor
  }

  /// Binds the list's view: on every state, the visible rows are bound (their states
  /// observed) and the rows that left the list are unbound, so that they are released.
  public func bindViews() {
    _ = edit.state
    listBinding = list.state.observe { [weak self] state in
      self?.bindRows(state.cells.map(\.reactor))
    }
  }

  private func bindRows(_ cells: [TaskCellReactor]) {
    let visible = Set(cells.map(ObjectIdentifier.init))
    rowBindings.removeAll { !visible.contains($0.cell) }
    for cell in cells where !rowBindings.contains(where: { $0.cell == ObjectIdentifier(cell) }) {
      rowBindings.append((ObjectIdentifier(cell), cell.state.observe { _ in }))
    }
  }
}
