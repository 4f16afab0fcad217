/// One line of a session trace after its header: a reactor introduced or released, an event
/// of one reactor, a gap, or the end of the recording.
///
/// Sequence numbers are consecutive across every reactor and kind, from 1, and events appear
/// in the order they happened on the main actor, where every reactor runs: a session is the
/// interleaving of its reactors' lanes, each of which reads as the trace of one reactor.
public struct SessionEvent: Hashable, Sendable {
  /// The event's position in the session, from 1, consecutive across all reactors and kinds.
  /// (0 for the introduction a trace of one reactor gets when it is read as a session.)
  public var sequence: Int
  /// The time since the recording began, on the session's clock.
  public var time: Duration
  /// What happened.
  public var kind: Kind

  /// An event.
  public init(sequence: Int, time: Duration, kind: Kind) {
    self.sequence = sequence
    self.time = time
    self.kind = kind
  }

  /// An event of a trace of one reactor as a session holds it: the event of reactor 1, or
  /// the session's own gap or end.
  /// - Parameter event: The trace's event.
  init(_ event: TraceEvent) {
    let kind: Kind
    switch event.kind {
    case .gap(let gap):
      kind = .gap(gap)
    case .end(let end):
      kind = .end(
        End(
          observedEvents: end.observedEvents, droppedEvents: end.droppedEvents,
          runningEffects: end.runningEffects.map { RunningEffect(reactor: 1, start: $0) }))
    default:
      kind = .reactor(1, event.kind)
    }
    self.init(sequence: event.sequence, time: event.time, kind: kind)
  }

  /// The event as a trace of one reactor holds it, its reactor left out; `nil` for an
  /// introduction or a release.
  package var traceEvent: TraceEvent? {
    let kind: TraceEvent.Kind
    switch self.kind {
    case .introduced, .released: return nil
    case .reactor(_, let reactorKind): kind = reactorKind
    case .gap(let gap): kind = .gap(gap)
    case .end(let end):
      kind = .end(
        TraceEvent.End(
          observedEvents: end.observedEvents, droppedEvents: end.droppedEvents,
          runningEffects: end.runningEffects.map(\.start)))
    }
    return TraceEvent(sequence: sequence, time: time, kind: kind)
  }

  /// What a session event records.
  public enum Kind: Hashable, Sendable {
    /// A reactor entered the session (`kind: "reactor"`).
    case introduced(ReactorIntroduction)
    /// The reactor with this id was released (`kind: "release"`): its lane ends.
    case released(reactor: Int)
    /// An event of the reactor with this id: an action, an effect starting or ending, a
    /// mutation or a stream ending, as in a trace of one reactor. (Never a gap or an end,
    /// which belong to the whole session.)
    case reactor(Int, TraceEvent.Kind)
    /// The recorder dropped events here; the session is incomplete from this point on.
    case gap(TraceEvent.Gap)
    /// The recording was closed; nothing follows.
    case end(End)
  }

  /// The reactor the event belongs to, or `nil` for a gap and the end.
  public var reactor: Int? {
    switch kind {
    case .introduced(let introduction): introduction.reactor
    case .released(let reactor), .reactor(let reactor, _): reactor
    case .gap, .end: nil
    }
  }

  /// The event as its reactor's lane holds it, or `nil` for an introduction, a release, a gap
  /// and the end.
  public var laneEvent: TraceEvent? {
    guard case .reactor(_, let kind) = kind else { return nil }
    return TraceEvent(sequence: sequence, time: time, kind: kind)
  }

  /// An effect still running when a session's recording stopped.
  public struct RunningEffect: Hashable, Sendable {
    /// The reactor whose effect it is.
    public var reactor: Int
    /// The effect's start.
    public var start: TraceEvent.EffectStart

    /// A running effect.
    public init(reactor: Int, start: TraceEvent.EffectStart) {
      self.reactor = reactor
      self.start = start
    }
  }

  /// The session's recording was closed.
  public struct End: Hashable, Sendable {
    /// How many events the recording saw, including dropped ones.
    public var observedEvents: Int
    /// How many of them a limit or a full queue left out of the session.
    public var droppedEvents: Int
    /// The effects still running when the recording stopped, in the order they started.
    public var runningEffects: [RunningEffect]

    /// An end event.
    public init(observedEvents: Int, droppedEvents: Int, runningEffects: [RunningEffect] = []) {
      self.observedEvents = observedEvents
      self.droppedEvents = droppedEvents
      self.runningEffects = runningEffects
    }
  }
}
