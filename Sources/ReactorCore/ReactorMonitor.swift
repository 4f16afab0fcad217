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

  /// An async effect started, with the cancellation identity `mutate` gave it.
  ///
  /// The runtime calls this one; by default it calls
  /// ``reactorDidStartEffect(_:action:name:)``, so a monitor that does not record the
  /// identity implements only that.
  /// - Parameters:
  ///   - effect: The effect's sequence number in this reactor, starting at 1.
  ///   - action: The id of the action whose `mutate` started it.
  ///   - name: The name given to ``Effect/run(id:cancelInFlight:name:_:)``.
  ///   - id: The identifier given to it, which ``Effect/cancel(id:)`` and `cancelInFlight`
  ///     match.
  ///   - cancelsInFlight: Whether starting it cancelled running work with the same `id`.
  func reactorDidStartEffect(
    _ effect: Int, action: Int, name: String?, id: AnyHashable?, cancelsInFlight: Bool)

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

  /// An action reached `mutate(action:)` in a reactor a session records
  /// (``ReactorRuntime/sessionID`` set), with the activity of another reactor that caused it.
  ///
  /// The default calls ``reactorDidReceive(action:id:origin:)``, dropping `from`.
  /// - Parameters:
  ///   - action: The action.
  ///   - id: Its sequence number in this reactor.
  ///   - origin: ``Origin/sent``, or the external stream it came from.
  ///   - from: What ran when the action was sent or the stream element published; `nil`
  ///     for an action from outside every recorded reactor.
  func reactorDidReceive(action: Action, id: Int, origin: Origin, from: ReactorActivity?)

  /// `reduce` applied a mutation in a reactor a session records, or whose runtime
  /// ``ReactorRuntime/tracksOwnActivity``, with the activity that published the stream
  /// element it was made from.
  ///
  /// When that activity names this reactor (``ReactorRuntime/activityID``), the element was
  /// published by this reactor's own action or effect.
  ///
  /// The default calls ``reactorDidReduce(mutation:id:origin:state:)``, dropping `from`.
  /// - Parameters:
  ///   - mutation: The mutation.
  ///   - id: Its sequence number in this reactor.
  ///   - origin: The action or effect that emitted it, or the external stream.
  ///   - state: The state `reduce` returned.
  ///   - from: For a stream's mutation, what ran when the element was published.
  func reactorDidReduce(
    mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?)

  /// The reactor's state was set from outside the app (``Reactor/jump(to:event:from:)``):
  /// later mutations reduce from it.
  ///
  /// The default does nothing.
  /// - Parameters:
  ///   - state: The state it now holds.
  ///   - event: The `seq` of the recorded event whose state it is.
  ///   - source: Who asked for it: `"page"` or `"client"`.
  func reactorDidJump(to state: State, event: Int, from source: String)
}

extension ReactorMonitor {
  /// Calls ``reactorDidReceive(action:id:origin:)``.
  public func reactorDidReceive(
    action: Action, id: Int, origin: Origin, from: ReactorActivity?
  ) {
    reactorDidReceive(action: action, id: id, origin: origin)
  }

  /// Calls ``reactorDidReduce(mutation:id:origin:state:)``.
  public func reactorDidReduce(
    mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    reactorDidReduce(mutation: mutation, id: id, origin: origin, state: state)
  }

  /// Does nothing.
  public func reactorDidJump(to state: State, event: Int, from source: String) {}

  /// Calls ``reactorDidStartEffect(_:action:name:)``.
  public func reactorDidStartEffect(
    _ effect: Int, action: Int, name: String?, id: AnyHashable?, cancelsInFlight: Bool
  ) {
    reactorDidStartEffect(effect, action: action, name: name)
  }
}
