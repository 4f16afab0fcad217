import ReactorJSON

extension TraceEvent {
  /// The event as one trace line: compact JSON with `seq`, `t` and `kind` first, without the
  /// trailing newline.
  public var serializedLine: [UInt8] {
    var line = LineWriter()
    write(to: &line)
    return line.bytes
  }

  /// Appends the event's line, without a newline, to `line`.
  /// - Parameters:
  ///   - line: The line being written.
  ///   - reactor: In a session, the id of the reactor whose event it is, written after `t`.
  func write(to line: inout LineWriter, reactor: Int? = nil) {
    line.begin()
    line.member("seq", sequence)
    line.member("t", time.traceNanoseconds)
    if let reactor { line.member("reactor", reactor) }
    switch kind {
    case .action(let action):
      line.member("kind", "action")
      line.member("id", action.id)
      line.member("label", action.label)
      if let value = action.value { line.member("value", value) }
      switch action.source {
      case .sent:
        line.member("source", "sent")
      case .stream(let name):
        line.member("source", "stream")
        line.member("stream", name)
      }
      if let from = action.from { line.member("from", from.json) }
      if let external = action.external { line.member("external", external) }
    case .effectStarted(let start):
      line.member("kind", "effectStart")
      line.member("effect", start.effect)
      line.member("action", start.action)
      if let name = start.name { line.member("name", name) }
      if let cancelID = start.cancelID { line.member("cancelID", cancelID) }
      if start.cancelsInFlight { line.member("cancelInFlight", true) }
    case .effectEnded(let end):
      line.member("kind", "effectEnd")
      line.member("effect", end.effect)
      switch end.outcome {
      case .finished: line.member("outcome", "finished")
      case .cancelled: line.member("outcome", "cancelled")
      case .failed(let error):
        line.member("outcome", "failed")
        line.member("error", error)
      }
    case .mutation(let mutation):
      line.member("kind", "mutation")
      line.member("id", mutation.id)
      line.member("label", mutation.label)
      if let value = mutation.value { line.member("value", value) }
      line.key("cause")
      mutation.cause.write(to: &line, publisher: mutation.publisher, from: mutation.from)
      switch mutation.state {
      case .snapshot(let state):
        line.member("snapshot", state)
      case .diff(let operations):
        line.key("diff")
        line.array(operations) { line, operation in line.value(operation.json) }
      case .description(let description):
        line.member("stateDescription", description)
      }
      line.member("hash", mutation.stateHash.description)
    case .streamEnded(let end):
      line.member("kind", "streamEnd")
      line.member("stream", end.stream)
      if let error = end.error { line.member("error", error) }
    case .jump(let jump):
      line.member("kind", "jump")
      line.member("to", jump.target)
      if let external = jump.external { line.member("external", external) }
      switch jump.state {
      case .json(let state): line.member("snapshot", state)
      case .description(let description): line.member("stateDescription", description)
      }
      line.member("hash", jump.stateHash.description)
    case .gap(let gap):
      line.member("kind", "gap")
      line.member("dropped", gap.droppedEvents)
    case .end(let end):
      line.member("kind", "end")
      line.member("observed", end.observedEvents)
      line.member("dropped", end.droppedEvents)
      if !end.runningEffects.isEmpty {
        line.key("running")
        line.array(end.runningEffects) { line, start in
          var object = JSONObject()
          object["effect"] = .int(Int64(start.effect))
          object["action"] = .int(Int64(start.action))
          if let name = start.name { object["name"] = .string(name) }
          line.value(.object(object))
        }
      }
    }
    line.end()
  }

