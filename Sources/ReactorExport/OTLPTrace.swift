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
/// (`stream NAME`). In a session, a cause that crosses reactors is a span link to the
/// sender's span (``init(session:)``). The reactor's type, schema digests and metadata are
/// resource attributes;
/// the recorder and format version scope attributes. Ids are derived from the header and
/// the event ids, so exporting a trace again gives the same bytes. Times are Unix
/// nanoseconds from the header's clock origin, or from the epoch for a virtual clock.
///
/// ```swift
/// let export = try OTLPTrace(session: SessionReader(path: "profile.trace.jsonl"))
/// try AtomicFile.write(export.jsonLines, to: "profile.otlp.jsonl")
/// ```
public struct OTLPTrace: Sendable {
  /// One OpenTelemetry trace: an action (or a stream element) and what it caused.
  private struct Root {
    var traceID: String
    var span: Span
    /// The reactor whose action or element it is.
    var reactor: Int
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
    var links: [JSONValue] = []
    var status: (code: Int64, message: String?)?
  }

  /// The trace and span ids of one reactor's spans, derived from what introduced it, so that
  /// exporting again gives the same ids and a link can name a span of another reactor.
  private struct SpanIDs {
    var seed: UInt64

    /// Kinds of span: an action's root, an effect, a stream element's root.
    static let action: UInt8 = 1
    static let effect: UInt8 = 2
    static let stream: UInt8 = 3
    /// A jump's root, by the jump's `seq`.
    static let jump: UInt8 = 4

    /// The ids of a reactor of `type` whose initial state hashes to `hash`, on a clock with
    /// `origin`; `reactor` is its id in a session (`nil` for a trace of one reactor).
    init(type: String, hash: TraceHash, origin: String?, reactor: Int?) {
      var bytes = Array(type.utf8) + [0] + Array(hash.description.utf8)
      bytes += [0] + Array((origin ?? "").utf8)
      if let reactor { bytes += [0] + Array("reactor \(reactor)".utf8) }
      seed = TraceHash(of: bytes).value
    }

    func traceID(_ kind: UInt8, _ id: Int) -> String {
      OTLPTrace.hex(seed) + OTLPTrace.hex(TraceHash(of: [kind] + Array(String(id).utf8)).value)
    }

    func spanID(_ kind: UInt8, _ id: Int) -> String {
      OTLPTrace.hex(
        TraceHash(of: [kind, 0] + Array(String(id).utf8) + OTLPTrace.bytes(seed)).value)
    }
  }

  /// What is being built for one reactor: its ids, resource, actions and open effects.
  private struct Lane {
    var ids: SpanIDs
    var resource: JSONValue
    var previous: TraceHeader.State
    var rootOfAction: [Int: Int] = [:]
    /// The action of each effect given a span, ended or not: what a link to the effect needs.
    var actionOfEffect: [Int: Int] = [:]
    var effects: [Int: (root: Int, span: Span)] = [:]
  }

  /// The spans of a trace or a session, built event by event.
  private struct Builder: SessionExportBuilder {
    let header: SessionHeader
    var base: Int64
    var last: Int64
    var lanes: [Int: Lane] = [:]
    var roots: [Root] = []
    var endedEffects: [(root: Int, span: Span)] = []

    init(header: SessionHeader) {
      self.header = header
      base = header.clock.origin.flatMap(TraceTime.unixNanoseconds(iso8601:)) ?? 0
      last = base
    }

    /// Gives a reactor its ids and resource.
    ///
    /// The ids of a trace's reactor are derived from its type, initial state and clock alone;
    /// a session's reactor's from its id too.
    mutating func introduce(_ introduction: ReactorIntroduction, sequence: Int, time: Duration) {
      let reactor = introduction.reactor
      lanes[reactor] = Lane(
        ids: SpanIDs(
          type: introduction.type, hash: introduction.initialStateHash,
          origin: header.clock.origin, reactor: header.isTraceOfOneReactor ? nil : reactor),
        resource: OTLPTrace.resource(introduction, in: header),
        previous: introduction.initialState)
    }

    /// The link from a span to the span of another reactor's action or effect that `origin`
    /// names.
    ///
    /// `nil` when that reactor is unknown, was handling no action, or the export has no span
    /// of that action. An effect the export has no span for under that action (a session that
    /// names one it never started) links to the action's span.
    func link(to origin: TraceEvent.ReactorOrigin) -> JSONValue? {
      guard let lane = lanes[origin.reactor], let action = origin.action,
        lane.rootOfAction[action] != nil
      else { return nil }
      let ids = lane.ids
      let spanID =
        origin.effect.flatMap { lane.actionOfEffect[$0] == action ? $0 : nil }
        .map { ids.spanID(SpanIDs.effect, $0) } ?? ids.spanID(SpanIDs.action, action)
      var list: [(String, JSONValue)] = [
        ("reactor.from.reactor", .int(Int64(origin.reactor))),
        ("reactor.from.action", .int(Int64(action))),
      ]
      if let effect = origin.effect { list.append(("reactor.from.effect", .int(Int64(effect)))) }
      return .object(
        JSONObject([
          ("traceId", .string(ids.traceID(SpanIDs.action, action))),
          ("spanId", .string(spanID)),
          ("attributes", OTLPTrace.attributes(list)),
        ]))
    }

