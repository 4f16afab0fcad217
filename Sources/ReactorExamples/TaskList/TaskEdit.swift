/// A change to the task store, as any screen (or another device) asks the ``TaskService`` for
/// it.
///
/// Scripts use edits for changes made outside the recorded screen:
/// `{"t": 900, "event": {"create": {"title": "Reply to review"}}}`.
public enum TaskEdit: Codable, Equatable, Sendable {
  /// Adds a task with this title.
  case create(title: String)
  /// Checks or unchecks a task.
  case setDone(id: Int, isDone: Bool)
  /// Removes a task.
  case delete(id: Int)
}