  /// Reads an event from a parsed trace line.
  ///
  /// Members this reader does not know are ignored. A `kind` it does not know is reported as
  /// ``TraceEventDecoding/unknownKind(_:)`` so a reader can skip the line.
  /// - Throws: What is missing or malformed.
  static func decode(_ json: JSONValue) throws(TraceFormatError) -> TraceEventDecoding {
    let fields = try JSONFields(json, what: "an event")
    let sequence = try fields.integer("seq", minimum: 1)
    let time = Duration.traceNanoseconds(try fields.int64("t", minimum: 0))
    let kindName = try fields.string("kind")
    let kind: Kind
    switch kindName {
    case "action":
      let source: Source
      switch try fields.string("source") {
      case "sent": source = .sent
      case "stream": source = .stream(try fields.string("stream"))
      case let other: throw TraceFormatError("unknown action source '\(other)'")
      }
      kind = .action(
        Action(
          id: try fields.integer("id", minimum: 1), label: try fields.string("label"),
          value: fields.optionalValue("value"), source: source,
          from: try fields.optionalValue("from").map { json throws(TraceFormatError) in
            try ReactorOrigin(json: json)
          }, external: try fields.optionalString("external")))
    case "effectStart":
      kind = .effectStarted(
        EffectStart(
          effect: try fields.integer("effect", minimum: 1),
          action: try fields.integer("action", minimum: 1),
          name: try fields.optionalString("name"),
          cancelID: try fields.optionalString("cancelID"),
          cancelsInFlight: try fields.optionalBool("cancelInFlight") ?? false))
    case "effectEnd":
      let outcome: Outcome
      switch try fields.string("outcome") {
      case "finished": outcome = .finished
      case "cancelled": outcome = .cancelled
      case "failed": outcome = .failed(try fields.string("error"))
      case let other: throw TraceFormatError("unknown effect outcome '\(other)'")
      }
      kind = .effectEnded(
        EffectEnd(effect: try fields.integer("effect", minimum: 1), outcome: outcome))
    case "mutation":
      let causeFields = try JSONFields(try fields.value("cause"), what: "'cause'")
      let cause: Cause
      if let stream = try causeFields.optionalString("stream") {
        cause = .stream(stream)
      } else if let effect = try causeFields.optionalInteger("effect", minimum: 1) {
        cause = .effect(effect, action: try causeFields.integer("action", minimum: 1))
      } else {
        cause = .action(try causeFields.integer("action", minimum: 1))
      }
      let from = try causeFields.optionalValue("from").map { json throws(TraceFormatError) in
        try ReactorOrigin(json: json)
      }
      var publisher: Publisher?
      if case .stream = cause, let json = causeFields.optionalValue("publishedBy") {
        publisher = try Publisher(json: json)
      }
      let state: StateChange
      if let snapshot = fields.optionalValue("snapshot") {
        state = .snapshot(snapshot)
      } else if let diff = fields.optionalValue("diff") {
        guard case .array(let operations) = diff else {
          throw TraceFormatError("'diff' must be an array, found \(diff.kindName)")
        }
        var decoded: [TraceDiffOperation] = []
        decoded.reserveCapacity(operations.count)
        for operation in operations { decoded.append(try TraceDiffOperation(json: operation)) }
        state = .diff(decoded)
      } else if let description = try fields.optionalString("stateDescription") {
        state = .description(description)
      } else {
        throw TraceFormatError("a mutation needs 'snapshot', 'diff' or 'stateDescription'")
      }
      let hashText = try fields.string("hash")
      guard let hash = TraceHash(hex: hashText) else {
        throw TraceFormatError("'hash' must be 16 hexadecimal digits, found '\(hashText)'")
      }
      kind = .mutation(
        Mutation(
          id: try fields.integer("id", minimum: 1), label: try fields.string("label"),
          value: fields.optionalValue("value"), cause: cause, state: state, stateHash: hash,
          from: from, publisher: publisher))
    case "streamEnd":
      kind = .streamEnded(
        StreamEnd(stream: try fields.string("stream"), error: try fields.optionalString("error")))
    case "jump":
      let state: TraceHeader.State
      if let snapshot = fields.optionalValue("snapshot") {
        state = .json(snapshot)
      } else if let description = try fields.optionalString("stateDescription") {
        state = .description(description)
      } else {
        throw TraceFormatError("a jump needs 'snapshot' or 'stateDescription'")
      }
      let hashText = try fields.string("hash")
      guard let hash = TraceHash(hex: hashText) else {
        throw TraceFormatError("'hash' must be 16 hexadecimal digits, found '\(hashText)'")
      }
      kind = .jump(
        Jump(
          target: try fields.integer("to", minimum: 0),
          external: try fields.optionalString("external"), state: state, stateHash: hash))
    case "gap":
      kind = .gap(Gap(droppedEvents: try fields.integer("dropped", minimum: 1)))
    case "end":
      var running: [EffectStart] = []
      if let list = fields.optionalValue("running") {
        guard case .array(let starts) = list else {
          throw TraceFormatError("'running' must be an array, found \(list.kindName)")
        }
        for start in starts {
          let startFields = try JSONFields(start, what: "a running effect")
          running.append(
            EffectStart(
              effect: try startFields.integer("effect", minimum: 1),
              action: try startFields.integer("action", minimum: 1),
              name: try startFields.optionalString("name")))
        }
      }
      kind = .end(
        End(
          observedEvents: try fields.integer("observed", minimum: 0),
          droppedEvents: try fields.integer("dropped", minimum: 0), runningEffects: running))
    default:
      return .unknownKind(kindName)
    }
    return .event(TraceEvent(sequence: sequence, time: time, kind: kind))
  }
}

extension TraceEvent.Cause {
  /// Appends the cause as a JSON object to `line`.
  /// - Parameters:
  ///   - line: The line being written.
  ///   - publisher: For a stream cause, this reactor's action and effect that published the
  ///     element, written as `publishedBy`.
  ///   - from: The origin in another reactor of a session, written as the cause's `from`.
  func write(
    to line: inout LineWriter, publisher: TraceEvent.Publisher? = nil,
    from: TraceEvent.ReactorOrigin? = nil
  ) {
    line.begin()
    switch self {
    case .action(let action):
      line.member("action", action)
    case .effect(let effect, let action):
      line.member("action", action)
      line.member("effect", effect)
    case .stream(let name):
      line.member("stream", name)
      if let publisher { line.member("publishedBy", publisher.json) }
    }
    if let from { line.member("from", from.json) }
    line.end()
  }
}

/// The result of reading one event line.
enum TraceEventDecoding {
  /// An event.
  case event(TraceEvent)
  /// A line of a kind this reader does not know, from a newer minor version.
  case unknownKind(String)
}

extension Duration {
  /// The duration in whole nanoseconds, as traces store times (`t`), and as exports and
  /// JSON reports of a trace write them: ``TraceTime/nanoseconds(_:)``, held to the range a
  /// trace can store (0 below it, `Int64.max` above it) so that times never wrap.
  public var traceNanoseconds: Int64 {
    if let nanoseconds = TraceTime.nanoseconds(self) { return nanoseconds }
    return self < .zero ? 0 : Int64.max
  }

  /// A duration of whole nanoseconds.
  static func traceNanoseconds(_ nanoseconds: Int64) -> Duration {
    .nanoseconds(nanoseconds)
  }
}
