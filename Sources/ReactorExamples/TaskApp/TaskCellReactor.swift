public import ReactorCore

/// One row of the task app's list: one reactor per task, created by ``TaskAppListReactor``.
///
/// Toggling asks the service; the row changes when the service publishes the update, as any
/// other screen's change to the same task does.
public final class TaskCellReactor: Reactor {
  /// What the user does on the row.
  public enum Action: Codable, Equatable, Sendable {
    /// Checks or unchecks the task.
    case toggle
  }

  /// How the row changes.
  public enum Mutation: Codable, Equatable, Sendable {
    /// The task as the service now has it.
    case setTask(TaskItem)
  }

  /// The row.
  public struct State: Codable, Equatable, Sendable {
    /// The task shown.
    public var task: TaskItem
  }

  /// The row's task as it was given.
  public let initialState: State
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let service: TaskAppService

  /// A row showing `task`.
  public init(task: TaskItem, service: TaskAppService) {
    initialState = State(task: task)
    self.service = service
  }

  /// Toggles the task through the service; the row changes when the service says so.
  public func mutate(action: Action) -> Effect<Mutation> {
    var task = currentState.task
    task.isDone.toggle()
    let service = self.service
    return .run(name: "toggle") { _ in try await service.update(task) }
  }

  /// Merges the service's updates of this row's task into the mutations.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    let id = initialState.task.id
    return mutation.merge(
      service.events.flow(name: "taskService").compactMap { event in
        guard case .updated(let task) = event, task.id == id else { return nil }
        return .setTask(task)
      })
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    switch mutation {
    case .setTask(let task): State(task: task)
    }
  }
}
