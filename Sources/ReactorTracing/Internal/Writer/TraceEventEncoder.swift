import ReactorCore
import ReactorJSON

/// Turns captured events into trace events: encodes payloads, makes labels, applies
/// redaction, and stores each state as a snapshot or a diff from the previous one.
///
/// It is a value that moves to wherever encoding happens (the file writer's thread, or the
/// memory recorder when asked for its events); it never runs on the reactor's hot path.
package struct TraceEventEncoder<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  /// Labels longer than this are cut, with an ellipsis.
  static var maximumLabelLength: Int { 200 }

  let encoder = JSONValueEncoder()
  let actionRedactor: Redactor
  let mutationRedactor: Redactor
  let stateRedactor: Redactor
  let snapshotInterval: Int

  /// The canonical JSON of the last state, which the next one is diffed from; `nil` when the
  /// next state must be a snapshot.
  var previousBytes: [UInt8]?
  /// The value of a ``CanonicalJSONEncoder`` that `previousBytes` are, when that encoder
  /// wrote them: a diff from them may use what it knows of the next state's arrays.
  var previousBytesMark: CanonicalJSONEncoder.ValueMark?
  /// The last state's encoding, when it was encoded as a tree: `stateChange(to:)` diffs
  /// trees to return the operations.
  var previousTree: JSONValue?
  var mutationsSinceSnapshot = 0
  /// The length of the last state serialized: its canonical JSON, or its description.
  var lastStateByteCount: Int?
  /// Whether the Action and Mutation types are enums, learned from their first values.
  var actionIsEnum: Bool?
  var mutationIsEnum: Bool?
  /// The encodings and labels of the action and mutation values met so far.
  var actionPayloads = PayloadCache()
  var mutationPayloads = PayloadCache()
  /// The canonical JSON of the last state encoded, and of its diff from the state before.
  var snapshotBytes: [UInt8] = []
  var diffBytes: [UInt8] = []
  /// The memory the diffs between states work in.
  var diffMemory = CanonicalJSONDiff.Memory()
  /// The Action, Mutation and State types as `Encodable` ones, when they are.
  let encodableAction = StaticEncodable(Action.self)
  let encodableMutation = StaticEncodable(Mutation.self)
  let encodableState = StaticEncodable(State.self)
  /// How a state that is not `Encodable` is encoded, or `nil` to store its description: a
  /// session lane's encoder, which runs on the main actor, sets it to
  /// ``ReactorStateReflection/json(of:)``, which records the reactors such a state holds as
  /// references.
  var reflectsState: (@Sendable (any Sendable) -> JSONValue)?

  init(redactions: [TraceRedaction], snapshotInterval: Int) throws(TraceRecordingError) {
    guard snapshotInterval >= 1 else {
      throw .invalidOption("snapshotInterval must be at least 1, not \(snapshotInterval)")
    }
    actionRedactor = try Redactor(rules: redactions, kind: .action)
    mutationRedactor = try Redactor(rules: redactions, kind: .mutation)
    stateRedactor = try Redactor(rules: redactions, kind: .state)
    self.snapshotInterval = snapshotInterval
  }

  /// Encodes a state whole, as a header stores it, and starts a new diff chain from it.
  mutating func start(from state: State) -> (TraceHeader.State, TraceHash) {
    mutationsSinceSnapshot = 0
    previousTree = encodeState(state)
    previousBytes = previousTree?.serialized
    previousBytesMark = nil
    let stored: TraceHeader.State =
      previousTree.map { .json($0) } ?? .description(describe(state, redactor: stateRedactor))
    return (stored, stored.hash)
  }

  /// The last state encoded (the reactor's state now, as its trace records it), or `nil`
  /// when it was stored as its description.
  var lastStateJSON: JSONValue? {
    previousTree ?? previousBytes.flatMap { try? JSONValue(parsing: $0) }
  }

  /// What ``lastStateJSON`` would give once `state` is the last state encoded: by
  /// ``start(from:)`` when `isInitial`, else by ``sessionMutation(_:id:origin:state:canonical:)``.
  ///
  /// A session lane whose encoder works on the writer thread asks it on the main actor, of
  /// the last state it queued, without touching the writer's encoder.
  func recordedJSON(of state: State, isInitial: Bool) -> JSONValue? {
    guard !isInitial, let encodableState, !stateRedactor.isActive else {
      return encodeState(state)
    }
    var bytes: [UInt8] = []
    let isEncoded = withUnsafePointer(to: state) { pointer in
      func encode<T: Encodable>(_: T.Type) -> Bool {
        pointer.withMemoryRebound(to: T.self, capacity: 1) {
          (try? CanonicalJSONEncoder().encode($0.pointee, into: &bytes)) != nil
        }
      }
      return encode(encodableState.type)
    }
    return isEncoded ? try? JSONValue(parsing: bytes) : nil
  }

  /// The trace event for a captured one.
  mutating func encode(_ stamped: StampedEvent<Action, Mutation, State>) -> TraceEvent {
    let kind: TraceEvent.Kind
    switch stamped.event {
    case .action(let action, let id, let origin):
      let payload = actionPayload(action)
      kind = .action(
        TraceEvent.Action(
          id: id, label: payload.label, value: payload.json, source: Self.source(origin),
          external: Self.external(origin)))
    case .effectStarted(let start):
      kind = .effectStarted(start)
    case .effectEnded(let effect, let outcome):
      kind = .effectEnded(
        TraceEvent.EffectEnd(effect: effect, outcome: TraceEvent.Outcome(outcome)))
    case .mutation(let mutation, let id, let origin, let state, let publisher):
      let payload = mutationPayload(mutation)
      let (change, hash) = stateChange(to: state)
      kind = .mutation(
        TraceEvent.Mutation(
          id: id, label: payload.label, value: payload.json, cause: Self.cause(origin),
          state: change, stateHash: hash, publisher: publisher))
    case .streamEnded(let name, let error):
      kind = .streamEnded(TraceEvent.StreamEnd(stream: name, error: error))
    case .jump(let state, let target, let external):
      kind = .jump(jump(to: state, target: target, external: external))
    case .gap(let dropped):
      kind = .gap(TraceEvent.Gap(droppedEvents: dropped))
    case .end(let observed, let dropped, let running):
      kind = .end(
        TraceEvent.End(observedEvents: observed, droppedEvents: dropped, runningEffects: running))
    }
    return TraceEvent(sequence: stamped.sequence, time: stamped.time, kind: kind)
  }

  /// A jump's event: the state whole, from which a new diff chain starts; the next
  /// mutation's state is stored whole too, so that a reader that skips the jump (an older
  /// 1.x or 2.x reader, which does not know the kind) rebuilds it right.
  mutating func jump(to state: State, target: Int, external: String) -> TraceEvent.Jump {
    let (stored, hash) = start(from: state)
    mutationsSinceSnapshot = snapshotInterval
    return TraceEvent.Jump(target: target, external: external, state: stored, stateHash: hash)
  }

  private static func source(_ origin: Origin) -> TraceEvent.Source {
    switch origin {
    case .stream(let name): .stream(name)
    case .sent, .action, .effect, .external: .sent
    }
  }

  private static func external(_ origin: Origin) -> String? {
    if case .external(let source) = origin { source } else { nil }
  }

  static func cause(_ origin: Origin) -> TraceEvent.Cause {
    switch origin {
    case .action(let action): .action(action)
    case .effect(let effect, let action): .effect(effect, action: action)
    case .stream(let name): .stream(name)
    // The runtime never reports a sent mutation; kept distinguishable if it ever does.
    case .sent: .stream("send")
    case .external(let source): .stream(source)
    }
  }
}
