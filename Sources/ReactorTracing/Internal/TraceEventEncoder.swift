import ReactorCore

/// Turns captured events into trace events: encodes payloads, makes labels, applies
/// redaction, and stores each state as a snapshot or a diff from the previous one.
///
/// It is a value that moves to wherever encoding happens (the file writer's thread, or the
/// memory recorder when asked for its events); it never runs on the reactor's hot path.
struct TraceEventEncoder<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  /// Labels longer than this are cut, with an ellipsis.
  static var maximumLabelLength: Int { 200 }

  private let encoder = JSONValueEncoder()
  private let actionRedactor: Redactor
  private let mutationRedactor: Redactor
  private let stateRedactor: Redactor
  private let snapshotInterval: Int

  /// The encoding of the last state, or `nil` when the next state must be a snapshot.
  private var previousState: JSONValue?
  private var mutationsSinceSnapshot = 0
  /// Whether the Action and Mutation types are enums, learned from their first values.
  private var actionIsEnum: Bool?
  private var mutationIsEnum: Bool?

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
    previousState = encode(state, redactor: stateRedactor)
    let stored: TraceHeader.State =
      previousState.map { .json($0) } ?? .description(describe(state, redactor: stateRedactor))
    return (stored, stored.hash)
  }

  /// The trace event for a captured one.
  mutating func encode(_ stamped: StampedEvent<Action, Mutation, State>) -> TraceEvent {
    let kind: TraceEvent.Kind
    switch stamped.event {
    case .action(let action, let id, let origin):
      let value = encode(action, redactor: actionRedactor)
      let isEnum = actionIsEnum ?? (Mirror(reflecting: action).displayStyle == .enum)
      actionIsEnum = isEnum
      let source: TraceEvent.Source =
        switch origin {
        case .stream(let name): .stream(name)
        case .sent, .action, .effect: .sent
        }
      kind = .action(
        TraceEvent.Action(
          id: id, label: label(action, isEnum: isEnum, json: value, redactor: actionRedactor),
          value: value,
          source: source))
    case .effectStarted(let effect, let action, let name):
      kind = .effectStarted(TraceEvent.EffectStart(effect: effect, action: action, name: name))
    case .effectEnded(let effect, let outcome):
      let traceOutcome: TraceEvent.Outcome =
        switch outcome {
        case .finished: .finished
        case .cancelled: .cancelled
        case .failed(let error): .failed(error)
        }
      kind = .effectEnded(TraceEvent.EffectEnd(effect: effect, outcome: traceOutcome))
    case .mutation(let mutation, let id, let origin, let state):
      let value = encode(mutation, redactor: mutationRedactor)
      let isEnum = mutationIsEnum ?? (Mirror(reflecting: mutation).displayStyle == .enum)
      mutationIsEnum = isEnum
      let cause: TraceEvent.Cause =
        switch origin {
        case .action(let action): .action(action)
        case .effect(let effect, let action): .effect(effect, action: action)
        case .stream(let name): .stream(name)
        // The runtime never reports a sent mutation; kept distinguishable if it ever does.
        case .sent: .stream("send")
        }
      let (change, hash) = stateChange(to: state)
      kind = .mutation(
        TraceEvent.Mutation(
          id: id, label: label(mutation, isEnum: isEnum, json: value, redactor: mutationRedactor),
          value: value,
          cause: cause, state: change, stateHash: hash))
    case .streamEnded(let name, let error):
      kind = .streamEnded(TraceEvent.StreamEnd(stream: name, error: error))
    case .end(let observed, let dropped):
      kind = .end(TraceEvent.End(observedEvents: observed, droppedEvents: dropped))
    }
    return TraceEvent(sequence: stamped.sequence, time: stamped.time, kind: kind)
  }

  // MARK: States

  private mutating func stateChange(to state: State) -> (TraceEvent.StateChange, TraceHash) {
    guard let json = encode(state, redactor: stateRedactor) else {
      previousState = nil
      let description = describe(state, redactor: stateRedactor)
      return (.description(description), TraceHeader.State.description(description).hash)
    }
    var measure = MeasuringHasher()
    JSONWriter.write(json, to: &measure)
    let hash = TraceHash(measure.hasher.value)
    let snapshotBytes = measure.count

    if let previous = previousState, mutationsSinceSnapshot < snapshotInterval {
      let operations = previous.diff(to: json)
      var diffMeasure = MeasuringHasher()
      for operation in operations { JSONWriter.write(operation.json, to: &diffMeasure) }
      if diffMeasure.count < snapshotBytes {
        mutationsSinceSnapshot += 1
        previousState = json
        return (.diff(operations), hash)
      }
    }
    previousState = json
    mutationsSinceSnapshot = 0
    return (.snapshot(json), hash)
  }

  // MARK: Payloads

  /// The value's Codable encoding after redaction, or `nil` if it is not Encodable or its
  /// encoding fails.
  private func encode<Value>(_ value: Value, redactor: Redactor) -> JSONValue? {
    guard let encodable = value as? any Encodable,
      let json = try? encoder.encode(encodable)
    else { return nil }
    return redactor.redact(json)
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
      if payload.isEmpty { return name }
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
    return Self.truncated(String(describing: value))
  }

  private static func render(_ value: JSONValue) -> String {
    value.serializedString
  }

  private static func truncated(_ label: String) -> String {
    guard label.count > maximumLabelLength else { return label }
    return String(label.prefix(maximumLabelLength - 1)) + "…"
  }
}

/// Counts and hashes bytes in one pass: a state's size and its hash.
struct MeasuringHasher: JSONByteSink {
  var hasher = FNV1a64()
  var count = 0

  mutating func append(_ byte: UInt8) {
    hasher.append(byte)
    count += 1
  }

  mutating func append<Bytes: Collection<UInt8>>(contentsOf bytes: Bytes) {
    hasher.append(contentsOf: bytes)
    count += bytes.count
  }
}
