public import ReactorTracing

/// A trace as OpenTelemetry spans in OTLP JSON Lines, the OpenTelemetry Collector's file
/// exporter format: one `TracesData` object per line, which the collector's OTLP JSON file
/// receiver reads and forwards to Jaeger, Tempo or ClickHouse.
///
/// Each action is one OpenTelemetry trace, on one line: a root span from the action to the
/// last thing it caused, its synchronous mutations as span events, and each effect it
/// started as a child span from start to end, with the effect's mutations as its events.
/// Every mutation event carries the state paths it changed. An effect that finished has
/// status OK; one that failed, status ERROR with the error; one cancelled keeps status UNSET
/// (cancelling is how reactors drop stale work, not a failure) with the outcome as an
/// attribute and a `cancelled` event; one still running when the recording stopped ends
/// with the trace, marked `running`. A mutation an external stream sent is a trace of its own
/// (`stream NAME`). The reactor's type, schema digests and metadata are resource attributes;
/// the recorder and format version scope attributes. Ids are derived from the header and
/// the event ids, so exporting a trace again gives the same bytes. Times are Unix
/// nanoseconds from the header's clock origin, or from the epoch for a virtual clock.
///
/// ```swift
/// let export = try OTLPTrace(reader: TraceReader(path: "profile.trace.jsonl"))
/// try AtomicFile.write(export.jsonLines, to: "profile.otlp.jsonl")
/// ```
public struct OTLPTrace: Sendable {
  /// One OpenTelemetry trace: an action (or a stream element) and what it caused.
  private struct Root {
    var traceID: String
    var span: Span
    var effects: [Int] = []
  }

  /// One span being built.
  private struct Span {
    var spanID: String
    var parentID: String?
    var name: String
    var start: Int64
    var end: Int64
    var attributes: [(String, JSONValue)]
    var events: [JSONValue] = []
    var status: (code: Int64, message: String?)?
  }

  /// The `TracesData` lines, in the order their root actions happened.
  public private(set) var lines: [JSONValue] = []
  /// How many spans the lines hold.
  public private(set) var spanCount = 0

