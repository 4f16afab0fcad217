public import ReactorCore

/// The task store that every task screen shares (seed 002's `TaskService`).
///
/// Screens never change their own copy of a task: they ask the service, and the service
/// publishes a ``TaskEvent`` on ``events`` that every screen merges into its mutations in
/// `transform(mutation:)`. Two screens on the same service therefore stay in sync. Requests
/// take `latency` on the injected clock, as a network or database would.
@MainActor
public final class TaskService {
  /// What changed, delivered synchronously to every screen that merged it.
  public let events = Relay<TaskEvent>()
  /// The tasks in the store, in the order they were added.
  public private(set) var tasks: [TaskItem]
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// A store holding `tasks`.
  /// - Parameters:
  ///   - tasks: The tasks the store starts with.
  ///   - clock: The clock the latency is spent on.
  ///   - latency: How long each request takes.
  public init(
    tasks: [TaskItem] = TaskService.sampleTasks, clock: any Clock<Duration>,
    latency: Duration = .milliseconds(100)
  ) {
    self.tasks = tasks
    self.clock = clock
    self.latency = latency
  }

  /// The tasks seed 002 starts with.
  public nonisolated static let sampleTasks = [
    TaskItem(id: 1, title: "Write the reducer"),
    TaskItem(id: 2, title: "Record a trace"),
    TaskItem(id: 3, title: "Render the diagram"),
  ]

  /// Loads the tasks, after the latency.
  public func fetchTasks() async throws -> [TaskItem] {
    try await clock.sleep(for: latency)
    return tasks
  }

  /// Applies `edit` after the latency; the change arrives through ``events``.
  public func request(_ edit: TaskEdit) async throws {
    try await clock.sleep(for: latency)
    apply(edit)
  }

  /// Applies `edit` now and publishes what changed.
  ///
  /// An edit of a task that no longer exists changes nothing.
  public func apply(_ edit: TaskEdit) {
    switch edit {
    case .create(let title):
      let task = TaskItem(id: (tasks.map(\.id).max() ?? 0) + 1, title: title)
      tasks.append(task)
      events.accept(.created(task))
    case .setDone(let id, let isDone):
      guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
      tasks[index].isDone = isDone
      events.accept(.checked(id: id, isDone: isDone))
    case .delete(let id):
      guard tasks.contains(where: { $0.id == id }) else { return }
      tasks.removeAll { $0.id == id }
      events.accept(.deleted(id: id))
    }
  }
}
