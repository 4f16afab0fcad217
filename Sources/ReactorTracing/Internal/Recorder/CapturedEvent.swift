import ReactorCore

/// What a file recorder captures on the reactor's actor, without the action, mutation and
/// state values, which travel beside it in ``PayloadBuffer``s.
///
/// It is not generic, so the monitor and the writer handle it without looking up generic type
/// metadata: in unspecialized generic code such a lookup, for every event, cost more than the
/// rest of recording it. No payload is an existential held inline (a jump's state is boxed
/// in a ``JumpedState``): that would make the event address-only, every copy and move of it
/// a call through its value witnesses.
struct CapturedEvent: Sendable {
  var sequence: Int
  var time: Duration
  var kind: Kind

  enum Kind: Sendable {
    /// An action; the value is the next one in the action buffer.
    case action(id: Int, origin: Origin)
    case effectStarted(TraceEvent.EffectStart)
    case effectEnded(Int, EffectOutcome)
    /// A mutation; it and the state are the next ones in their buffers. `publisher` is the
    /// reactor's own action and effect that published a stream's element.
    case mutation(id: Int, origin: Origin, publisher: TraceEvent.Publisher?)
    case streamEnded(String, error: String?)
    /// A jump to a recorded state (rare: the state travels with it, boxed, not in a buffer).
    case jump(state: JumpedState, target: Int, external: String)
    /// Events dropped because the writer's queue was full.
    case gap(dropped: Int)
    /// The end; `running` lists the effects still running, in the order they started.
    case end(observed: Int, dropped: Int, running: [TraceEvent.EffectStart])
  }
}

/// The state of a recorded jump, boxed in a reference so that ``CapturedEvent`` stays a
/// loadable value: the monitor of its reactor's `State` boxes it, the writer unboxes it.
final class JumpedState: Sendable {
  let value: any Sendable

  init(_ value: any Sendable) {
    self.value = value
  }
}
