public import ReactorCore

/// The task list of seed 002: tasks with check marks, kept in sync with every other screen
/// through a shared ``TaskService``.
///
/// Toggling, adding or deleting a task only asks the service. The service publishes a
/// ``TaskEvent``, which `transform(mutation:)` merges into the mutations, so this list and any
/// other list (or an edit screen) on the same service show the same tasks.
public final class TaskListReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Loads the tasks.
    case refresh
    /// Checks or unchecks a task.
    case toggle(id: Int)
    /// Adds a task.
    case add(title: String)
    /// Removes a task.
    case delete(id: Int)
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Whether the list is loading.
    case setLoading(Bool)
    /// Replaces the tasks.
    case setTasks([TaskItem])
    /// Appends a task.
    case insertTask(TaskItem)
    /// Checks or unchecks a task.
    case setDone(id: Int, isDone: Bool)
    /// Removes a task.
    case removeTask(id: Int)
  }

  /// What the view shows.
  public struct State: Codable, Equatable, Sendable {
    /// The tasks, in the store's order.
    public var tasks: [TaskItem] = []
    /// Whether the list is loading.
    public var isLoading = false

    /// A state; the defaults are those of a list that has not loaded yet.
    public init(tasks: [TaskItem] = [], isLoading: Bool = false) {
      self.tasks = tasks
      self.isLoading = isLoading
    }
  }

  /// Where the list starts.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let service: TaskService

  /// A list showing the tasks of `service`.
  public init(service: TaskService) {
    self.service = service
  }

  /// Turns an action into service requests; only `refresh` changes the state directly.
  public func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .refresh:
      return .run(id: "refresh", cancelInFlight: true, name: "fetch tasks") { send in
        send(.setLoading(true))
        defer { send(.setLoading(false)) }
        send(.setTasks(try await service.fetchTasks()))
      }
    case .toggle(let id):
      guard let task = currentState.tasks.first(where: { $0.id == id }) else { return .none }
      return .run(name: "toggle") { _ in
        try await service.request(.setDone(id: id, isDone: !task.isDone))
      }
    case .add(let title):
      return .run(name: "add") { _ in try await service.request(.create(title: title)) }
    case .delete(let id):
      return .run(name: "delete") { _ in try await service.request(.delete(id: id)) }
    }
  }

  /// Merges the service's events into the mutations (seed 002's `transform(mutation:)`).
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(service.events.flow(name: "taskService").map(Self.mutation(for:)))
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setTasks(let tasks): state.tasks = tasks
    case .insertTask(let task): state.tasks.append(task)
    case .setDone(let id, let isDone):
      if let index = state.tasks.firstIndex(where: { $0.id == id }) {
        state.tasks[index].isDone = isDone
      }
    case .removeTask(let id): state.tasks.removeAll { $0.id == id }
    }
    return state
  }

  private static func mutation(for event: TaskEvent) -> Mutation {
    switch event {
    case .created(let task): .insertTask(task)
    case .checked(let id, let isDone): .setDone(id: id, isDone: isDone)
    case .deleted(let id): .removeTask(id: id)
    }
  }
}
