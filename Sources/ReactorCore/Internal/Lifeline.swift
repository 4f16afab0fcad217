/// How work arriving later (an effect's `send`, a subscription's cancel, a stub update)
/// reaches a runtime safely without a weak reference to the runtime itself.
///
/// A weak reference gives its target a side table, which puts every later retain and release
/// of that object on the slow path; the runtime is retained on every action, so it must have
/// none. The lifeline holds the reactor weakly instead: while the reactor is alive it owns
/// the runtime, so the runtime is alive too, and `withRuntime` keeps the reactor alive for
/// the duration of the work (the pipeline calls `mutate` and `reduce` on it unretained).
@usableFromInline
@MainActor
struct Lifeline<Action: Sendable, Mutation: Sendable, State: Sendable> {
  @usableFromInline weak var reactor: AnyObject?
  @usableFromInline unowned(unsafe) let runtime: ReactorRuntime<Action, Mutation, State>

  @usableFromInline
  init(reactor: AnyObject?, runtime: ReactorRuntime<Action, Mutation, State>) {
    self.reactor = reactor
    self.runtime = runtime
  }

  /// Runs `body` with the runtime if the reactor is still alive, keeping it alive meanwhile.
  @inlinable
  func withRuntime(_ body: (ReactorRuntime<Action, Mutation, State>) -> Void) {
    guard let reactor else { return }
    body(runtime)
    // Not `withExtendedLifetime(reactor) { … }`: a closure handed to the standard library is
    // checked for main-actor isolation on every call.
    extendLifetime(reactor)
  }
}
