public import ReactorCore

/// The todo app's edit screen for an existing task.
///
/// ``TodoComposeReactor``, its subclass, creates a new one. The list creates either on demand
/// and the view presents it: no reactor's state holds it.
///
/// Typing a title starts a check of it with the service, which takes longer than a save:
/// `submit` saves, then dismisses the screen, and the app releases it while the check is
/// still in flight (the runtime cancels it). The list learns of the change from the service.
public class TodoEditReactor: Reactor {
  /// What the user does on the screen.
  public enum Action: Codable, Equatable, Sendable {
    /// Types a title.
    case updateTitle(String)
    /// Saves and dismisses.
    case submit
    /// Dismisses without saving.
    case cancel
  }

  /// How the screen changes.
  public enum Mutation: Codable, Equatable, Sendable {
    /// The title typed.
    case setTitle(String)
    /// Whether the service takes the title.
    case setValid(Bool)
    /// The screen is done.
    case dismiss
  }

  /// The screen.
  public struct State: Codable, Equatable, Sendable {
    /// The title typed.
    public var title: String
    /// Whether the service took the title, once it checked it.
    public var isValid: Bool?
    /// Whether the screen is done, to be dismissed.
    public var isDismissed = false
  }

  /// The task's title, not dismissed.
  public let initialState: State
  /// The reactor's pipeline.
  public let runtime = Runtime()
  /// The shared service.
  let service: TodoService
  /// The task edited; `nil` for a new one.
  let task: TodoTask?

  /// An edit screen of `task` (`nil`: a new task) over `service`.
  public init(service: TodoService, task: TodoTask?) {
    self.service = service
    self.task = task
    initialState = State(title: task?.title ?? "")
  }

  /// Turns an action into mutations; `submit` saves, then dismisses.
  public func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .updateTitle(let title):
      return .merge([
        .just(.setTitle(title)),
        .run(id: "check", cancelInFlight: true, name: "check title") { send in
          send(.setValid(try await service.accepts(title: title)))
        },
      ])
    case .cancel:
      return .just(.dismiss)
    case .submit:
      let title = currentState.title
      let save = saving()
      return .concat([.run(name: "save") { _ in try await save(title) }, .just(.dismiss)])
    }
  }

  /// How a title is saved: the task renamed.
  ///
  /// It holds the service, not the screen, so that the screen can go while its save runs.
  func saving() -> @MainActor @Sendable (String) async throws -> Void {
    let service = self.service
    let task = self.task
    return { title in
      guard var task else { return }
      task.title = title
      try await service.update(task)
    }
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setTitle(let title): state.title = title
    case .setValid(let isValid): state.isValid = isValid
    case .dismiss: state.isDismissed = true
    }
    return state
  }
}