    /// Adds one event of reactor `reactor`, whose state after it is `state`.
    mutating func add(
      _ kind: TraceEvent.Kind, of reactor: Int, sequence: Int, time eventTime: Duration,
      state: TraceHeader.State?
    ) {
      guard var lane = lanes[reactor] else { return }
      defer { lanes[reactor] = lane }
      let time = base &+ eventTime.traceNanoseconds
      last = max(last, time)
      switch kind {
      case .action(let action):
        var attributes: [(String, JSONValue)] = [
          ("reactor.action.id", .int(Int64(action.id))),
          ("reactor.action.label", .string(action.label)),
        ]
        if case .stream(let name) = action.source {
          attributes.append(("reactor.action.stream", .string(name)))
        }
        var span = Span(
          spanID: lane.ids.spanID(SpanIDs.action, action.id), name: action.label, start: time,
          end: time, attributes: attributes)
        if let from = action.from, let link = link(to: from) { span.links.append(link) }
        lane.rootOfAction[action.id] = roots.count
        roots.append(
          Root(traceID: lane.ids.traceID(SpanIDs.action, action.id), span: span, reactor: reactor))
      case .effectStarted(let start):
        guard let root = lane.rootOfAction[start.action] else { return }
        lane.actionOfEffect[start.effect] = start.action
        var attributes: [(String, JSONValue)] = [("reactor.effect.id", .int(Int64(start.effect)))]
        if let name = start.name { attributes.append(("reactor.effect.name", .string(name))) }
        lane.effects[start.effect] = (
          root,
          Span(
            spanID: lane.ids.spanID(SpanIDs.effect, start.effect),
            parentID: roots[root].span.spanID, name: start.name ?? "effect \(start.effect)",
            start: time, end: time, attributes: attributes)
        )
      case .effectEnded(let end):
        guard let removed = lane.effects.removeValue(forKey: end.effect) else { return }
        var span = removed.span
        span.end = time
        switch end.outcome {
        case .finished:
          span.status = (1, nil)
          span.attributes.append(("reactor.effect.outcome", "finished"))
        case .cancelled:
          span.attributes.append(("reactor.effect.outcome", "cancelled"))
          span.events.append(OTLPTrace.event("cancelled", time: time, attributes: []))
        case .failed(let error):
          span.status = (2, error)
          span.attributes.append(("reactor.effect.outcome", "failed"))
        }
        roots[removed.root].span.end = max(roots[removed.root].span.end, time)
        endedEffects.append((removed.root, span))
      case .mutation(let mutation):
        let current = state ?? lane.previous
        let paths = OTLPTrace.changedPaths(mutation.state, from: lane.previous, to: current)
        lane.previous = current
        let mutationEvent = OTLPTrace.event(
          mutation.label, time: time,
          attributes: [
            ("reactor.mutation.id", .int(Int64(mutation.id))),
            ("reactor.mutation.paths", .array(paths.map { .string($0) })),
            ("reactor.state.hash", .string(mutation.stateHash.description)),
          ])
        switch mutation.cause {
        case .effect(let effect, let action):
          if lane.effects[effect] != nil {
            lane.effects[effect]!.span.events.append(mutationEvent)
            lane.effects[effect]!.span.end = max(lane.effects[effect]!.span.end, time)
          } else if let root = lane.rootOfAction[action] {
            roots[root].span.events.append(mutationEvent)
          }
          if let root = lane.rootOfAction[action] {
            roots[root].span.end = max(roots[root].span.end, time)
          }
        case .action(let action):
          guard let root = lane.rootOfAction[action] else { return }
          roots[root].span.events.append(mutationEvent)
          roots[root].span.end = max(roots[root].span.end, time)
        case .stream(let name):
          var span = Span(
            spanID: lane.ids.spanID(SpanIDs.stream, mutation.id), name: "stream " + name,
            start: time, end: time, attributes: [("reactor.stream", .string(name))])
          span.events.append(mutationEvent)
          if let from = mutation.from, let link = link(to: from) { span.links.append(link) }
          roots.append(
            Root(
              traceID: lane.ids.traceID(SpanIDs.stream, mutation.id), span: span,
              reactor: reactor))
        }
      case .jump(let jump):
        // A root of its own: the state set from outside the app, caused by nothing recorded.
        let current = state ?? lane.previous
        let paths = OTLPTrace.changedPaths(jump.stateChange, from: lane.previous, to: current)
        lane.previous = current
        var attributes: [(String, JSONValue)] = [
          ("reactor.jump.to", .int(Int64(jump.target))),
          ("reactor.mutation.paths", .array(paths.map { .string($0) })),
          ("reactor.state.hash", .string(jump.stateHash.description)),
        ]
        if let external = jump.external {
          attributes.append(("reactor.external", .string(external)))
        }
        roots.append(
          Root(
            traceID: lane.ids.traceID(SpanIDs.jump, sequence),
            span: Span(
              spanID: lane.ids.spanID(SpanIDs.jump, sequence), name: "jump to event \(jump.target)",
              start: time, end: time, attributes: attributes),
            reactor: reactor))
      case .streamEnded, .gap, .end:
        break
      }
    }

