/// A change the ``TodoService`` made, published on its ``TodoService/events``.
public enum TodoEvent: Codable, Equatable, Sendable {
  /// A task was created.
  case created(TodoTask)
  /// A task was changed.
  case updated(TodoTask)
  /// The task with this id was deleted.
  case deleted(id: String)
}
