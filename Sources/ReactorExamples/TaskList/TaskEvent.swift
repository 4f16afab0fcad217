/// What changed in the ``TaskService``'s store, published to every screen that shows tasks.
public enum TaskEvent: Codable, Equatable, Sendable {
  /// A task was added.
  case created(TaskItem)
  /// A task was checked or unchecked.
  case checked(id: Int, isDone: Bool)
  /// A task was removed.
  case deleted(id: Int)
}
