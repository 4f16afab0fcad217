import ReactorCore
import ReactorJSON

/// The monitor a session recorder attaches to one reactor: it numbers each event on the main
/// actor, as it happens, and hands it to the session's log, encoded or (to a writer thread)
/// as its values.
///
/// A lane whose action, mutation and state types are plain data
/// (``ReactorSchema/ObjectFreeTypes``) and whose log has a writer thread (a file or a live
/// stream) queues each action and mutation as its values, and the writer encodes them
/// (``SessionLaneQueue``): such values hold no reactor, so queuing them keeps none alive, and
/// encoding them reaches into none. Every other lane encodes each event on the main actor, at
/// once: a state that holds reactors (or could) must not keep them alive, since a reactor's
/// release line goes where its last reference goes, and encoding it may reach into them
/// (``ReactorStateReflection`` turns the reactors of a state that is not `Encodable` into
/// references, which may introduce a reactor, whose introduction must come before the line
/// of the event that mentions it). Effects, stream ends and the lane's introduction and
/// release are encoded on the main actor in both cases: they hold no value of the reactor's
/// types.
///
/// When the reactor is released, its runtime releases this monitor, whose deinit ends the
/// reactor's lane.
///
/// The log refers to the lane through its ``link`` (weakly), not to the monitor itself: an
/// object that anything refers to weakly takes the slow path at every retain and release, and
/// the runtime retains its monitor for every call.
@MainActor
final class SessionLane<R: Reactor>: ReactorMonitor {
  typealias Action = R.Action
  typealias Mutation = R.Mutation
  typealias State = R.State

  // The properties read for every event come first: those after the first property of a
  // generic type (the encoder) are found through the type's metadata at every access.
  let id: Int
  private let log: SessionLog
  /// What the log knows of this lane, once introduced: each event's `seq` is noted there.
  @exclusivity(unchecked) var laneRecord: SessionLog.Lane?
  /// `queue` and `writer`, as the hot path calls them, without a retain at every call.
  ///
  /// The two below keep them alive.
  private let unretainedQueue: Unmanaged<SessionLaneQueue<Action, Mutation, State>>?
  private let unretainedWriter: Unmanaged<SessionFileWriter>?
  /// Where a plain-data lane queues its actions and mutations; `nil` for a lane that encodes
  /// them on the main actor.
  ///
  /// Two properties rather than an optional pair: an optional of a tuple of generic types is
  /// looked up at run time on every event.
  private let queue: SessionLaneQueue<Action, Mutation, State>?
  /// The writer that encodes what `queue` holds.
  private let writer: SessionFileWriter?
  /// The lane's encoder, on the main actor.
  ///
  /// For a lane that queues values, the writer side has its own (a copy made at the
  /// introduction) and this one encodes only effects and stream ends, and ``recordedState``.
  private var encoder: TraceEventEncoder<Action, Mutation, State>
  /// What the log and the recorder control the lane through (send, jump, detach, its state).
  let link: SessionLaneLink<R>
  /// The working memory of the states' canonical JSON, reused from one mutation to the next.
  private let canonical = CanonicalJSONEncoder()
  /// The line being written, its capacity reused.
  private var line = LineWriter()

  /// A lane encoding every event on the main actor with `encoder`, whose ``TraceEventEncoder/start(from:)``
  /// has encoded the initial state.
  init(id: Int, reactor: R, log: SessionLog, encoder: TraceEventEncoder<Action, Mutation, State>) {
    self.id = id
    self.log = log
    self.encoder = encoder
    queue = nil
    writer = nil
    unretainedQueue = nil
    unretainedWriter = nil
    link = SessionLaneLink(id: id, reactor: reactor, encoder: encoder, queue: nil)
    link.monitor = ObjectIdentifier(self)
    link.encodingLane = self
  }

  /// A plain-data lane queuing its actions and mutations for `writer` to encode, with a copy
  /// of `encoder` (whose ``TraceEventEncoder/start(from:)`` has encoded `initialState`,
  /// `initialStateLength` bytes); `writer` learns of it here.
  init(
    id: Int, reactor: R, log: SessionLog, encoder: TraceEventEncoder<Action, Mutation, State>,
    initialState: State, initialStateLength: Int, writer: SessionFileWriter
  ) {
    self.id = id
    self.log = log
    self.encoder = encoder
    var writerEncoder = encoder
    // Never called for an `Encodable` state, and reflection belongs on the main actor.
    writerEncoder.reflectsState = nil
    let lane = SessionLaneQueue(
      reactor: id, encoder: writerEncoder, initialState: initialState,
      initialStateLength: initialStateLength)
    writer.register(lane)
    queue = lane
    self.writer = writer
    unretainedQueue = Unmanaged.passUnretained(lane)
    unretainedWriter = Unmanaged.passUnretained(writer)
    link = SessionLaneLink(id: id, reactor: reactor, encoder: encoder, queue: lane)
    link.monitor = ObjectIdentifier(self)
  }

