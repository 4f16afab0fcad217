/// A task on the list, with its check mark (seed 002's `Task`, renamed so it does not hide
/// Swift's `Task`).
public struct TaskItem: Codable, Equatable, Identifiable, Sendable {
  /// The task's identifier, assigned by the ``TaskService``.
  public var id: Int
  /// What to do.
  public var title: String
  /// Whether the task is checked off.
  public var isDone: Bool

  /// A task.
  public init(id: Int, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}
