import ReactorCore
import ReactorExamples

/// The seeded bug's row: a copy of `TaskCellReactor` that shows a toggle at once and asks the
/// service to flip the task at its row.
final class SeededCellReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case toggle
  }

  enum Mutation: Codable, Equatable, Sendable {
    /// The user's toggle, shown at once: the task and what the user expects it to be.
    case toggled(TaskItem)
    /// The service's copy of the task.
    case setTask(TaskItem)
  }

  struct State: Codable, Equatable, Sendable {
    var task: TaskItem
    /// Whether the user left the task done: every toggle of this row flips it.
    var expectedDone: Bool
  }

  let initialState: State
  let runtime = Runtime()
  private let service: SeededTaskService
  private let row: Int

  init(task: TaskItem, row: Int, service: SeededTaskService) {
    initialState = State(task: task, expectedDone: task.isDone)
    self.row = row
    self.service = service
  }

  func mutate(action: Action) -> Effect<Mutation> {
    var task = currentState.task
    task.isDone.toggle()
    let service = self.service
    let row = self.row
    return .concat([
      .just(.toggled(task)), .run(name: "toggle") { _ in try await service.toggle(row: row) },
    ])
  }

  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    let id = initialState.task.id
    return mutation.merge(
      service.events.flow(name: "taskService").compactMap { event in
        guard case .updated(let task) = event, task.id == id else { return nil }
        return .setTask(task)
      })
  }

  func reduce(state: State, mutation: Mutation) -> State {
    switch mutation {
    case .toggled(let task): State(task: task, expectedDone: task.isDone)
    case .setTask(let task): State(task: task, expectedDone: state.expectedDone)
    }
  }
}