  /// The state the encoder on the main actor last encoded, as JSON: the lane's recorded state
  /// when it encodes its events itself.
  var lastStateJSON: JSONValue? { encoder.lastStateJSON }

  isolated deinit {
    log.release(id)
    writer?.retire(id)
  }

  /// An origin in another live reactor of this session, as a trace records it.
  ///
  /// Asked of the log, whose code is not generic, and only when there is an activity: in the
  /// lane's unspecialized code, the call alone cost more than the answer.
  @inline(__always)
  private func origin(_ activity: ReactorActivity?) -> TraceEvent.ReactorOrigin? {
    guard let activity else { return nil }
    return log.origin(activity)
  }

  /// Records an action or mutation straight as its line, when the log keeps lines: the
  /// encoder's fast path, with no event value or JSON tree in between.
  private func recordLine(
    _ part: TraceEventEncoder<Action, Mutation, State>.SessionPart, from: ReactorActivity?
  ) {
    guard let (sequence, time) = log.stamp() else { return }
    line.bytes.removeAll(keepingCapacity: true)
    encoder.writeSessionLine(
      part, sequence: sequence, time: time, reactor: id, from: origin(from), to: &line)
    log.append(line: line.bytes, of: laneRecord, sequence: sequence)
  }

  // The queuing path of an action or a mutation names no generic type of the lane's but the
  // three it is given: the window's and the encoding path are functions of their own, since
  // unspecialized code looks up the metadata of every generic type a function names (an
  // event value, an encoder's part) on every call, whichever branch it takes.

  private func recordAction(_ action: Action, id: Int, origin: Origin, from: ReactorActivity?) {
    guard log.storesLines else {
      recordInWindow(action, id: id, origin: origin, from: from)
      return
    }
    guard log.admitsEvent() else { return }
    guard let unretainedQueue, let unretainedWriter else {
      encode(action, id: id, origin: origin, from: from)
      return
    }
    guard let (sequence, time) = log.stamp() else { return }
    Self.queue(
      action, id: id, origin: origin, sequence: sequence, time: time, from: self.origin(from),
      in: unretainedQueue, for: unretainedWriter)
    laneRecord?.lastSequence = sequence
  }

  // The queue and writer called through unretained references, from code that is not
  // isolated to the main actor (a closure formed in isolated code checks the executor when
  // called). The writer makes the event in its entry.

  @inline(__always)
  nonisolated private static func queue(
    _ action: Action, id: Int, origin: Origin, sequence: Int, time: Duration,
    from: TraceEvent.ReactorOrigin?, in queue: Unmanaged<SessionLaneQueue<Action, Mutation, State>>,
    for writer: Unmanaged<SessionFileWriter>
  ) {
    writer._withUnsafeGuaranteedRef { writer in
      queue._withUnsafeGuaranteedRef {
        $0.append(
          action, id: id, origin: origin, sequence: sequence, time: time, from: from,
          to: writer)
      }
    }
  }

  /// Queues a stamped mutation, and keeps `state` as the lane's last state, as the encoder
  /// on the main actor would.
  @inline(__always)
  nonisolated private static func queue(
    _ mutation: Mutation, state: State, id: Int, origin: Origin, sequence: Int, time: Duration,
    from: TraceEvent.ReactorOrigin?,
    in queue: Unmanaged<SessionLaneQueue<Action, Mutation, State>>,
    for writer: Unmanaged<SessionFileWriter>
  ) {
    writer._withUnsafeGuaranteedRef { writer in
      queue._withUnsafeGuaranteedRef {
        $0.append(
          mutation, state: state, id: id, origin: origin, sequence: sequence, time: time,
          from: from, to: writer)
      }
    }
  }

  /// Keeps the state of a mutation a limit dropped as the lane's last state, as the encoder
  /// on the main actor would: it is the state the lane's next line starts from.
  @inline(never)
  private func keepUnstamped(_ state: State) {
    queue?.keep(state)
  }

  @inline(never)
  private func recordInWindow(
    _ action: Action, id: Int, origin: Origin, from: ReactorActivity?
  ) {
    record(.action(action, id: id, origin: origin), from: from)
  }

