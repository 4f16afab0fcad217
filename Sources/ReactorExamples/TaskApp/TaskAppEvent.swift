/// What ``TaskAppService`` publishes after a change, for every screen of the task app.
public enum TaskAppEvent: Codable, Equatable, Sendable {
  /// A task was created.
  case created(TaskItem)
  /// A task's title or check mark changed.
  case updated(TaskItem)
  /// A task was deleted.
  case deleted(id: Int)
}
