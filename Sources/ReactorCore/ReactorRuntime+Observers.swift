// Observers: subscriptions to the state, and counts for leak checks.

extension ReactorRuntime {
  /// Registers an observer, replays the current state to it, and returns its subscription.
  @usableFromInline
  func observe(
    currentState: State,
    receive: @escaping @MainActor (State) -> Void,
    finish: @escaping @MainActor () -> Void
  ) -> Subscription {
    lastObserverID += 1
    let id = lastObserverID
    observers.append(Observer(id: id, receive: receive, finish: finish))
    withEmission { receive(current ?? currentState) }
    let lifeline = self.lifeline
    return Subscription {
      lifeline?.withRuntime { $0.observers.removeAll { $0.id == id } }
    }
  }

  /// The number of live state observers; useful to check that a view released its bindings.
  public var observerCount: Int { observers.count }

  /// The number of async effects in flight; useful to check that work was cancelled.
  public var runningEffectCount: Int { running.count }
}
