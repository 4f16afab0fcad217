import ReactorCore

/// The todo app wired as it runs, ported from RxTodo: a list of sections of `Codable` row
/// reactors over a shared service, and the edit screens the list creates on demand, which
/// the app presents and releases when they are dismissed (a save may still be in flight).
///
/// Its view loads the list when it appears: ``viewDidLoad()`` sends `refresh`, so a session
/// factory that builds the app sends that action, and replays do not send it again.
///
/// ```swift
/// recorder.name(TodoListReactor.self, "list")
/// recorder.name(TodoEditReactor.self, "edit")   // each screen presented, when it appears
/// let app = TodoApp(clock: clock)
/// app.viewDidLoad()
/// ```
@MainActor
public final class TodoApp {
  /// The shared service.
  public let service: TodoService
  /// The list screen.
  public let list: TodoListReactor
  /// The edit screen presented now, if any.
  public private(set) var presented: TodoEditReactor?
  private var listBinding: Subscription?
  private var editBinding: Subscription?
  private var presentedBinding: Subscription?
  private var rowBindings: [Subscription] = []

  /// The app over a fresh service holding the sample tasks, answering on `clock`.
  public init(clock: any Clock<Duration>) {
    service = TodoService(clock: clock)
    list = TodoListReactor(service: service)
  }

  /// Binds the list's view and loads it, as its `viewDidLoad` does: rows are bound as they
  /// appear, each edit screen the list asks for is created and presented, and `refresh` is
  /// sent.
  public func viewDidLoad() {
    listBinding = list.state.observe { [weak self] state in
      self?.rowBindings = state.sections.flatMap(\.items).map { $0.state.observe { _ in } }
    }
    editBinding = list.pulse(\.$editing).observe { [weak self] request in
      guard let self, let request else { return }
      present(request.map(list.reactorForEditingTask) ?? list.reactorForCreatingTask())
    }
    list.send(.refresh)
  }

  /// Presents `screen` until it is dismissed: then the app lets it go.
  private func present(_ screen: TodoEditReactor) {
    presented = screen
    presentedBinding = screen.state.observe { [weak self, weak screen] state in
      guard state.isDismissed, let self, self.presented === screen else { return }
      self.presented = nil
      self.presentedBinding = nil
    }
  }
}
