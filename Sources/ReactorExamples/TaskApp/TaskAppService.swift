public import ReactorCore

/// The task app's shared service: it stores the tasks, takes changes after a latency, and
/// publishes each change on ``events``, which the list and its cells merge in
/// `transform(mutation:)` (ReactorKit's global-event pattern).
@MainActor
public final class TaskAppService {
  /// The changes, published after they are made.
  public let events = Relay<TaskAppEvent>()
  /// The stored tasks.
  public private(set) var tasks: [TaskItem]
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// A service holding `tasks`, answering after `latency` on `clock`.
  public init(
    tasks: [TaskItem] = TaskService.sampleTasks, clock: any Clock<Duration>,
    latency: Duration = .milliseconds(100)
  ) {
    self.tasks = tasks
    self.clock = clock
    self.latency = latency
  }

  /// The stored tasks, after the latency.
  public func fetch() async throws -> [TaskItem] {
    try await clock.sleep(for: latency)
    return tasks
  }

  /// Creates a task titled `title` and publishes ``TaskAppEvent/created(_:)``.
  public func create(title: String) async throws {
    try await clock.sleep(for: latency)
    let task = TaskItem(id: (tasks.map(\.id).max() ?? 0) + 1, title: title)
    tasks.append(task)
    events.accept(.created(task))
  }

  /// Replaces the task with `task`'s id and publishes ``TaskAppEvent/updated(_:)``.
  public func update(_ task: TaskItem) async throws {
    try await clock.sleep(for: latency)
    if let index = tasks.firstIndex(where: { $0.id == task.id }) { tasks[index] = task }
    events.accept(.updated(task))
  }

  /// Deletes the task with `id` and publishes ``TaskAppEvent/deleted(id:)``.
  public func delete(id: Int) async throws {
    try await clock.sleep(for: latency)
    tasks.removeAll { $0.id == id }
    events.accept(.deleted(id: id))
  }
}
