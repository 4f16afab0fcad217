import ReactorCore
import ReactorExamples

/// The seeded bug's service: a copy of `TaskAppService` whose rows are positions.
///
/// A delete leaves a tombstone (the row keeps its place), a fetch drops the tombstones, and a
/// toggle names its task by row. While the list's rows are the service's, that is right.
@MainActor
final class SeededTaskService {
  /// Tasks changed here, for the reactors.
  let events = Relay<TaskAppEvent>()
  /// The tasks by row; `nil` for a deleted one not fetched past yet.
  private(set) var rows: [TaskItem?] = [
    TaskItem(id: 1, title: "Write the reducer"), TaskItem(id: 2, title: "Record a trace"),
    TaskItem(id: 3, title: "Render the diagram"), TaskItem(id: 4, title: "Ship it"),
    TaskItem(id: 5, title: "Tell the team"),
  ]
  private let clock: any Clock<Duration>

  init(clock: any Clock<Duration>) {
    self.clock = clock
  }

  /// The tasks, after 100 ms; the tombstones are dropped for good.
  func fetch() async throws -> [TaskItem] {
    try await clock.sleep(for: .milliseconds(100))
    let tasks = rows.compactMap(\.self)
    rows = tasks
    return tasks
  }

  /// Flips the task at `row`, after 100 ms.
  func toggle(row: Int) async throws {
    try await clock.sleep(for: .milliseconds(100))
    guard rows.indices.contains(row), var task = rows[row] else { return }
    task.isDone.toggle()
    rows[row] = task
    events.accept(.updated(task))
  }

  /// Deletes a task, after 100 ms: its row stays, empty, until the next fetch.
  func delete(id: Int) async throws {
    try await clock.sleep(for: .milliseconds(100))
    guard let row = rows.firstIndex(where: { $0?.id == id }) else { return }
    rows[row] = nil
    events.accept(.deleted(id: id))
  }
}

/// The first task of the seeded service, for the registry's lone row.
enum TaskItemFixture {
  static let first = TaskItem(id: 1, title: "Write the reducer")
}
