/// Owns the tasks that connected flows start, so they end with their reactor.
///
/// Sources that deliver later (tasks, relays) go through ``deliver(_:)``, which drops the
/// value once the reactor is gone and otherwise keeps it alive while the value is processed.
@usableFromInline
@MainActor
final class FlowScope {
  /// The reactor whose pipeline connected the flows.
  @usableFromInline weak var owner: AnyObject?

  private var tasks: [Int: Task<Void, Never>] = [:]
  private var nextTask = 0
  private var closeHandlers: [@MainActor () -> Void] = []
  private(set) var isClosed = false
  /// Called when a named external stream ends (with its error, if it threw).
  @usableFromInline var onStreamEnd: @MainActor (String, (any Error)?) -> Void = { _, _ in }

  /// Starts `operation` as a main-actor task owned by this scope.
  @discardableResult
  func spawn(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
    let key = nextTask
    nextTask += 1
    let task = Task { @MainActor [weak self] in
      await operation()
      self?.tasks[key] = nil
    }
    if !isClosed { tasks[key] = task } else { task.cancel() }
    return task
  }

  /// Runs `handler` when the scope closes (or now, if it already has).
  func onClose(_ handler: @escaping @MainActor () -> Void) {
    if isClosed { handler() } else { closeHandlers.append(handler) }
  }

  func streamDidEnd(_ name: String, _ error: (any Error)?) {
    deliver { onStreamEnd(name, error) }
  }

  /// Whether the pipeline's flows are being connected: what they deliver then waits.
  @usableFromInline var isConnecting = false
  /// What flows delivered while being connected (a holding relay's value, `startWith`).
  private var deliveredWhileConnecting: [@MainActor () -> Void] = []

  /// Runs `body` if the scope is open and its reactor alive, keeping the reactor alive.
  func deliver(_ body: () -> Void) {
    guard !isClosed, let owner else { return }
    body()
    extendLifetime(owner)
  }

  /// Delivers a value on subscription: as ``deliver(_:)``, but while the pipeline is being
  /// connected `body` waits until ``didConnect()``, so that it reaches a whole pipeline,
  /// after the initial state.
  func deliverOnceConnected(_ body: @escaping @MainActor () -> Void) {
    if isConnecting {
      deliveredWhileConnecting.append(body)
    } else {
      deliver(body)
    }
  }

  /// The pipeline is connected: delivers, in order, what its flows delivered meanwhile.
  @usableFromInline
  func didConnect() {
    isConnecting = false
    guard !deliveredWhileConnecting.isEmpty else { return }
    let waiting = deliveredWhileConnecting
    deliveredWhileConnecting = []
    for body in waiting { deliver(body) }
  }

  /// Cancels every task; later values are dropped.
  func close() {
    isClosed = true
    for task in tasks.values { task.cancel() }
    tasks.removeAll()
    let handlers = closeHandlers
    closeHandlers.removeAll()
    for handler in handlers { handler() }
  }
}
