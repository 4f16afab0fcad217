import ReactorTracing

/// Writes the inspector's data, one JSON document, as the trace is read.
///
/// The document goes out in pieces, already escaped for the page's `<script>` element
/// (``ScriptEscaping``): the events as they come, in pieces of about ``defaultPieceSize`` bytes; then
/// every reactor with its snapshots and diagram nodes, kept in a ``SpillStore`` until then
/// (escaped as they are made); then the header's facts and the notes, known only at the end.
/// Memory does not grow with the trace.
///
/// Events are compact arrays, their members in the order ``PageEventSlots`` names them for
/// both the writer and the page's script: the sequence number, the time in nanoseconds, a
/// one-letter kind, the reactor's id, then the members of the kind. A trace of one reactor is
/// written as a session of one reactor, id 1, there from the start; a session's reactors each
/// get their own snapshots and diagram nodes, and each reactor type its own diagram.
struct PageDataWriter {
  private(set) var eventCount = 0
  private(set) var skippedEventCount = 0
  private var events: [UInt8] = []
  private let store: SpillStore
  private let pieceSize: Int
  private var lanes: [Int: Lane] = [:]
  private var laneOrder: [Int] = []
  private let header: SessionHeader
  private let diagrams: PageDiagrams
  private var lastSequence: Int?
  private var gaps: [String] = []
  private var droppedAtEnd = 0

  /// The most mutations between two snapshots when the diffs are as large as the state.
  static let snapshotInterval = 64
  /// How many bytes of events collect before they go out, unless told otherwise.
  static let defaultPieceSize = 1 << 20

  /// How many state snapshots the page holds, every reactor's initial state included.
  var snapshotCount: Int { lanes.values.reduce(0) { $0 + $1.snapshotCount } }

  /// What the page keeps of one reactor: in the store, its object up to the end of its
  /// snapshots and the diagram node of its state after each of its mutations; here, what
  /// decides the next snapshot.
  private struct Lane {
    var diagram: Int?
    /// The stream of the reactor's object, its snapshots last.
    var object: Int
    /// The stream of its diagram nodes, comma-separated.
    var nodes: Int
    var snapshotCount = 1
    var mutationCount = 0
    var mutationsSinceSnapshot = 0
    var bytesSinceSnapshot = 0
    var lastSnapshotSize = 0
    var lastNode = -1
  }

