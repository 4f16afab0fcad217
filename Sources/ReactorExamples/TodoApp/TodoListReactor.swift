public import ReactorCore

/// The todo app's list, ported from RxTodo: sections of rows (one ``TodoCellReactor`` each,
/// made in its mutations), kept in sync with the service's events, and the edit screens it
/// creates on demand for "add" and for a selected row.
///
/// The rows are addressed by index path, as a table view gives them: an index path past the
/// rows traps, as `sections[0].items[5]` does in the app.
public final class TodoListReactor: Reactor {
  /// What the user does on the list.
  public enum Action: Codable, Equatable, Sendable {
    /// Loads the tasks: sent by the view when it loads.
    case refresh
    /// Taps "add": presents the screen that creates a task.
    case addTask
    /// Taps the row at an index path (`[section, item]`): presents its edit screen.
    case selectTask([Int])
    /// Deletes the task on the row at an index path.
    case deleteTask([Int])
  }

  /// How the list changes.
  public enum Mutation: Codable, Sendable {
    /// The sections, each row a reactor.
    case setSections([TodoSection])
    /// A row added at the end of the first section.
    case insertSectionItem(TodoCellReactor)
    /// The row of a changed task made again.
    case updateSectionItem(TodoTask)
    /// The row at an index path removed.
    case deleteSectionItem([Int])
    /// An edit screen to present: `nil` to create a task, else the task to edit.
    case present(TodoTask?)
  }

  /// The list.
  public struct State: Codable, Sendable {
    /// The sections of rows, each row encoded as its content.
    public var sections = [TodoSection(header: "Tasks", items: [])]
    /// The edit screen to present, once per request: `nil` to create a task.
    @Pulse public var editing: TodoTask?? = nil
  }

  /// One empty section.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let service: TodoService

  /// A list over `service`.
  public init(service: TodoService) {
    self.service = service
  }

  /// The edit screen for a new task, as the view presents it on "add".
  public func reactorForCreatingTask() -> TodoEditReactor {
    TodoComposeReactor(service: service)
  }

  /// The edit screen of `task`, as the view presents it on a tapped row.
  public func reactorForEditingTask(_ task: TodoTask) -> TodoEditReactor {
    TodoEditReactor(service: service, task: task)
  }

  /// Turns an action into service requests and presentations.
  public func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .refresh:
      return .run(id: "refresh", cancelInFlight: true, name: "fetch tasks") { send in
        let tasks = try await service.fetch()
        send(.setSections([TodoSection(header: "Tasks", items: tasks.map(TodoCellReactor.init))]))
      }
    case .addTask:
      return .just(.present(nil))
    case .selectTask(let indexPath):
      return .just(.present(currentState.sections[indexPath[0]].items[indexPath[1]].currentState))
    case .deleteTask(let indexPath):
      let id = currentState.sections[indexPath[0]].items[indexPath[1]].currentState.id
      return .run(name: "delete") { _ in try await service.delete(id: id) }
    }
  }

  /// Merges the service's changes into the mutations.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(
      service.events.flow(name: "taskService").compactMap { [weak self] event in
        switch event {
        case .created(let task): return .insertSectionItem(TodoCellReactor(task: task))
        case .updated(let task): return .updateSectionItem(task)
        case .deleted(let id):
          guard let self, let path = self.indexPath(of: id) else { return nil }
          return .deleteSectionItem(path)
        }
      })
  }

  /// The index path of the row showing the task with `id`.
  private func indexPath(of id: String) -> [Int]? {
    for (section, rows) in currentState.sections.enumerated() {
      if let item = rows.items.firstIndex(where: { $0.initialState.id == id }) {
        return [section, item]
      }
    }
    return nil
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setSections(let sections):
      state.sections = sections
    case .insertSectionItem(let cell):
      state.sections[0].items.append(cell)
    case .updateSectionItem(let task):
      for section in state.sections.indices {
        for item in state.sections[section].items.indices
        where state.sections[section].items[item].initialState.id == task.id {
          state.sections[section].items[item] = TodoCellReactor(task: task)
        }
      }
    case .deleteSectionItem(let indexPath):
      state.sections[indexPath[0]].items.remove(at: indexPath[1])
    case .present(let task):
      state.editing = task
    }
    return state
  }
}
