public import ReactorCore

/// The task list screen, rendered as text: one row per task with its check mark.
public final class TaskListView: TextView {
  /// The view's reactor and bindings.
  public let binding = ViewBinding<TaskListReactor>()
  /// The rows, `[x] Record a trace`, in order.
  public private(set) var rows: [String] = []
  /// Whether the refresh spinner is visible.
  public private(set) var isRefreshing = false
  private var taskIDs: [Int] = []

  /// An empty view; assign ``reactor`` to bind it.
  public init() {}

  /// Binds the rows and the spinner.
  public func bind(reactor: TaskListReactor) {
    reactor.state.map(\.tasks).removeDuplicates()
      .observe { [weak self] tasks in
        self?.taskIDs = tasks.map(\.id)
        self?.rows = tasks.map { "[\($0.isDone ? "x" : " ")] \($0.title)" }
      }
      .store(in: subscriptions)
    reactor.state.map(\.isLoading).removeDuplicates()
      .observe { [weak self] in self?.isRefreshing = $0 }
      .store(in: subscriptions)
  }

  /// The user pulled to refresh.
  public func pullToRefresh() { reactor?.send(.refresh) }

  /// The user tapped the row at `index`: toggles its check mark.
  public func tapRow(at index: Int) {
    guard taskIDs.indices.contains(index) else { return }
    reactor?.send(.toggle(id: taskIDs[index]))
  }

  /// The user swiped the row at `index` away.
  public func deleteRow(at index: Int) {
    guard taskIDs.indices.contains(index) else { return }
    reactor?.send(.delete(id: taskIDs[index]))
  }

  /// The screen as text: the rows joined by `; `, or `(no tasks)`, with `(refreshing)`.
  public var text: String {
    var text = rows.isEmpty ? "(no tasks)" : rows.joined(separator: "; ")
    if isRefreshing { text += " (refreshing)" }
    return text
  }
}
