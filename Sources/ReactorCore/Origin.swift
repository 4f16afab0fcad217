/// Where an action or a mutation came from: the causality a trace records.
public enum Origin: Hashable, Sendable {
  /// An action sent with ``Reactor/send(_:)``.
  case sent
  /// An action sent from outside the app through a live recording's control (issue 43):
  /// the page (`"page"`) or a client (`"client"`), as ``ReactorRuntime/send(_:from:)`` says.
  case external(String)
  /// An element of a named external stream merged in a `transform` hook.
  case stream(String)
  /// A mutation emitted synchronously by `mutate(action:)` for the action with this id.
  case action(Int)
  /// A mutation sent by an async effect, with the effect's id and its action's id.
  case effect(Int, action: Int)
}

/// How an async effect ended.
public enum EffectOutcome: Sendable {
  /// The body returned.
  case finished
  /// The effect was cancelled (by id, by `cancelInFlight`, or because the reactor went away).
  case cancelled
  /// The body threw; the message is the error's description.
  case failed(String)
}
