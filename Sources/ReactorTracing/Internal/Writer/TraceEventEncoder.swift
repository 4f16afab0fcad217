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

  private let encoder = JSONValueEncoder()
  private let actionRedactor: Redactor
  private let mutationRedactor: Redactor
  private let stateRedactor: Redactor
  private let snapshotInterval: Int

  /// The canonical JSON of the last state, which the next one is diffed from; `nil` when the
  /// next state must be a snapshot.
  private var previousBytes: [UInt8]?
  /// The last state's encoding, when it was encoded as a tree: `stateChange(to:)` diffs
  /// trees to return the operations.
  private var previousTree: JSONValue?
  private var mutationsSinceSnapshot = 0
  /// The length of the last state serialized: its canonical JSON, or its description.
  private(set) var lastStateByteCount: Int?
  /// Whether the Action and Mutation types are enums, learned from their first values.
  private var actionIsEnum: Bool?
  private var mutationIsEnum: Bool?
  /// The encodings and labels of the action and mutation values met so far.
  private var actionPayloads = PayloadCache()
  private var mutationPayloads = PayloadCache()
  /// The canonical JSON of the last state encoded, and of its diff from the state before.
  private var snapshotBytes: [UInt8] = []
  private var diffBytes: [UInt8] = []
  /// The Action, Mutation and State types as `Encodable` ones, when they are.
  private let encodableAction = StaticEncodable(Action.self)
  private let encodableMutation = StaticEncodable(Mutation.self)
  private let encodableState = StaticEncodable(State.self)
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
          id: id, label: payload.label, value: payload.json, source: Self.source(origin)))
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
    case .gap(let dropped):
      kind = .gap(TraceEvent.Gap(droppedEvents: dropped))
    case .end(let observed, let dropped, let running):
      kind = .end(
        TraceEvent.End(observedEvents: observed, droppedEvents: dropped, runningEffects: running))
    }
    return TraceEvent(sequence: stamped.sequence, time: stamped.time, kind: kind)
  }

  /// Appends the trace lines of a batch of captured events, newlines included: the bytes
  /// `encode(_:)` and `TraceEvent.write(to:)` give, without building the events.
  ///
  /// Payloads seen before are copied from ``PayloadCache``, and a state is serialized once,
  /// to measure, hash and write it.
  /// - Parameters:
  ///   - events: The events, in order.
  ///   - actions: The values of the action events, in order.
  ///   - mutations: The values of the mutation events, in order.
  ///   - states: The states of the mutation events, in order.
  ///   - line: Where the lines go.
  ///   - chunkSize: How many bytes `line` may gather before `drain` is called.
  ///   - drain: Takes the bytes gathered so far and empties `line`; called whenever it holds
  ///     `chunkSize` bytes or more, so that a long batch is not held in memory whole, with
  ///     how many events, actions and mutations those bytes (and earlier ones) hold.
  mutating func writeLines(
    _ events: [CapturedEvent], actions: PayloadBuffer<Action>,
    mutations: PayloadBuffer<Mutation>, states: PayloadBuffer<State>, to line: inout LineWriter,
    chunkSize: Int, drain: (inout LineWriter, _ written: WrittenCount) -> Void
  ) {
    var nextAction = 0
    var nextMutation = 0
    // States go straight to canonical bytes: this batch's working memory for them.
    let canonical = CanonicalJSONEncoder()
    var hashes = PendingHashes()
    defer { hashes.resolve(in: &line) }
    for (index, event) in events.enumerated() {
      if line.bytes.count >= chunkSize {
        hashes.resolve(in: &line)
        drain(&line, WrittenCount(events: index, actions: nextAction, mutations: nextMutation))
      }
      switch event.kind {
      case .action(let id, let origin):
        writeAction(actions[nextAction], id: id, origin: origin, of: event, to: &line)
        nextAction += 1
      case .mutation(let id, let origin, let publisher):
        writeMutation(
          mutations[nextMutation], id: id, origin: origin, publisher: publisher,
          state: states[nextMutation], of: event, to: &line, canonical: canonical,
          hashes: &hashes)
        nextMutation += 1
      default:
        line.appendLine(encode(StampedEvent<Action, Mutation, State>(event)))
      }
    }
  }

  /// How many of a batch's events, and of its action and mutation values, have their lines
  /// written.
  struct WrittenCount {
    var events: Int
    var actions: Int
    var mutations: Int
  }

  // The two lines below write what `TraceEvent.write(to:)` writes, member for member, from
  // shared runs of bytes.

  private mutating func writeAction(
    _ action: Action, id: Int, origin: Origin, of event: CapturedEvent,
    to line: inout LineWriter
  ) {
    let payload = actionPayload(action)
    switch origin {
    case .stream: break
    case .sent, .action, .effect:
      // The common line, in one copy.
      let members = payload.members
      line.raw(maximumCount: 64 + 3 * ByteCursor.maximumIntegerCount + members.count) { out in
        out.write(#"{"seq":"#)
        out.write(event.sequence)
        out.write(#","t":"#)
        out.write(Int(event.time.traceNanoseconds))
        out.write(#","kind":"action","id":"#)
        out.write(id)
        out.write(members)
        out.write(#","source":"sent"}"#)
        out.write("\n")
      }
      return
    }
    line.raw(#"{"seq":"#)
    line.raw(event.sequence)
    line.raw(#","t":"#)
    line.raw(Int(event.time.traceNanoseconds))
    line.raw(#","kind":"action","id":"#)
    line.raw(id)
    line.raw(payload.members)
    switch origin {
    case .stream(let name):
      line.raw(#","source":"stream","stream":"#)
      JSONWriter.writeString(name, to: &line.bytes)
      line.raw("}")
    case .sent, .action, .effect:
      line.raw(#","source":"sent"}"#)
    }
    line.endLine()
  }

  private mutating func writeMutation(
    _ mutation: Mutation, id: Int, origin: Origin, publisher: TraceEvent.Publisher?,
    state: State, of event: CapturedEvent, to line: inout LineWriter,
    canonical: CanonicalJSONEncoder, hashes: inout PendingHashes
  ) {
    let payload = mutationPayload(mutation)
    let change = serializeStateChange(to: state, canonical: canonical, hashesLater: true)
    defer {
      // The line ends with the hash in quotes, `}` and a newline; a serialized state's hash
      // is left to `hashes`, which hashes several states at once.
      if case .description = change {
      } else {
        hashes.append(previousBytes!, hashAt: line.bytes.count - ByteCursor.hashCount - 2)
        if hashes.isFull { hashes.resolve(in: &line) }
      }
    }
    if case .action(let action) = origin {
      // The common line, in one copy.
      let members = payload.members
      if let (stateKey, stateBytes, hash) = serialized(change) {
        let maximumCount =
          128 + 4 * ByteCursor.maximumIntegerCount + members.count + stateBytes.count
        line.raw(maximumCount: maximumCount) { out in
          out.write(#"{"seq":"#)
          out.write(event.sequence)
          out.write(#","t":"#)
          out.write(Int(event.time.traceNanoseconds))
          out.write(#","kind":"mutation","id":"#)
          out.write(id)
          out.write(members)
          out.write(#","cause":{"action":"#)
          out.write(action)
          out.write("}")
          out.write(stateKey)
          out.write(stateBytes)
          out.write(#","hash":"#)
          out.write(hash)
          out.write("}\n")
        }
        return
      }
    }
    line.raw(#"{"seq":"#)
    line.raw(event.sequence)
    line.raw(#","t":"#)
    line.raw(Int(event.time.traceNanoseconds))
    line.raw(#","kind":"mutation","id":"#)
    line.raw(id)
    line.raw(payload.members)
    if case .action(let action) = origin {
      line.raw(#","cause":{"action":"#)
      line.raw(action)
      line.raw("}")
    } else {
      line.raw(#","cause":"#)
      Self.cause(origin).write(to: &line, publisher: publisher)
    }
    let hash: TraceHash
    switch change {
    case .snapshot(let stateHash):
      line.raw(#","snapshot":"#)
      line.raw(snapshotBytes)
      hash = stateHash
    case .diff(let stateHash):
      line.raw(#","diff":"#)
      line.raw(diffBytes)
      hash = stateHash
    case .description(let description, let stateHash):
      line.raw(#","stateDescription":"#)
      JSONWriter.writeString(description, to: &line.bytes)
      hash = stateHash
    }
    line.raw(#","hash":"#)
    line.raw(hash)
    line.raw("}")
    line.endLine()
  }

  /// The member and bytes that store a serialized state, and its hash; `nil` for a
  /// description.
  private func serialized(
    _ change: SerializedStateChange
  ) -> (key: StaticString, bytes: [UInt8], hash: TraceHash)? {
    switch change {
    case .snapshot(let hash): (#","snapshot":"#, snapshotBytes, hash)
    case .diff(let hash): (#","diff":"#, diffBytes, hash)
    case .description: nil
    }
  }

  private static func source(_ origin: Origin) -> TraceEvent.Source {
    switch origin {
    case .stream(let name): .stream(name)
    case .sent, .action, .effect: .sent
    }
  }

  private static func cause(_ origin: Origin) -> TraceEvent.Cause {
    switch origin {
    case .action(let action): .action(action)
    case .effect(let effect, let action): .effect(effect, action: action)
    case .stream(let name): .stream(name)
    // The runtime never reports a sent mutation; kept distinguishable if it ever does.
    case .sent: .stream("send")
    }
  }

  private mutating func actionPayload(_ action: Action) -> PayloadCache.Entry {
    if let entry = actionPayloads.entry(for: action) { return entry }
    let json = encode(action, as: encodableAction, redactor: actionRedactor)
    let isEnum = actionIsEnum ?? (Mirror(reflecting: action).displayStyle == .enum)
    actionIsEnum = isEnum
    let entry = PayloadCache.Entry(
      json: json, label: label(action, isEnum: isEnum, json: json, redactor: actionRedactor))
    actionPayloads.store(entry, for: action)
    return entry
  }

  private mutating func mutationPayload(_ mutation: Mutation) -> PayloadCache.Entry {
    if let entry = mutationPayloads.entry(for: mutation) { return entry }
    let json = encode(mutation, as: encodableMutation, redactor: mutationRedactor)
    let isEnum = mutationIsEnum ?? (Mirror(reflecting: mutation).displayStyle == .enum)
    mutationIsEnum = isEnum
    let entry = PayloadCache.Entry(
      json: json, label: label(mutation, isEnum: isEnum, json: json, redactor: mutationRedactor))
    mutationPayloads.store(entry, for: mutation)
    return entry
  }

  // MARK: States

  /// How ``serializeStateChange(to:)`` stored a state.
  fileprivate enum SerializedStateChange {
    /// The whole state, in `snapshotBytes`.
    case snapshot(TraceHash)
    /// A diff from the previous state, in `diffBytes`: a JSON array of operations.
    case diff(TraceHash)
    /// A description, for a state that does not encode.
    case description(String, TraceHash)
  }

  private mutating func stateChange(to state: State) -> (TraceEvent.StateChange, TraceHash) {
    let previous = previousTree ?? previousBytes.flatMap { try? JSONValue(parsing: $0) }
    switch serializeStateChange(to: state, canonical: nil, hashesLater: false) {
    case .snapshot(let hash):
      return (.snapshot(previousTree!), hash)
    case .diff(let hash):
      return (.diff(previous!.diff(to: previousTree!)), hash)
    case .description(let description, let hash):
      return (.description(description), hash)
    }
  }

  /// Encodes `state`, serializes it into `snapshotBytes` and, when a diff from the previous
  /// state is due and smaller, the diff into `diffBytes`; makes `state` the previous state.
  ///
  /// A diff is chosen when its operations take fewer bytes than the whole state, and at most
  /// `snapshotInterval` mutations after the last snapshot. Given `canonical`, a state of an
  /// Encodable type without redaction goes straight to canonical bytes, without a tree; the
  /// bytes are the same either way. Diffs are taken between canonical bytes. With
  /// `hashesLater`, a serialized state's hash is left for the caller to compute from
  /// `previousBytes` (the change holds a placeholder).
  private mutating func serializeStateChange(
    to state: State, canonical: CanonicalJSONEncoder?, hashesLater: Bool
  ) -> SerializedStateChange {
    previousTree = nil
    let encoded: Bool
    if let canonical, let encodableState, !stateRedactor.isActive {
      encoded = encode(state, as: encodableState.type, with: canonical)
    } else if let json = encodeState(state) {
      snapshotBytes.removeAll(keepingCapacity: true)
      JSONWriter.write(json, to: &snapshotBytes)
      previousTree = json
      encoded = true
    } else {
      encoded = false
    }
    guard encoded else {
      previousBytes = nil
      let description = describe(state, redactor: stateRedactor)
      lastStateByteCount = description.utf8.count
      return .description(description, TraceHeader.State.description(description).hash)
    }
    lastStateByteCount = snapshotBytes.count
    let hash = hashesLater ? TraceHash(0) : TraceHash(of: snapshotBytes)
    var change = SerializedStateChange.snapshot(hash)
    if mutationsSinceSnapshot < snapshotInterval, let previous = previousBytes,
      let operationBytes = writeDiff(from: previous), operationBytes < snapshotBytes.count
    {
      change = .diff(hash)
      mutationsSinceSnapshot += 1
    } else {
      mutationsSinceSnapshot = 0
    }
    // The state becomes the previous one, in the previous one's memory; after a diff, which
    // is written from `diffBytes`, by swapping the two without a copy.
    var kept = previousBytes ?? []
    previousBytes = nil
    if case .diff = change {
      swap(&kept, &snapshotBytes)
    } else {
      kept.removeAll(keepingCapacity: true)
      kept.append(contentsOf: snapshotBytes)
    }
    previousBytes = kept
    return change
  }

  /// The state's Codable encoding after redaction or, for a state that is not `Encodable`,
  /// what ``reflectsState`` makes of it; `nil` when neither encodes it.
  private func encodeState(_ state: State) -> JSONValue? {
    if let json = encode(state, as: encodableState, redactor: stateRedactor) { return json }
    guard encodableState == nil, let reflectsState else { return nil }
    return stateRedactor.redact(reflectsState(state))
  }

  /// Writes the canonical JSON of `state`, whose type is `T`, into `snapshotBytes`; returns
  /// whether it encoded.
  private mutating func encode<T: Encodable>(
    _ state: State, as _: T.Type, with canonical: CanonicalJSONEncoder
  ) -> Bool {
    withUnsafePointer(to: state) { pointer in
      pointer.withMemoryRebound(to: T.self, capacity: 1) {
        (try? canonical.encode($0.pointee, into: &snapshotBytes)) != nil
      }
    }
  }

  /// Writes `[`, the diff from the state whose canonical JSON is `previous` to the one in
  /// `snapshotBytes`, and `]` into `diffBytes`; returns the bytes its operations take, or
  /// `nil` when the bytes cannot be read back.
  private mutating func writeDiff(from previous: [UInt8]) -> Int? {
    var bytes = diffBytes
    diffBytes = []  // Lets the diff write into the bytes in place.
    defer { diffBytes = bytes }
    bytes.removeAll(keepingCapacity: true)
    bytes.append(UInt8(ascii: "["))
    defer { bytes.append(UInt8(ascii: "]")) }
    let operationBytes = previous.withUnsafeBufferPointer { old in
      snapshotBytes.withUnsafeBufferPointer { new in
        CanonicalJSONDiff.write(from: old, to: new, into: &bytes)
      }
    }
    if let operationBytes { return operationBytes }
    // A key with an escape: the trees, read back from the bytes.
    guard let old = try? JSONValue(parsing: previous),
      let new = try? JSONValue(parsing: snapshotBytes)
    else { return nil }
    return old.writeDiff(to: new, into: &bytes)
  }

  // MARK: Session lines

  /// An action or mutation of a session lane, encoded before it is numbered: what its line
  /// holds besides `seq`, `t`, its reactor and `from`.
  ///
  /// A mutation's state is encoded first because encoding a state that holds a reactor the
  /// session does not record yet introduces that reactor, whose introduction comes first.
  struct SessionPart {
    fileprivate enum Kind {
      case action(PayloadCache.Entry, id: Int, origin: Origin)
      case mutation(PayloadCache.Entry, id: Int, origin: Origin, change: SerializedStateChange)
    }

    fileprivate let kind: Kind
  }

  /// Encodes an action for a session lane's line.
  mutating func sessionAction(_ action: Action, id: Int, origin: Origin) -> SessionPart {
    SessionPart(kind: .action(actionPayload(action), id: id, origin: origin))
  }

  /// Encodes a mutation and the state it made for a session lane's line: the state straight
  /// to canonical bytes when its type is `Encodable`, as ``writeLines(_:actions:mutations:states:to:chunkSize:drain:)``
  /// writes it, and diffed between canonical bytes.
  mutating func sessionMutation(
    _ mutation: Mutation, id: Int, origin: Origin, state: State, canonical: CanonicalJSONEncoder
  ) -> SessionPart {
    let payload = mutationPayload(mutation)
    let change = serializeStateChange(to: state, canonical: canonical, hashesLater: false)
    return SessionPart(kind: .mutation(payload, id: id, origin: origin, change: change))
  }

  /// Appends the session line of an encoded action or mutation, newline included: the bytes
  /// `TraceEvent.write(to:reactor:)` gives for the event ``encode(_:)`` makes, with `from`.
  ///
  /// Call it right after the part was encoded: a mutation's state is read from this
  /// encoder's buffers.
  func writeSessionLine(
    _ part: SessionPart, sequence: Int, time: Duration, reactor: Int,
    from: TraceEvent.ReactorOrigin?, to line: inout LineWriter
  ) {
    // Integers through the cursor: the generic writer costs hundreds of instructions each.
    let integers = 8 * ByteCursor.maximumIntegerCount
    switch part.kind {
    case .action(let payload, let id, let origin):
      let members = payload.members
      line.raw(maximumCount: 160 + integers + members.count) { out in
        Self.writeStart(sequence, time, reactor, #","kind":"action","id":"#, id, members, to: &out)
        if case .stream = origin { return }
        out.write(#","source":"sent""#)
        if let from { Self.write(from, to: &out) }
        out.write("}\n")
      }
      guard case .stream(let name) = origin else { return }
      line.raw(#","source":"stream","stream":"#)
      JSONWriter.writeString(name, to: &line.bytes)
      line.raw(maximumCount: 64 + integers) { out in
        if let from { Self.write(from, to: &out) }
        out.write("}\n")
      }
    case .mutation(let payload, let id, let origin, let change):
      let members = payload.members
      line.raw(maximumCount: 160 + integers + members.count) { out in
        Self.writeStart(
          sequence, time, reactor, #","kind":"mutation","id":"#, id, members, to: &out)
        out.write(#","cause":{"#)
        switch origin {
        case .action(let action):
          out.write(#""action":"#)
          out.write(action)
        case .effect(let effect, let action):
          out.write(#""action":"#)
          out.write(action)
          out.write(#","effect":"#)
          out.write(effect)
        case .stream, .sent:
          out.write(#""stream":"#)
        }
      }
      switch origin {
      case .stream(let name): JSONWriter.writeString(name, to: &line.bytes)
      // The runtime never reports a sent mutation; written as `cause(_:)` describes it.
      case .sent: JSONWriter.writeString("send", to: &line.bytes)
      case .action, .effect: break
      }
      let state: (key: StaticString, bytes: [UInt8], hash: TraceHash)
      switch change {
      case .snapshot(let hash): state = (#","snapshot":"#, snapshotBytes, hash)
      case .diff(let hash): state = (#","diff":"#, diffBytes, hash)
      case .description(let description, let hash):
        line.raw(maximumCount: 64 + integers) { out in
          if let from { Self.write(from, to: &out) }
          out.write(#"},"stateDescription":"#)
        }
        JSONWriter.writeString(description, to: &line.bytes)
        line.raw(maximumCount: 16 + ByteCursor.hashCount) { out in
          out.write(#","hash":"#)
          out.write(hash)
          out.write("}\n")
        }
        return
      }
      line.raw(maximumCount: 96 + integers + state.bytes.count) { out in
        if let from { Self.write(from, to: &out) }
        out.write("}")
        out.write(state.key)
        out.write(state.bytes)
        out.write(#","hash":"#)
        out.write(state.hash)
        out.write("}\n")
      }
    }
  }

  /// Writes `{"seq":…,"t":…,"reactor":…,"kind":…,"id":…` and the label and value: how the
  /// line of a reactor's action or mutation in a session starts.
  private static func writeStart(
    _ sequence: Int, _ time: Duration, _ reactor: Int, _ kindAndID: StaticString, _ id: Int,
    _ members: [UInt8], to out: inout ByteCursor
  ) {
    out.write(#"{"seq":"#)
    out.write(sequence)
    out.write(#","t":"#)
    out.write(Int(time.traceNanoseconds))
    out.write(#","reactor":"#)
    out.write(reactor)
    out.write(kindAndID)
    out.write(id)
    out.write(members)
  }

  /// Writes `,"from":{"action":…,"effect":…,"reactor":…}`, the members in the order
  /// `TraceEvent.ReactorOrigin.json` serializes them.
  private static func write(_ from: TraceEvent.ReactorOrigin, to out: inout ByteCursor) {
    out.write(#","from":{"#)
    if let action = from.action {
      out.write(#""action":"#)
      out.write(action)
      out.write(",")
    }
    if let effect = from.effect {
      out.write(#""effect":"#)
      out.write(effect)
      out.write(",")
    }
    out.write(#""reactor":"#)
    out.write(from.reactor)
    out.write("}")
  }

  // MARK: Payloads

  /// The value's Codable encoding after redaction, or `nil` if it is not Encodable or its
  /// encoding fails.
  private func encode<Value>(
    _ value: Value, as encodable: StaticEncodable?, redactor: Redactor
  ) -> JSONValue? {
    let json: JSONValue?
    if let encodable {
      json = encode(value, as: encodable.type)
    } else if let encodable = value as? any Encodable {
      json = try? encoder.encode(encodable)
    } else {
      json = nil
    }
    return json.map { redactor.redact($0) }
  }

  /// Encodes `value`, whose type is `T`, without casting it dynamically.
  private func encode<Value, T: Encodable>(_ value: Value, as type: T.Type) -> JSONValue? {
    withUnsafePointer(to: value) { pointer in
      pointer.withMemoryRebound(to: T.self, capacity: 1) { try? encoder.encode($0.pointee) }
    }
  }

  private func describe<Value>(_ value: Value, redactor: Redactor) -> String {
    redactor.isActive ? TraceRedaction.marker : String(describing: value)
  }

  /// A readable label: the case name alone for a case without payload, else the value's
  /// description, or with redaction a description built from the redacted encoding.
  private func label<Value>(
    _ value: Value, isEnum: Bool, json: JSONValue?, redactor: Redactor
  ) -> String {
    if isEnum, let json, case .object(let object) = json, object.count == 1,
      case .object(let payload) = object.members[0].value
    {
      let name = object.members[0].key
      // An empty payload is a case without one, or one whose optional values are all nil.
      if payload.isEmpty && Mirror(reflecting: value).children.isEmpty { return name }
      if redactor.isActive {
        let arguments = payload.members.map { member in
          member.key.hasPrefix("_") && Int(member.key.dropFirst()) != nil
            ? Self.render(member.value) : "\(member.key): \(Self.render(member.value))"
        }
        return Self.truncated(name + "(" + arguments.joined(separator: ", ") + ")")
      }
    }
    if redactor.isActive {
      return json.map { Self.truncated(Self.render($0)) } ?? TraceRedaction.marker
    }
    let description = String(describing: value)
    if isEnum, Self.mentionsOptional(description),
      let readable = Self.caseLabel(value)
    {
      return Self.truncated(readable)
    }
    return Self.truncated(description)
  }

  /// Whether `description` holds `Optional(`: searched in its UTF-8, which a generic
  /// substring search took ten times as long to do.
  private static func mentionsOptional(_ description: String) -> Bool {
    var description = description
    return description.withUTF8 { bytes in
      let pattern: StaticString = "Optional("
      let count = pattern.utf8CodeUnitCount
      guard bytes.count >= count else { return false }
      let characters = pattern.utf8Start
      for start in 0...(bytes.count - count) where bytes[start] == characters[0] {
        var offset = 1
        while offset < count && bytes[start + offset] == characters[offset] { offset += 1 }
        if offset == count { return true }
      }
      return false
    }
  }

  /// An enum case's label with optional payload values unwrapped, as Swift would write the
  /// value in code: `setError("Wrong password")`, `setError(nil)`; `nil` when `value` is not
  /// a case with a payload.
  static func caseLabel(_ value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let name = child.label
    else { return nil }
    let payload = Mirror(reflecting: child.value)
    let arguments: [String]
    if payload.displayStyle == .tuple {
      arguments = payload.children.map { element in
        let label = element.label.map { $0.hasPrefix(".") ? "" : "\($0): " } ?? ""
        return label + payloadText(element.value)
      }
    } else {
      arguments = [payloadText(child.value)]
    }
    return name + "(" + arguments.joined(separator: ", ") + ")"
  }

  /// A payload value as a case label shows it: an optional's value or `nil`, otherwise as
  /// `debugPrint` writes it.
  private static func payloadText(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first else { return "nil" }
      return payloadText(wrapped.value)
    }
    return String(reflecting: value)
  }

  private static func render(_ value: JSONValue) -> String {
    value.serializedString
  }

  private static func truncated(_ label: String) -> String {
    guard label.count > maximumLabelLength else { return label }
    return String(label.prefix(maximumLabelLength - 1)) + "…"
  }
}

/// `Value` as an `Encodable` type, when it is one whose values a dynamic cast to
/// `any Encodable` gives unchanged: looked up once per recording, where the cast, for every
/// value, searched the conformance tables.
///
/// Optionals (and other `ExpressibleByNilLiteral` types) and existentials are left out: a
/// dynamic cast unwraps them, so they keep taking it.
///
/// `@unchecked Sendable`: it holds only a metatype, which never changes.
private struct StaticEncodable: @unchecked Sendable {
  let type: any Encodable.Type

  init?<Value>(_: Value.Type) {
    guard !(Value.self is any ExpressibleByNilLiteral.Type),
      let type = Value.self as? any Encodable.Type
    else { return nil }
    self.type = type
  }
}
