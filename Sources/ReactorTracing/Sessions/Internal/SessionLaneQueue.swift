import ReactorCore
import ReactorJSON

/// The writer's side of a session lane whose actions, mutations and states are plain data
/// (``ReactorSchema/ObjectFreeTypes``): the main actor queues the values as they happen, and
/// the writer thread encodes them, with the lane's encoder, into the lines the lane would
/// have written on the main actor, in `seq` order with the session's other lines.
///
/// The values wait in ``PayloadBuffer``s, as a single reactor's file writer keeps them, and
/// the encoder is the one the lane started (its initial state encoded on the main actor, at
/// the introduction), moved here: the same encoder sees the same values in the same order,
/// so the lines are byte for byte those of encoding on the main actor. Values of such types
/// hold no reactor, so keeping them queued keeps no reactor alive (its release line stays
/// where its last reference goes), and encoding them reaches into no reactor.
///
/// `@unchecked Sendable`: `pending…`, `isPending` and `stateCost` are touched only with the
/// writer's lock held (from ``SessionFileWriter/lockForValues(cost:)`` to
/// ``SessionFileWriter/queueValues(_:reactor:from:cost:isLanesFirst:)``, and in
/// ``SessionFileWriter``'s batch taking); the encoder, the taken buffers and their cursors
/// only on the writer thread; `lastState` and `hasMutation` only on the main actor (by the
/// lane); `reactor` never changes.
final class SessionLaneQueue<Action: Sendable, Mutation: Sendable, State: Sendable>:
  DeferredSessionLane, @unchecked Sendable
{
  let reactor: Int

  // Guarded by the writer's lock, which already keeps accesses from overlapping: no dynamic
  // exclusivity checks on the main actor's path.
  // `let`, their contents swapped with the writer's (a `var` would be retained at every
  // append).
  private let pendingActions = PayloadBuffer<Action>(capacity: 16)
  private let pendingMutations = PayloadBuffer<Mutation>(capacity: 16)
  private let pendingStates = PayloadBuffer<State>(capacity: 16)
  /// Whether values were queued since the writer last took them.
  @exclusivity(unchecked) private var isPending = false
  /// The memory a queued state is counted at: ``WriterHandshake/memoryPerStateByte`` times
  /// what the last state taken holds of its own (``QueuedStateMemory``), once measured; until
  /// then, times the length of the last state encoded (the initial state's, until one is).
  @exclusivity(unchecked) private var stateCost: Int

  // The main actor's alone.
  /// Whether a mutation's state replaced the initial one in `lastState`.
  @exclusivity(unchecked) private(set) var hasMutation = false

  // Read for every event: before `encoder`, whose size depends on the lane's types, so that
  // their offsets are fixed.
  // An event's fixed size counts twice: the buffers it is queued in grow by doubling, and
  // are swapped with the ones the writer is emptying.
  private let actionCost =
    2 * (MemoryLayout<SessionFileWriter.Entry>.stride + MemoryLayout<Action>.stride)
  private let mutationCost =
    2
    * (MemoryLayout<SessionFileWriter.Entry>.stride + MemoryLayout<Mutation>.stride
      + MemoryLayout<State>.stride)

  // After every property of a fixed size and before `encoder`: its own offset is fixed then,
  // while every property after it is found through the type's metadata at every access.
  /// The last state handed to the lane, the initial state until a mutation; the main
  /// actor's alone.
  ///
  /// What the encoder on the main actor would hold as its last state, which
  /// ``SessionLane/recordedState`` encodes when asked. Plain data, so it keeps no reactor
  /// alive.
  @exclusivity(unchecked) private(set) var lastState: State

  // The writer thread's alone.
  private var encoder: TraceEventEncoder<Action, Mutation, State>
  private let actions = PayloadBuffer<Action>(capacity: 16)
  private let mutations = PayloadBuffer<Mutation>(capacity: 16)
  private let states = PayloadBuffer<State>(capacity: 16)
  private var nextAction = 0
  private var nextMutation = 0
  /// The working memory of the states' canonical JSON.
  private let canonical = CanonicalJSONEncoder()
  /// The last state taken, which the next batch's first state is measured against.
  private var lastTakenState: State?
  /// What the last state taken holds of its own, in bytes of its canonical JSON
  /// (``QueuedStateMemory``); `nil` when not measured.
  private var ownStateByteCount: Int?

  /// The writer's side of lane `reactor`, encoding with `encoder`, which has encoded
  /// `initialState` (`initialStateLength` bytes).
  init(
    reactor: Int, encoder: TraceEventEncoder<Action, Mutation, State>, initialState: State,
    initialStateLength: Int
  ) {
    self.reactor = reactor
    self.encoder = encoder
    lastState = initialState
    stateCost = WriterHandshake.memoryPerStateByte * initialStateLength
  }

  // MARK: On the main actor

  /// Keeps `state` as the lane's last state: a mutation's or a jump's, once the log admitted
  /// it.
  func keep(_ state: State) {
    lastState = state
    hasMutation = true
  }

  /// Queues action `id`, stamped `sequence` at `time`, for the writer to encode.
  ///
  /// Inlined into the lane's recording of the action, as the mutation's is.
  @inline(__always)
  func append(
    _ action: Action, id: Int, origin: Origin, sequence: Int, time: Duration,
    from: TraceEvent.ReactorOrigin?, to writer: SessionFileWriter
  ) {
    // Written out rather than through closures, which unspecialized code pays for at every
    // event: the writer's lock is held from `lockForValues` to `queueValues`.
    writer.lockForValues(cost: actionCost)
    pendingActions.append(action)
    writer.queueValues(
      sequence: sequence, time: time, id: id, origin: origin, isMutation: false,
      reactor: reactor, from: from, cost: actionCost, isLanesFirst: markPending())
  }

  /// Queues mutation `id` and the state it made, stamped `sequence` at `time`, for the
  /// writer to encode, and keeps the state as the lane's last (``keep(_:)``, in the same
  /// call).
  ///
  /// Inlined into the lane's recording of the mutation: a call of its own cost its frame and
  /// the spilling of a dozen arguments.
  @inline(__always)
  func append(
    _ mutation: Mutation, state: State, id: Int, origin: Origin, sequence: Int,
    time: Duration, from: TraceEvent.ReactorOrigin?, to writer: SessionFileWriter
  ) {
    keep(state)
    // `stateCost` is the writer thread's to change, with the lock held.
    let cost = writer.lockForValues { mutationCost + stateCost }
    pendingMutations.append(mutation)
    pendingStates.append(state)
    writer.queueValues(
      sequence: sequence, time: time, id: id, origin: origin, isMutation: true,
      reactor: reactor, from: from, cost: cost, isLanesFirst: markPending())
  }

  /// Queues a jump, stamped as `event` (which holds the state), for the writer to encode.
  func appendJump(_ event: consuming CapturedEvent, to writer: SessionFileWriter) {
    let cost = writer.lockForValues { mutationCost + stateCost }
    writer.queueValues(event, reactor: reactor, from: nil, cost: cost, isLanesFirst: markPending())
  }

  /// Marks values queued; returns whether they are the first since the writer took them.
  private func markPending() -> Bool {
    defer { isPending = true }
    return !isPending
  }

  // MARK: On the writer thread

  func take() {
    actions.swapContents(with: pendingActions)
    mutations.swapContents(with: pendingMutations)
    states.swapContents(with: pendingStates)
    nextAction = 0
    nextMutation = 0
    isPending = false
    if let length = ownStateByteCount ?? encoder.lastStateByteCount {
      stateCost = WriterHandshake.memoryPerStateByte * length
    }
  }

  func measureStateCost() -> Bool {
    guard states.count > 0 else { return false }
    ownStateByteCount = QueuedStateMemory.ownBytesOfLast(
      in: states, lastTaken: &lastTakenState, json: encoder.previousBytes)
    return ownStateByteCount != nil
  }

  func applyStateCost() {
    if let ownStateByteCount {
      stateCost = WriterHandshake.memoryPerStateByte * ownStateByteCount
    }
  }

  func writeLine(
    _ event: CapturedEvent, from: TraceEvent.ReactorOrigin?, to line: inout LineWriter
  ) {
    switch event.kind {
    case .action(let id, let origin):
      let part = encoder.sessionAction(actions[nextAction], id: id, origin: origin)
      nextAction += 1
      encoder.writeSessionLine(
        part, sequence: event.sequence, time: event.time, reactor: reactor, from: from,
        to: &line)
    case .mutation(let id, let origin, _):
      let part = encoder.sessionMutation(
        mutations[nextMutation], id: id, origin: origin, state: states[nextMutation],
        canonical: canonical)
      nextMutation += 1
      encoder.writeSessionLine(
        part, sequence: event.sequence, time: event.time, reactor: reactor, from: from,
        to: &line)
    case .jump(let state, let target, let external):
      // Queued by the lane of this same State type; encoded here, so that this encoder's
      // next state is stored whole.
      let jump = encoder.jump(to: state.value as! State, target: target, external: external)
      TraceEvent(sequence: event.sequence, time: event.time, kind: .jump(jump))
        .write(to: &line, reactor: reactor)
      line.endLine()
    default:
      preconditionFailure("a lane queues only its actions, mutations and jumps")
    }
  }

  func discardWritten() {
    actions.discard(upTo: nextAction)
    mutations.discard(upTo: nextMutation)
    states.discard(upTo: nextMutation)
  }

  func finishBatch() {
    actions.removeAll()
    mutations.removeAll()
    states.removeAll()
  }
}

/// A lane's writer side as the session writer's thread drives it, whatever its types.
protocol DeferredSessionLane: AnyObject, Sendable {
  /// The lane's reactor id.
  var reactor: Int { get }
  /// With the writer's lock held: takes the values queued so far, to encode them in order.
  func take()
  /// Without the lock, once the values are taken: measures what the last state taken holds
  /// of its own (``QueuedStateMemory``), against the state queued before it; returns
  /// whether it could, and so has a new cost for ``applyStateCost()``.
  func measureStateCost() -> Bool
  /// With the writer's lock held: counts the states queued from now on at what the last one
  /// measured holds of its own.
  func applyStateCost()
  /// Appends the line of the next value taken, stamped as `event`, newline included.
  func writeLine(
    _ event: CapturedEvent, from: TraceEvent.ReactorOrigin?, to line: inout LineWriter)
  /// Releases the values whose lines are written.
  func discardWritten()
  /// Releases every value taken, once the batch is written.
  func finishBatch()
}
