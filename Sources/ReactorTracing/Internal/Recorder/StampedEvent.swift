import ReactorCore

/// What a recorder captures on the reactor's actor.
///
/// The monitor's call as typed values, with its sequence number and time. Encoding happens later, off the reactor's actor.
struct StampedEvent<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  var sequence: Int
  var time: Duration
  var event: Raw

  enum Raw: Sendable {
    case action(Action, id: Int, origin: Origin)
    case effectStarted(TraceEvent.EffectStart)
    case effectEnded(Int, EffectOutcome)
    case mutation(
      Mutation, id: Int, origin: Origin, state: State, publisher: TraceEvent.Publisher? = nil)
    case streamEnded(String, error: String?)
    case jump(State, target: Int, external: String)
    case gap(dropped: Int)
    case end(observed: Int, dropped: Int, running: [TraceEvent.EffectStart])
  }
}

extension StampedEvent {
  /// The event for a captured one without payloads (any kind but an action or a mutation).
  init(_ captured: CapturedEvent) {
    let event: Raw =
      switch captured.kind {
      case .effectStarted(let start): .effectStarted(start)
      case .effectEnded(let effect, let outcome): .effectEnded(effect, outcome)
      case .streamEnded(let name, let error): .streamEnded(name, error: error)
      case .jump(let state, let target, let external):
        // Boxed by the monitor of this same State type.
        .jump(state.value as! State, target: target, external: external)
      case .gap(let dropped): .gap(dropped: dropped)
      case .end(let observed, let dropped, let running):
        .end(observed: observed, dropped: dropped, running: running)
      case .action, .mutation: preconditionFailure("an action or mutation needs its values")
      }
    self.init(sequence: captured.sequence, time: captured.time, event: event)
  }
}
