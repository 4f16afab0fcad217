public import ReactorCore

/// The task app's list: one ``TaskCellReactor`` per row, held in its state as ReactorKit apps
/// with RxDataSources hold them, kept in sync with the service's events.
///
/// Rows are created in `reduce` when tasks arrive or are created, and dropped (so released)
/// when their task is deleted.
public final class TaskAppListReactor: Reactor {
  /// What the user does on the list.
  public enum Action: Codable, Equatable, Sendable {
    /// Loads the tasks.
    case refresh
    /// Deletes the task with this id.
    case delete(id: Int)
  }

  /// How the list changes.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Loading started or ended.
    case setLoading(Bool)
    /// The tasks, one row each.
    case setTasks([TaskItem])
    /// A task was created.
    case insert(TaskItem)
    /// A task was deleted.
    case remove(id: Int)
  }

  /// The list: its rows, each a reactor.
  public struct State: Encodable, Sendable {
    /// One row per task, in order.
    public var cells: [Cell] = []
    /// Whether tasks are loading.
    public var isLoading = false

    /// The tasks of the rows, as the rows show them.
    @MainActor public var tasks: [TaskItem] { cells.map(\.reactor.currentState.task) }
  }

  /// A row: its reactor, and the reference a recorded state stores in its place.
  public struct Cell: Encodable, Sendable {
    /// The row's reactor.
    public let reactor: TaskCellReactor
    /// Made with the row, on the main actor, so that encoding the state (on whatever thread
    /// a recorder encodes it) never reaches into the row's reactor.
    public let reference: ReactorReference

    /// A row showing `task`.
    @MainActor init(task: TaskItem, service: TaskAppService) {
      reactor = TaskCellReactor(task: task, service: service)
      reference = ReactorReference(reactor)
    }

    /// Encodes the row as its reference: `{"reactor": 3}`.
    public func encode(to encoder: any Encoder) throws {
      try reference.encode(to: encoder)
    }
  }

  /// No rows, not loading.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let service: TaskAppService

  /// A list over `service`.
  public init(service: TaskAppService) {
    self.service = service
  }

  /// Turns an action into service requests: `refresh` fetches the tasks, `delete` deletes one.
  public func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .refresh:
      return .run(id: "refresh", cancelInFlight: true, name: "fetch tasks") { send in
        send(.setLoading(true))
        defer { send(.setLoading(false)) }
        send(.setTasks(try await service.fetch()))
      }
    case .delete(let id):
      return .run(name: "delete") { _ in try await service.delete(id: id) }
    }
  }

  /// Merges the service's created and deleted tasks into the mutations.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(
      service.events.flow(name: "taskService").compactMap { event in
        switch event {
        case .created(let task): .insert(task)
        case .deleted(let id): .remove(id: id)
        case .updated: nil
        }
      })
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading):
      state.isLoading = isLoading
    case .setTasks(let tasks):
      state.cells = tasks.map { Cell(task: $0, service: service) }
    case .insert(let task):
      state.cells.append(Cell(task: task, service: service))
    case .remove(let id):
      state.cells.removeAll { $0.reactor.initialState.task.id == id }
    }
    return state
  }
}