  @inline(never)
  private func encode(_ action: Action, id: Int, origin: Origin, from: ReactorActivity?) {
    recordLine(encoder.sessionAction(action, id: id, origin: origin), from: from)
  }

  private func recordMutation(
    _ mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    guard log.storesLines else {
      recordInWindow(mutation, id: id, origin: origin, state: state, from: from)
      return
    }
    // Asked before encoding: a dropped mutation must not be the encoder's last state.
    guard log.admitsEvent() else { return }
    guard let unretainedQueue, let unretainedWriter else {
      encode(mutation, id: id, origin: origin, state: state, from: from)
      return
    }
    guard let (sequence, time) = log.stamp() else {
      keepUnstamped(state)
      return
    }
    Self.queue(
      mutation, state: state, id: id, origin: origin, sequence: sequence, time: time,
      from: self.origin(from), in: unretainedQueue, for: unretainedWriter)
    laneRecord?.lastSequence = sequence
  }

  @inline(never)
  private func recordInWindow(
    _ mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    record(.mutation(mutation, id: id, origin: origin, state: state), from: from)
  }

  @inline(never)
  private func encode(
    _ mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    // Encoded before it is numbered (see ``TraceEventEncoder/SessionPart``).
    let part = encoder.sessionMutation(
      mutation, id: id, origin: origin, state: state, canonical: canonical)
    recordLine(part, from: from)
  }

  private func record(_ raw: StampedEvent<Action, Mutation, State>.Raw, from: ReactorActivity?) {
    // Asked before encoding: a dropped mutation must not be the encoder's last state.
    guard log.admitsEvent() else { return }
    // Encoded before it is numbered: encoding a state that holds a reactor the session does
    // not record yet introduces that reactor (``ReactorReference``), whose introduction must
    // come first.
    var event = encoder.encode(StampedEvent(sequence: 0, time: .zero, event: raw))
    guard let (sequence, time) = log.stamp() else { return }
    switch event.kind {
    case .action(var action):
      action.from = origin(from)
      event.kind = .action(action)
    case .mutation(var mutation):
      mutation.from = origin(from)
      event.kind = .mutation(mutation)
    default:
      break
    }
    log.append(SessionEvent(sequence: sequence, time: time, kind: .reactor(id, event.kind)))
  }

  func reactorDidReceive(action: Action, id: Int, origin: Origin) {
    recordAction(action, id: id, origin: origin, from: nil)
  }

  func reactorDidReceive(action: Action, id: Int, origin: Origin, from: ReactorActivity?) {
    recordAction(action, id: id, origin: origin, from: from)
  }

  /// Records an event that holds none of the reactor's values (an effect's start or end, a
  /// stream's end) straight as its kind: no generic event value in between, whose metadata
  /// the lane's unspecialized code would look up at every event.
  private func record(_ kind: TraceEvent.Kind) {
    guard log.admitsEvent() else { return }
    guard let (sequence, time) = log.stamp() else { return }
    log.append(SessionEvent(sequence: sequence, time: time, kind: .reactor(id, kind)))
  }

  func reactorDidStartEffect(_ effect: Int, action: Int, name: String?) {
    record(.effectStarted(TraceEvent.EffectStart(effect: effect, action: action, name: name)))
  }

  func reactorDidEndEffect(_ effect: Int, outcome: EffectOutcome) {
    record(.effectEnded(TraceEvent.EffectEnd(effect: effect, outcome: TraceEvent.Outcome(outcome))))
  }

  func reactorDidReduce(mutation: Mutation, id: Int, origin: Origin, state: State) {
    recordMutation(mutation, id: id, origin: origin, state: state, from: nil)
  }

  func reactorDidReduce(
    mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    recordMutation(mutation, id: id, origin: origin, state: state, from: from)
  }

  func reactorDidJump(to state: State, event: Int, from source: String) {
    guard log.storesLines, let queue, let writer else {
      record(.jump(state, target: event, external: source), from: nil)
      return
    }
    guard log.admitsEvent() else { return }
    queue.keep(state)
    guard let (sequence, time) = log.stamp() else { return }
    queue.appendJump(
      CapturedEvent(
        sequence: sequence, time: time,
        kind: .jump(state: JumpedState(state), target: event, external: source)),
      to: writer)
    laneRecord?.lastSequence = sequence
  }

  func reactorStreamDidEnd(_ name: String, error: String?) {
    record(.streamEnded(TraceEvent.StreamEnd(stream: name, error: error)))
  }
}
