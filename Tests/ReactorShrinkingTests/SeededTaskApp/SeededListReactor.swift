import ReactorCore
import ReactorExamples

/// The seeded bug's list: a copy of `TaskAppListReactor` whose refresh keeps the rows it
/// already shows (the seeded bug: a kept row keeps the position it had, which a fetch after a
/// delete has moved).
final class SeededListReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case refresh
    case delete(id: Int)
  }

  enum Mutation: Sendable {
    case setLoading(Bool)
    case setTasks([TaskItem])
    case remove(id: Int)
  }

  struct State: Encodable, Sendable {
    var cells: [Cell] = []
    var isLoading = false
  }

  /// A row: its reactor, recorded as a reference to its lane.
  struct Cell: Encodable, Sendable {
    let reactor: SeededCellReactor
    let reference: ReactorReference

    @MainActor init(task: TaskItem, row: Int, service: SeededTaskService) {
      reactor = SeededCellReactor(task: task, row: row, service: service)
      reference = ReactorReference(reactor)
    }

    func encode(to encoder: any Encoder) throws {
      try reference.encode(to: encoder)
    }
  }

  let initialState = State()
  let runtime = Runtime()
  private let service: SeededTaskService

  init(service: SeededTaskService) {
    self.service = service
  }

  func mutate(action: Action) -> Effect<Mutation> {
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

  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(
      service.events.flow(name: "taskService").compactMap { event in
        if case .deleted(let id) = event { .remove(id: id) } else { nil }
      })
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading):
      state.isLoading = isLoading
    case .setTasks(let tasks):
      // The seeded bug: a row already shown is kept as it is, with the row it had.
      state.cells = tasks.enumerated().map { row, task in
        state.cells.first { $0.reactor.initialState.task.id == task.id }
          ?? Cell(task: task, row: row, service: service)
      }
    case .remove(let id):
      state.cells.removeAll { $0.reactor.initialState.task.id == id }
    }
    return state
  }
}