  /// Reads the rest of a trace and builds its spans.
  ///
  /// - Parameter reader: A reader that verifies states and has read no event yet.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(reader: TraceReader) throws(TraceReadError) {
    let header = reader.header
    let base = header.clock.origin.flatMap(TraceTime.unixNanoseconds(iso8601:)) ?? 0
    var seed = Array(header.reactor.utf8) + [0] + Array(header.initialStateHash.description.utf8)
    seed += [0] + Array((header.clock.origin ?? "").utf8)
    let traceSeed = TraceHash(of: seed).value
    func traceID(_ kind: UInt8, _ id: Int) -> String {
      Self.hex(traceSeed) + Self.hex(TraceHash(of: [kind] + Array(String(id).utf8)).value)
    }
    func spanID(_ kind: UInt8, _ id: Int) -> String {
      Self.hex(TraceHash(of: [kind, 0] + Array(String(id).utf8) + Self.bytes(traceSeed)).value)
    }
    var roots: [Root] = []
    var rootOfAction: [Int: Int] = [:]
    var effects: [Int: (root: Int, span: Span)] = [:]
    var endedEffects: [(root: Int, span: Span)] = []
    var previous = header.initialState
    var last: Int64 = base
    while let event = try reader.next() {
      let time = base &+ event.time.traceNanoseconds
      last = max(last, time)
      switch event.kind {
      case .action(let action):
        var attributes: [(String, JSONValue)] = [
          ("reactor.action.id", .int(Int64(action.id))),
          ("reactor.action.label", .string(action.label)),
        ]
        if case .stream(let name) = action.source {
          attributes.append(("reactor.action.stream", .string(name)))
        }
        rootOfAction[action.id] = roots.count
        roots.append(
          Root(
            traceID: traceID(1, action.id),
            span: Span(
              spanID: spanID(1, action.id), name: action.label, start: time, end: time,
              attributes: attributes)))
      case .effectStarted(let start):
        guard let root = rootOfAction[start.action] else { continue }
        var attributes: [(String, JSONValue)] = [("reactor.effect.id", .int(Int64(start.effect)))]
        if let name = start.name { attributes.append(("reactor.effect.name", .string(name))) }
        effects[start.effect] = (
          root,
          Span(
            spanID: spanID(2, start.effect), parentID: roots[root].span.spanID,
            name: start.name ?? "effect \(start.effect)", start: time, end: time,
            attributes: attributes)
        )
        roots[root].effects.append(start.effect)
      case .effectEnded(let end):
        guard let removed = effects.removeValue(forKey: end.effect) else { continue }
        let root = removed.root
        var span = removed.span
        span.end = time
        switch end.outcome {
        case .finished:
          span.status = (1, nil)
          span.attributes.append(("reactor.effect.outcome", "finished"))
        case .cancelled:
          span.attributes.append(("reactor.effect.outcome", "cancelled"))
          span.events.append(Self.event("cancelled", time: time, attributes: []))
        case .failed(let error):
          span.status = (2, error)
          span.attributes.append(("reactor.effect.outcome", "failed"))
        }
        roots[root].span.end = max(roots[root].span.end, time)
        endedEffects.append((root, span))
      case .mutation(let mutation):
        let paths = Self.changedPaths(mutation.state, from: previous, to: reader.currentState)
        previous = reader.currentState
        let mutationEvent = Self.event(
          mutation.label, time: time,
          attributes: [
            ("reactor.mutation.id", .int(Int64(mutation.id))),
            ("reactor.mutation.paths", .array(paths.map { .string($0) })),
            ("reactor.state.hash", .string(mutation.stateHash.description)),
          ])
        switch mutation.cause {
        case .effect(let effect, let action):
          if effects[effect] != nil {
            effects[effect]!.span.events.append(mutationEvent)
            effects[effect]!.span.end = max(effects[effect]!.span.end, time)
          } else if let root = rootOfAction[action] {
            roots[root].span.events.append(mutationEvent)
          }
          if let root = rootOfAction[action] {
            roots[root].span.end = max(roots[root].span.end, time)
          }
        case .action(let action):
          guard let root = rootOfAction[action] else { continue }
          roots[root].span.events.append(mutationEvent)
          roots[root].span.end = max(roots[root].span.end, time)
        case .stream(let name):
          var span = Span(
            spanID: spanID(3, mutation.id), name: "stream " + name, start: time, end: time,
            attributes: [("reactor.stream", .string(name))])
          span.events.append(mutationEvent)
          roots.append(Root(traceID: traceID(3, mutation.id), span: span))
        }
      case .streamEnded, .gap, .end:
        break
      }
    }
    // Effects still running when the recording stopped end with it.
    for (_, running) in effects.sorted(by: { $0.key < $1.key }) {
      var span = running.span
      span.end = last
      span.attributes.append(("reactor.effect.outcome", "running"))
      roots[running.root].span.end = max(roots[running.root].span.end, last)
      endedEffects.append((running.root, span))
    }
    var children: [Int: [Span]] = [:]
    for (root, span) in endedEffects { children[root, default: []].append(span) }
    let resource = Self.resource(header)
    let scope = Self.scope(header)
    for (index, root) in roots.enumerated() {
      let effectSpans = (children[index] ?? []).sorted { $0.start < $1.start }
      let spans = [root.span] + effectSpans
      spanCount += spans.count
      lines.append(
        .object(
          JSONObject([
            (
              "resourceSpans",
              .array([
                .object(
                  JSONObject([
                    ("resource", resource),
                    (
                      "scopeSpans",
                      .array([
                        .object(
                          JSONObject([
                            ("scope", scope),
                            ("spans", .array(spans.map { Self.json($0, traceID: root.traceID) })),
                          ]))
                      ])
                    ),
                  ]))
              ])
            )
          ])))
    }
  }

  /// The lines as bytes, each ending in a newline.
  public var jsonLines: [UInt8] {
    var bytes: [UInt8] = []
    for line in lines {
      line.write(to: &bytes)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  private static func json(_ span: Span, traceID: String) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("traceId", .string(traceID)),
      ("spanId", .string(span.spanID)),
      ("name", .string(span.name)),
      ("kind", .int(1)),
      ("startTimeUnixNano", .string(String(span.start))),
      ("endTimeUnixNano", .string(String(span.end))),
      ("attributes", attributes(span.attributes)),
      ("events", .array(span.events)),
    ]
    if let parent = span.parentID { members.append(("parentSpanId", .string(parent))) }
    if let status = span.status {
      var fields: [(String, JSONValue)] = [("code", .int(status.code))]
      if let message = status.message { fields.append(("message", .string(message))) }
      members.append(("status", .object(JSONObject(fields))))
    }
    return .object(JSONObject(members))
  }

  private static func event(
    _ name: String, time: Int64, attributes list: [(String, JSONValue)]
  ) -> JSONValue {
    .object(
      JSONObject([
        ("name", .string(name)),
        ("timeUnixNano", .string(String(time))),
        ("attributes", attributes(list)),
      ]))
  }

  /// OTLP's `KeyValue` list: `{"key": …, "value": {"stringValue": …}}`.
  private static func attributes(_ list: [(String, JSONValue)]) -> JSONValue {
    .array(
      list.map { key, value in
        .object(JSONObject([("key", .string(key)), ("value", anyValue(value))]))
      })
  }

  private static func anyValue(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let number):
      .object(JSONObject([("intValue", .string(String(number)))]))
    case .bool(let flag):
      .object(JSONObject([("boolValue", .bool(flag))]))
    case .array(let elements):
      .object(
        JSONObject([
          ("arrayValue", .object(JSONObject([("values", .array(elements.map(anyValue)))])))
        ]))
    case .string(let text):
      .object(JSONObject([("stringValue", .string(text))]))
    default:
      .object(JSONObject([("stringValue", .string(value.serializedString))]))
    }
  }

  private static func resource(_ header: TraceHeader) -> JSONValue {
    var list: [(String, JSONValue)] = [
      ("service.name", .string(header.reactor)),
      ("reactor.type", .string(header.reactor)),
      ("reactor.schema.action", .string(header.schema.action.digest.description)),
      ("reactor.schema.mutation", .string(header.schema.mutation.digest.description)),
      ("reactor.schema.state", .string(header.schema.state.digest.description)),
    ]
    for key in header.metadata.keys.sorted() {
      list.append(("reactor.metadata." + key, .string(header.metadata[key]!)))
    }
    return .object(JSONObject([("attributes", attributes(list))]))
  }

  private static func scope(_ header: TraceHeader) -> JSONValue {
    var list: [(String, JSONValue)] = [
      ("reactor.trace.format", .string(header.version.description)),
      ("reactor.clock", .string(header.clock.name)),
    ]
    if let recorder = header.recorder { list.append(("reactor.trace.recorder", .string(recorder))) }
    return .object(
      JSONObject([
        ("name", "reactor-trace"), ("version", "0.1.0"), ("attributes", attributes(list)),
      ]))
  }

  /// The dotted paths a mutation changed: its diff's, or those between the two states.
  private static func changedPaths(
    _ change: TraceEvent.StateChange, from old: TraceHeader.State, to new: TraceHeader.State
  ) -> [String] {
    let operations: [TraceDiffOperation]
    switch change {
    case .diff(let stored):
      operations = stored
    case .snapshot:
      guard case .json(let before) = old, case .json(let after) = new else { return ["."] }
      operations = before.diff(to: after)
    case .description:
      return ["."]
    }
    var seen: Set<String> = []
    var paths: [String] = []
    for operation in operations {
      let path = operation.path.isEmpty ? "." : operation.path.dottedDescription
      if seen.insert(path).inserted { paths.append(path) }
    }
    return paths
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  private static func bytes(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
}
