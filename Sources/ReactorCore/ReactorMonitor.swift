/// Watches everything a reactor's pipeline does, with exact causality: the hook that traces
/// are recorded through.
///
/// Attach one with ``ReactorRuntime/monitor``; the reactor's code does not change. With no
/// monitor attached, the runtime checks one optional per event and does nothing more. All
/// calls arrive on the main actor, in the order things happened.
@MainActor
public protocol ReactorMonitor<Action, Mutation, State>: AnyObject {
  /// The reactor's action type.
  associatedtype Action: Sendable
  /// The reactor's mutation type.
  associatedtype Mutation: Sendable
  /// The reactor's state type.
  associatedtype State: Sendable

  /// An action reached `mutate(action:)`, after `transform(action:)`.
  /// - Parameters:
  ///   - action: The action.
  ///   - id: Its sequence number in this reactor, starting at 1.
  ///   - origin: ``Origin/sent``, or the external stream it came from.
  func reactorDidReceive(action: Action, id: Int, origin: Origin)

  /// An async effect started.
  /// - Parameters:
  ///   - effect: The effect's sequence number in this reactor, starting at 1.
  ///   - action: The id of the action whose `mutate` started it.
  ///   - name: The name given to ``Effect/run(id:cancelInFlight:name:_:)``.
  func reactorDidStartEffect(_ effect: Int, action: Int, name: String?)

  /// An async effect ended.
  /// - Parameters:
  ///   - effect: The effect's sequence number.
  ///   - outcome: Finished, cancelled, or failed with the error's description.
  func reactorDidEndEffect(_ effect: Int, outcome: EffectOutcome)

  /// `reduce(state:mutation:)` applied a mutation.
  /// - Parameters:
  ///   - mutation: The mutation, after `transform(mutation:)`.
  ///   - id: Its sequence number in this reactor, starting at 1.
  ///   - origin: The action or effect that emitted it, or the external stream.
  ///   - state: The state `reduce` returned.
  func reactorDidReduce(mutation: Mutation, id: Int, origin: Origin, state: State)

  /// A named external stream merged in a `transform` hook ended.
  /// - Parameters:
  ///   - name: The stream's name.
  ///   - error: The description of the error it threw, or `nil` if it finished.
  func reactorStreamDidEnd(_ name: String, error: String?)
}
