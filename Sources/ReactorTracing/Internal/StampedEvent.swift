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
    case effectStarted(Int, action: Int, name: String?)
    case effectEnded(Int, EffectOutcome)
    case mutation(Mutation, id: Int, origin: Origin, state: State)
    case streamEnded(String, error: String?)
    case end(observed: Int, dropped: Int)
  }
}
