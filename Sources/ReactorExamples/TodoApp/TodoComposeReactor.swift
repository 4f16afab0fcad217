/// The todo app's screen for a new task: the edit screen whose save creates the task.
public final class TodoComposeReactor: TodoEditReactor {
  /// A screen creating a task through `service`.
  public init(service: TodoService) {
    super.init(service: service, task: nil)
  }

  /// How a title is saved: a task created with it.
  override func saving() -> @MainActor @Sendable (String) async throws -> Void {
    let service = self.service
    return { title in try await service.create(title: title) }
  }
}
