/// A task of the todo app: what a row shows and the edit screen changes.
public struct TodoTask: Codable, Equatable, Sendable {
  /// The task's identifier, assigned by the ``TodoService``: `task-1`.
  public var id: String
  /// What to do.
  public var title: String
  /// Whether the task is checked off.
  public var isDone: Bool

  /// A task.
  public init(id: String, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}
