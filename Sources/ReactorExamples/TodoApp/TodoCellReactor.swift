public import ReactorCore

/// One row of the todo list, as RxTodo's cells are: a `Codable` reactor whose state is its
/// task, made by the list in its mutations (`setSections`) and encoded as its content.
///
/// A list state holding these rows encodes each row inline, its content when the list's
/// state changed last: checking a row off changes the row's own state, not the list's copy.
/// A script selects rows through their own lanes (`list/sections.0.items[id=task-1]`).
public final class TodoCellReactor: Reactor, Codable {
  /// What the user does on the row.
  public enum Action: Codable, Equatable, Sendable {
    /// Checks or unchecks the task on the row.
    case toggle
  }

  /// How the row changes.
  public enum Mutation: Codable, Equatable, Sendable {
    /// The check mark.
    case setDone(Bool)
  }

  /// The row's task as it was given.
  public let initialState: TodoTask
  /// The reactor's pipeline.
  public let runtime: ReactorRuntime<Action, Mutation, TodoTask>

  /// A row showing `task`.
  public init(task: TodoTask) {
    initialState = task
    runtime = ReactorRuntime()
  }

  /// A row decoded from its content, on the main actor: a new reactor showing the task.
  public nonisolated init(from decoder: any Decoder) throws {
    initialState = try TodoTask(from: decoder)
    runtime = MainActor.assumeIsolated { ReactorRuntime() }
  }

  /// Encodes the row as its content, the task it shows now.
  public nonisolated func encode(to encoder: any Encoder) throws {
    try MainActor.assumeIsolated { currentState }.encode(to: encoder)
  }

  /// Toggles the check mark.
  public func mutate(action: Action) -> Effect<Mutation> {
    .just(.setDone(!currentState.isDone))
  }

  /// Applies a mutation.
  public func reduce(state: TodoTask, mutation: Mutation) -> TodoTask {
    var state = state
    switch mutation {
    case .setDone(let isDone): state.isDone = isDone
    }
    return state
  }
}
