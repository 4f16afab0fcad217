import ReactorJSON
import ReactorSchema

extension SessionEvent {
  /// The event as one line of a session trace: compact JSON with `seq`, `t`, `reactor` (for
  /// the events of one reactor) and `kind` first, without the trailing newline.
  public var serializedLine: [UInt8] {
    var line = LineWriter()
    write(to: &line)
    return line.bytes
  }

  /// Appends the event's line, without a newline, to `line`.
  func write(to line: inout LineWriter) {
    switch kind {
    case .reactor(let reactor, let kind):
      TraceEvent(sequence: sequence, time: time, kind: kind).write(to: &line, reactor: reactor)
      return
    case .gap(let gap):
      TraceEvent(sequence: sequence, time: time, kind: .gap(gap)).write(to: &line)
      return
    default:
      break
    }
    line.begin()
    line.member("seq", sequence)
    line.member("t", time.traceNanoseconds)
    switch kind {
    case .introduced(let introduction):
      line.member("reactor", introduction.reactor)
      line.member("kind", "reactor")
      line.member("type", introduction.type)
      if let name = introduction.name { line.member("name", name) }
      if let parent = introduction.parent { line.member("parent", parent) }
      if let during = introduction.createdDuring { line.member("during", during) }
      line.member("schema", introduction.schema.json)
      TraceHeader.write(
        initialState: introduction.initialState, hash: introduction.initialStateHash, to: &line)
    case .released(let reactor):
      line.member("reactor", reactor)
      line.member("kind", "release")
    case .end(let end):
      line.member("kind", "end")
      line.member("observed", end.observedEvents)
      line.member("dropped", end.droppedEvents)
      if !end.runningEffects.isEmpty {
        line.key("running")
        line.array(end.runningEffects) { line, running in
          var object = JSONObject()
          object["reactor"] = .int(Int64(running.reactor))
          object["effect"] = .int(Int64(running.start.effect))
          object["action"] = .int(Int64(running.start.action))
          if let name = running.start.name { object["name"] = .string(name) }
          line.value(.object(object))
        }
      }
    case .reactor, .gap:
      break
    }
    line.end()
  }

  /// Reads an event from a parsed line of a session trace.
  ///
  /// Members this reader does not know are ignored; a `kind` it does not know is reported as
  /// ``SessionEventDecoding/unknownKind(_:)`` so a reader can skip the line.
  /// - Throws: What is missing or malformed.
  static func decode(_ json: JSONValue) throws(TraceFormatError) -> SessionEventDecoding {
    let fields = try JSONFields(json, what: "an event")
    let sequence = try fields.integer("seq", minimum: 1)
    let time = Duration.traceNanoseconds(try fields.int64("t", minimum: 0))
    let kind: Kind
    switch try fields.string("kind") {
    case "reactor":
      let schema: TraceSchema
      do {
        schema = try TraceSchema(json: try fields.value("schema"))
      } catch {
        throw TraceFormatError("'schema': \(error)")
      }
      let (initialState, hash) = try TraceHeader.initialState(fields)
      let introduction = ReactorIntroduction(
        reactor: try fields.integer("reactor", minimum: 1), type: try fields.string("type"),
        name: try fields.optionalString("name"), schema: schema, initialState: initialState,
        initialStateHash: hash, parent: try fields.optionalInteger("parent", minimum: 1),
        createdDuring: try fields.optionalInteger("during", minimum: 1))
      if let during = introduction.createdDuring, during >= sequence {
        throw TraceFormatError("'during' must name an earlier event, found \(during)")
      }
      kind = .introduced(introduction)
    case "release":
      kind = .released(reactor: try fields.integer("reactor", minimum: 1))
    case "end":
      var running: [RunningEffect] = []
      if let list = fields.optionalValue("running") {
        guard case .array(let starts) = list else {
          throw TraceFormatError("'running' must be an array, found \(list.kindName)")
        }
        for start in starts {
          let startFields = try JSONFields(start, what: "a running effect")
          running.append(
            RunningEffect(
              reactor: try startFields.integer("reactor", minimum: 1),
              start: TraceEvent.EffectStart(
                effect: try startFields.integer("effect", minimum: 1),
                action: try startFields.integer("action", minimum: 1),
                name: try startFields.optionalString("name"))))
        }
      }
      kind = .end(
        End(
          observedEvents: try fields.integer("observed", minimum: 0),
          droppedEvents: try fields.integer("dropped", minimum: 0), runningEffects: running))
    default:
      switch try TraceEvent.decode(json) {
      case .unknownKind(let name):
        return .unknownKind(name)
      case .event(let event):
        switch event.kind {
        case .gap(let gap):
          kind = .gap(gap)
        case .end:
          preconditionFailure("the end line of a session is decoded above")
        default:
          kind = .reactor(try fields.integer("reactor", minimum: 1), event.kind)
        }
      }
    }
    return .event(SessionEvent(sequence: sequence, time: time, kind: kind))
  }
}

/// The result of reading one line of a session trace.
enum SessionEventDecoding {
  /// An event.
  case event(SessionEvent)
  /// A line of a kind this reader does not know, from a newer minor version.
  case unknownKind(String)
}