  /// Starts the document with its first piece, to `output`.
  /// - Parameters:
  ///   - header: The trace's or session's header.
  ///   - diagrams: The diagrams, drawn already.
  ///   - limits: How many bytes of events go out at once, and how many of snapshots and nodes
  ///     stay in memory.
  ///   - output: Takes the first piece.
  init(
    header: SessionHeader, diagrams: PageDiagrams, limits: InspectorPage.Limits,
    output: ([UInt8]) -> Void
  ) {
    self.header = header
    self.diagrams = diagrams
    store = SpillStore(memoryLimit: limits.memory)
    pieceSize = limits.piece
    output(Array(#"{"events":["#.utf8))
  }

  /// Adds a session event; `state` gives the state of a reactor after it, `skipped` how many
  /// lines of kinds the reader does not know came right before it (their `seq` numbers are
  /// not missing); a piece of events goes to `output` once it is large enough.
  mutating func add(
    _ event: SessionEvent, skipped: Int = 0, output: ([UInt8]) -> Void,
    state: (Int) -> TraceHeader.State?
  ) {
    if case .introduced(let introduction) = event.kind {
      introduce(introduction)
      // A trace of one reactor is introduced by its header, not by an event of its own.
      if event.sequence == 0 { return }
    }
    if let lastSequence, event.sequence != lastSequence + 1 + skipped, gaps.count < 20 {
      gaps.append(
        "events \(lastSequence + 1) to \(event.sequence - 1) are missing between "
          + "seq \(lastSequence) and seq \(event.sequence)")
    }
    lastSequence = event.sequence
    events.append(contentsOf: eventCount == 0 ? "\n[".utf8 : ",\n[".utf8)
    eventCount += 1
    let start = events.count
    let time = event.time.traceNanoseconds
    switch event.kind {
    case .introduced(let introduction):
      events.append(contentsOf: "\(event.sequence),\(time),\"r\",\(introduction.reactor)".utf8)
    case .released(let reactor):
      events.append(contentsOf: "\(event.sequence),\(time),\"q\",\(reactor)".utf8)
    case .reactor(let reactor, let kind):
      events.append(contentsOf: "\(event.sequence),\(time),".utf8)
      add(kind, of: reactor, sequence: event.sequence, state: state)
    case .gap(let gap):
      // The recorder dropped events here, without taking seq numbers: shown as such.
      gaps.append(
        "the recorder dropped \(gap.droppedEvents) events at seq \(event.sequence): "
          + "the trace is incomplete from there")
      events.append(contentsOf: "\(event.sequence),\(time),\"o\",0,".utf8)
      Self.write(string: "gap: \(gap.droppedEvents) events dropped", to: &events)
    case .end(let end):
      droppedAtEnd = end.droppedEvents
      events.append(
        contentsOf:
          "\(event.sequence),\(time),\"z\",0,\(end.observedEvents),\(end.droppedEvents)".utf8)
    @unknown default:
      // A kind added after this page was written: shown as its description.
      events.append(contentsOf: "\(event.sequence),\(time),\"o\",\(event.reactor ?? 0),".utf8)
      Self.write(string: String(describing: event.kind), to: &events)
    }
    events.append(UInt8(ascii: "]"))
    if let reactor = event.reactor { lanes[reactor]?.bytesSinceSnapshot += events.count - start }
    if events.count >= pieceSize {
      output(ScriptEscaping.escaped(events))
      events.removeAll(keepingCapacity: true)
    }
  }

  private mutating func introduce(_ introduction: ReactorIntroduction) {
    // A reader refuses a second introduction of a reactor; the first one stands.
    guard lanes[introduction.reactor] == nil else { return }
    var lane = Lane(
      diagram: diagrams.diagram(ofType: introduction.type), object: store.makeStream(),
      nodes: store.makeStream())
    var reactor = JSONObject()
    reactor["id"] = .int(Int64(introduction.reactor))
    reactor["type"] = .string(introduction.type)
    reactor["name"] = introduction.name.map(JSONValue.string) ?? .null
    reactor["parent"] = introduction.parent.map { .int(Int64($0)) } ?? .null
    reactor["during"] = introduction.createdDuring.map { .int(Int64($0)) } ?? .null
    reactor["schema"] = introduction.schema.json
    reactor["described"] = .bool(
      { if case .description = introduction.initialState { true } else { false } }())
    reactor["diagram"] = .int(Int64(lane.diagram ?? -1))
    var object: [UInt8] = []
    JSONValue.object(reactor).write(to: &object)
    object.removeLast()
    object.append(contentsOf: #","snapshots":[[0,"#.utf8)
    let before = object.count
    Self.write(introduction.initialState, to: &object)
    lane.lastSnapshotSize = object.count - before
    object.append(UInt8(ascii: "]"))
    store.append(ScriptEscaping.escaped(object), to: lane.object)
    if let diagram = lane.diagram {
      lane.lastNode = diagrams.node(of: introduction.initialState, in: diagram)
      store.append("\(lane.lastNode)", to: lane.nodes)
    }
    laneOrder.append(introduction.reactor)
    lanes[introduction.reactor] = lane
  }

  private mutating func add(
    _ kind: TraceEvent.Kind, of reactor: Int, sequence: Int,
    state: (Int) -> TraceHeader.State?
  ) {
    switch kind {
    case .action(let action):
      events.append(contentsOf: "\"a\",\(reactor),\(action.id),".utf8)
      Self.write(string: action.label, to: &events)
      events.append(UInt8(ascii: ","))
      if case .stream(let stream) = action.source {
        Self.write(string: stream, to: &events)
      } else {
        events.append(contentsOf: "null".utf8)
      }
      events.append(UInt8(ascii: ","))
      Self.write(origin: action.from, to: &events)
      events.append(UInt8(ascii: ","))
      Self.write(shownLabel: action.label, to: &events)
      events.append(UInt8(ascii: ","))
      Self.write(optional: action.external, to: &events)
    case .effectStarted(let start):
      events.append(contentsOf: "\"s\",\(reactor),\(start.effect),\(start.action),".utf8)
      Self.write(optional: start.name, to: &events)
    case .effectEnded(let end):
      events.append(contentsOf: "\"e\",\(reactor),\(end.effect),".utf8)
      switch end.outcome {
      case .finished: events.append(contentsOf: "\"finished\",null".utf8)
      case .cancelled: events.append(contentsOf: "\"cancelled\",null".utf8)
      case .failed(let error):
        events.append(contentsOf: "\"failed\",".utf8)
        Self.write(string: error, to: &events)
      }
    case .mutation(let mutation):
      addMutation(mutation, of: reactor, stateAfter: state(reactor))
    case .streamEnded(let end):
      events.append(contentsOf: "\"x\",\(reactor),".utf8)
      Self.write(string: end.stream, to: &events)
      events.append(UInt8(ascii: ","))
      Self.write(optional: end.error, to: &events)
    case .gap(let gap):
      events.append(contentsOf: "\"o\",\(reactor),".utf8)
      Self.write(string: "gap: \(gap.droppedEvents) events dropped", to: &events)
    case .end(let end):
      events.append(contentsOf: "\"z\",\(reactor),\(end.observedEvents),\(end.droppedEvents)".utf8)
    @unknown default:
      events.append(contentsOf: "\"o\",\(reactor),".utf8)
      Self.write(string: String(describing: kind), to: &events)
    }
  }

  private mutating func addMutation(
    _ mutation: TraceEvent.Mutation, of reactor: Int, stateAfter state: TraceHeader.State?
  ) {
    events.append(contentsOf: "\"m\",\(reactor),\(mutation.id),".utf8)
    Self.write(string: mutation.label, to: &events)
    switch mutation.cause {
    case .action(let action): events.append(contentsOf: ",\(action),null,null,".utf8)
    case .effect(let effect, let action):
      events.append(contentsOf: ",\(action),\(effect),null,".utf8)
    case .stream(let stream):
      events.append(contentsOf: ",null,null,".utf8)
      Self.write(string: stream, to: &events)
      events.append(UInt8(ascii: ","))
    }
    switch mutation.state {
    case .diff(let operations):
      JSONValue.array(operations.map(\.json)).write(to: &events)
    case .snapshot(let value):
      events.append(contentsOf: #"[{"p":[],"v":"#.utf8)
      value.write(to: &events)
      events.append(contentsOf: "}]".utf8)
    case .description(let text):
      events.append(contentsOf: #"[{"p":[],"v":"#.utf8)
      Self.write(string: text, to: &events)
      events.append(contentsOf: "}]".utf8)
    }
    events.append(UInt8(ascii: ","))
    Self.write(origin: mutation.from, to: &events)
    events.append(UInt8(ascii: ","))
    Self.write(shownLabel: mutation.label, to: &events)
    guard var lane = lanes[reactor], let state else { return }
    lane.mutationCount += 1
    lane.mutationsSinceSnapshot += 1
    if let diagram = lane.diagram {
      // Most mutations leave the fields the diagram shows alone: their diff says so.
      if !diagrams.keepsNode(through: mutation.state, in: diagram) {
        lane.lastNode = diagrams.node(of: state, in: diagram)
      }
      store.append(",\(lane.lastNode)", to: lane.nodes)
    }
    if lane.mutationsSinceSnapshot >= Self.snapshotInterval
      && lane.bytesSinceSnapshot >= lane.lastSnapshotSize
    {
      var snapshot = Array(",\n[\(lane.mutationCount),".utf8)
      let before = snapshot.count
      Self.write(state, to: &snapshot)
      lane.lastSnapshotSize = snapshot.count - before
      snapshot.append(UInt8(ascii: "]"))
      store.append(ScriptEscaping.escaped(snapshot), to: lane.object)
      lane.snapshotCount += 1
      lane.mutationsSinceSnapshot = 0
      lane.bytesSinceSnapshot = 0
    }
    lanes[reactor] = lane
  }

  /// Counts an event the page leaves out.
  mutating func skip(_ event: SessionEvent) {
    if case .introduced(let introduction) = event.kind, event.sequence == 0 {
      introduce(introduction)
      return
    }
    skippedEventCount += 1
  }

  /// Writes the rest of the document, safe to put inside a `<script>` element, to `output`.
  /// - Parameters:
  ///   - title: What the page is called: the reactor's type, or the session's app.
  ///   - readerWarnings: What the reader noticed.
  ///   - output: Takes each piece in order.
  /// - Returns: `false` when the temporary file could not be read back whole.
  mutating func finish(
    title: String, warnings readerWarnings: [String], output: ([UInt8]) -> Void
  ) -> Bool {
    var warnings = readerWarnings
    if let window = header.window {
      warnings.append(
        "a rolling window dropped the first \(window.droppedEvents) events; the trace starts "
          + "at seq \(window.firstSequence)")
    }
    if droppedAtEnd > 0 {
      warnings.append("a limit left \(droppedAtEnd) events out of the trace (see the end line)")
    }
    warnings.append(contentsOf: gaps)
    var notes: [String] = []
    if skippedEventCount > 0 {
      notes.append(
        "The trace has \(eventCount + skippedEventCount) events, too many to embed: this page "
          + "holds the first \(eventCount) (raise the limit with --max-events).")
    }
    notes.append(
      "\(snapshotCount) state snapshot\(snapshotCount == 1 ? "" : "s") embedded; every other "
        + "state is rebuilt from the nearest one and the diffs after it.")

    events.append(contentsOf: "\n],\"reactors\":[".utf8)
    output(ScriptEscaping.escaped(events))
    events = []
    var isWhole = true
    for (position, id) in laneOrder.enumerated() {
      guard let lane = lanes[id] else { continue }
      if position > 0 { output(Array(",\n".utf8)) }
      isWhole = store.read(lane.object, to: output) && isWhole
      if lane.diagram != nil {
        output(Array(#"],"nodes":["#.utf8))
        isWhole = store.read(lane.nodes, to: output) && isWhole
        output(Array("]}".utf8))
      } else {
        output(Array(#"],"nodes":null}"#.utf8))
      }
    }
    // The header's facts and the notes, known only now: the rest of the object.
    var object = JSONObject()
    object["reactor"] = .string(title)
    object["session"] = .bool(!header.isTraceOfOneReactor)
    object["version"] = .string(header.version.description)
    object["recorder"] = header.recorder.map(JSONValue.string) ?? .null
    object["clock"] = .string(header.clock.name)
    object["origin"] = header.clock.origin.map(JSONValue.string) ?? .null
    object["metadata"] = .object(
      JSONObject(header.metadata.map { ($0.key, JSONValue.string($0.value)) }))
    object["redactions"] = .array(header.redactions.map(JSONValue.string))
    object["warnings"] = .array(warnings.map(JSONValue.string))
    object["notes"] = .array(notes.map(JSONValue.string))
    object["diagrams"] = .array(diagrams.json)
    var rest = Array("],".utf8)
    JSONValue.object(object).write(to: &rest)
    rest.remove(at: 2)
    output(ScriptEscaping.escaped(rest))
    return isWhole
  }

  /// The diagrams and every reactor's nodes alone, as JSON: what the live page asks for.
  func diagramData() -> [UInt8] {
    var object = JSONObject()
    object["diagrams"] = .array(diagrams.json)
    object["reactors"] = .array(
      laneOrder.compactMap { id in
        guard let lane = lanes[id] else { return nil }
        var reactor = JSONObject()
        reactor["id"] = .int(Int64(id))
        reactor["diagram"] = .int(Int64(lane.diagram ?? -1))
        var nodes = Array("[".utf8)
        if lane.diagram != nil, store.read(lane.nodes, to: { nodes.append(contentsOf: $0) }),
          let parsed = try? JSONValue(
            parsing: String(decoding: nodes + Array("]".utf8), as: UTF8.self))
        {
          reactor["nodes"] = parsed
        } else {
          reactor["nodes"] = .null
        }
        return .object(reactor)
      })
    var bytes: [UInt8] = []
    JSONValue.object(object).write(to: &bytes)
    return bytes
  }

  private static func write(_ state: TraceHeader.State, to bytes: inout [UInt8]) {
    switch state {
    case .json(let json): json.write(to: &bytes)
    case .description(let text): write(string: text, to: &bytes)
    }
  }

  private static func write(string: String, to bytes: inout [UInt8]) {
    JSONValue.string(string).write(to: &bytes)
  }

  /// The label the event list shows, without module prefixes (``LabelText``), or `null`
  /// when that is the label itself: most labels have none, and the page falls back to it.
  private static func write(shownLabel label: String, to bytes: inout [UInt8]) {
    let shown = LabelText.withoutModules(label)
    write(optional: shown == label ? nil : shown, to: &bytes)
  }

  private static func write(optional: String?, to bytes: inout [UInt8]) {
    if let optional {
      write(string: optional, to: &bytes)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }

  private static func write(origin: TraceEvent.ReactorOrigin?, to bytes: inout [UInt8]) {
    guard let origin else {
      bytes.append(contentsOf: "null".utf8)
      return
    }
    let action = origin.action.map { "\($0)" } ?? "null"
    let effect = origin.effect.map { "\($0)" } ?? "null"
    bytes.append(contentsOf: "[\(origin.reactor),\(action),\(effect)]".utf8)
  }
}