    /// Gives `output` the `TracesData` lines, effects still running ending with the
    /// recording, and returns them and how many spans they hold.
    mutating func finish(
      warnings: [TraceWarning], to output: ([UInt8]) -> Void
    ) -> (lines: [JSONValue], spanCount: Int) {
      let scope = OTLPTrace.scope(
        version: header.version, clock: header.clock, recorder: header.recorder)
      for reactor in lanes.keys.sorted() {
        for (_, running) in lanes[reactor]!.effects.sorted(by: { $0.key < $1.key }) {
          var span = running.span
          span.end = last
          span.attributes.append(("reactor.effect.outcome", "running"))
          roots[running.root].span.end = max(roots[running.root].span.end, last)
          endedEffects.append((running.root, span))
        }
        lanes[reactor]!.effects = [:]
      }
      var children: [Int: [Span]] = [:]
      for (root, span) in endedEffects { children[root, default: []].append(span) }
      var lines: [JSONValue] = []
      var spanCount = 0
      for (index, root) in roots.enumerated() {
        let effectSpans = (children[index] ?? []).sorted { $0.start < $1.start }
        let spans = [root.span] + effectSpans
        spanCount += spans.count
        let scopeSpans = JSONObject([
          ("scope", scope),
          ("spans", .array(spans.map { OTLPTrace.json($0, traceID: root.traceID) })),
        ])
        let resourceSpans = JSONObject([
          ("resource", lanes[root.reactor]?.resource ?? .object(JSONObject())),
          ("scopeSpans", .array([.object(scopeSpans)])),
        ])
        let line = JSONValue.object(
          JSONObject([("resourceSpans", .array([.object(resourceSpans)]))]))
        var bytes: [UInt8] = []
        line.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        output(bytes)
        lines.append(line)
      }
      return (lines, spanCount)
    }
  }

  /// The `TracesData` lines, in the order their root actions happened.
  public private(set) var lines: [JSONValue] = []
  /// How many spans the lines hold.
  public private(set) var spanCount = 0
  /// The lines as bytes, each ending in a newline.
  public private(set) var jsonLines: [UInt8] = []

  /// Reads the rest of a trace and builds its spans: those ``init(session:)`` builds of the
  /// trace read as a session.
  ///
  /// - Parameter reader: A reader that verifies states and has read no event yet.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(reader: TraceReader) throws(TraceReadError) {
    try self.init(session: SessionReader(reader: reader))
  }

  /// Reads the rest of a session (or of a trace of one reactor read as one) and builds the
  /// spans of all its reactors.
  ///
  /// Each reactor's spans are as a trace of that reactor alone would give them, with the
  /// reactor's id and name as resource attributes. A cause that crosses reactors (an action
  /// sent by another reactor, or a stream element it published: the `from` of the trace
  /// format) becomes a span link from the receiving action's or element's root span to the
  /// sender's span: the effect that was running, or else the root span of its action. The
  /// link's attributes name the sender (`reactor.from.reactor`, `.action`, `.effect`).
  ///
  /// - Parameter session: A reader that verifies states and has read no event yet.
  /// - Throws: ``TraceReadError`` when the session cannot be read.
  public init(session: SessionReader) throws(TraceReadError) {
    var bytes: [UInt8] = []
    (lines, spanCount) = try Builder(header: session.header).export(session) {
      bytes.append(contentsOf: $0)
    }
    jsonLines = bytes
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
    if !span.links.isEmpty { members.append(("links", .array(span.links))) }
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

  /// The resource of one reactor: its type, its id and name in a session, its schema, and
  /// the metadata of the trace or session.
  private static func resource(
    _ introduction: ReactorIntroduction, in header: SessionHeader
  ) -> JSONValue {
    var list: [(String, JSONValue)] = [
      ("service.name", .string(introduction.type)),
      ("reactor.type", .string(introduction.type)),
    ]
    if !header.isTraceOfOneReactor {
      list.append(("reactor.id", .int(Int64(introduction.reactor))))
    }
    if let name = introduction.name { list.append(("reactor.name", .string(name))) }
    list += [
      ("reactor.schema.action", .string(introduction.schema.action.digest.description)),
      ("reactor.schema.mutation", .string(introduction.schema.mutation.digest.description)),
      ("reactor.schema.state", .string(introduction.schema.state.digest.description)),
    ]
    for key in header.metadata.keys.sorted() {
      list.append(("reactor.metadata." + key, .string(header.metadata[key]!)))
    }
    return .object(JSONObject([("attributes", attributes(list))]))
  }

  private static func scope(
    version: TraceFormatVersion, clock: TraceHeader.Clock, recorder: String?
  ) -> JSONValue {
    var list: [(String, JSONValue)] = [
      ("reactor.trace.format", .string(version.description)),
      ("reactor.clock", .string(clock.name)),
    ]
    if let recorder { list.append(("reactor.trace.recorder", .string(recorder))) }
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
