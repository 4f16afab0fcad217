public import ReactorCore

/// The todo app's shared service: it stores the tasks, answers after a latency, and publishes
/// each change on ``events``, which the list merges in `transform(mutation:)`.
@MainActor
public final class TodoService {
  /// The changes, published after they are made.
  public let events = Relay<TodoEvent>()
  /// The stored tasks.
  public private(set) var tasks: [TodoTask]
  private var lastID: Int
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// Three tasks the app starts with.
  public static let sampleTasks = [
    TodoTask(id: "task-1", title: "Port the app"),
    TodoTask(id: "task-2", title: "Record a session"),
    TodoTask(id: "task-3", title: "Replay it"),
  ]

  /// A service holding `tasks`, answering after `latency` on `clock`.
  public init(
    tasks: [TodoTask] = TodoService.sampleTasks, clock: any Clock<Duration>,
    latency: Duration = .milliseconds(50)
  ) {
    self.tasks = tasks
    lastID = tasks.count
    self.clock = clock
    self.latency = latency
  }

  /// The stored tasks, after the latency.
  public func fetch() async throws -> [TodoTask] {
    try await clock.sleep(for: latency)
    return tasks
  }

  /// Whether `title` is free (no task has it), after four times the latency.
  public func accepts(title: String) async throws -> Bool {
    try await clock.sleep(for: latency * 4)
    return !title.isEmpty && !tasks.contains { $0.title == title }
  }

  /// Creates a task titled `title` and publishes ``TodoEvent/created(_:)``.
  public func create(title: String) async throws {
    try await clock.sleep(for: latency)
    lastID += 1
    let task = TodoTask(id: "task-\(lastID)", title: title)
    tasks.append(task)
    events.accept(.created(task))
  }

  /// Replaces the task with `task`'s id and publishes ``TodoEvent/updated(_:)``.
  public func update(_ task: TodoTask) async throws {
    try await clock.sleep(for: latency)
    if let index = tasks.firstIndex(where: { $0.id == task.id }) { tasks[index] = task }
    events.accept(.updated(task))
  }

  /// Deletes the task with `id` and publishes ``TodoEvent/deleted(id:)``.
  public func delete(id: String) async throws {
    try await clock.sleep(for: latency)
    tasks.removeAll { $0.id == id }
    events.accept(.deleted(id: id))
  }
}
