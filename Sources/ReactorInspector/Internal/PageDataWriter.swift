import ReactorTracing

/// Writes the inspector's data, one JSON document, as the trace is read.
///
/// The document goes out in pieces, already escaped for the page's `<script>` element: the
/// events as they come (in pieces of about ``pieceSize`` bytes), then the snapshots and the
/// diagram's nodes (escaped as they are made, and kept in ``SpillBuffer``s until then), then the header's facts and the
/// notes, known only at the end. Memory does not grow with the trace.
///
/// Events are compact arrays, their members in the order ``PageEventSlots`` names them for
/// both the writer and the page's script: the sequence number, the time in nanoseconds, a
/// one-letter kind, then the members of the kind.
struct PageDataWriter {
  private(set) var eventCount = 0
  private(set) var skippedEventCount = 0
  private(set) var snapshotCount = 1
  private var events: [UInt8] = []
  private let snapshots = SpillBuffer()
  private let nodes = SpillBuffer()
  private let header: TraceHeader
  private let diagram: TransitionsEmbedding
  private var mutationCount = 0
  private var mutationsSinceSnapshot = 0
  private var bytesSinceSnapshot = 0
  private var lastSnapshotSize = 0
  private var lastSequence: Int?
  private var lastNode = -1
  private var gaps: [String] = []
  private var droppedAtEnd = 0

  /// The most mutations between two snapshots when the diffs are as large as the state.
  static let snapshotInterval = 64
  /// How many bytes of events collect before they go out.
  static let pieceSize = 1 << 20

  /// Starts the document with its first piece, to `output`.
  init(header: TraceHeader, diagram: TransitionsEmbedding, output: ([UInt8]) -> Void) {
    self.header = header
    self.diagram = diagram
    var snapshot = Array("[[0,".utf8)
    Self.write(header.initialState, to: &snapshot)
    lastSnapshotSize = snapshot.count - 4
    snapshot.append(UInt8(ascii: "]"))
    snapshots.append(ScriptEscaping.escaped(snapshot))
    if diagram.hasDiagram {
      lastNode = diagram.node(of: header.initialState)
      nodes.append("\(lastNode)")
    }
    output(Array(#"{"events":["#.utf8))
  }

  /// Adds an event; `state` is the state after it, `skipped` how many lines of kinds the
  /// reader does not know came right before it (their `seq` numbers are not missing).
  mutating func add(
    _ event: TraceEvent, stateAfter state: TraceHeader.State, skipped: Int = 0,
    output: ([UInt8]) -> Void
  ) {
    if let lastSequence, event.sequence != lastSequence + 1 + skipped, gaps.count < 20 {
      gaps.append(
        "events \(lastSequence + 1) to \(event.sequence - 1) are missing between "
          + "seq \(lastSequence) and seq \(event.sequence)")
    }
    lastSequence = event.sequence
    let start = events.count
    events.append(contentsOf: eventCount == 0 ? "\n[".utf8 : ",\n[".utf8)
    eventCount += 1
    events.append(contentsOf: "\(event.sequence),\(event.time.traceNanoseconds),".utf8)
    switch event.kind {
    case .action(let action):
      events.append(contentsOf: "\"a\",\(action.id),".utf8)
      Self.write(string: action.label, to: &events)
      events.append(UInt8(ascii: ","))
      if case .stream(let stream) = action.source {
        Self.write(string: stream, to: &events)
      } else {
        events.append(contentsOf: "null".utf8)
      }
    case .effectStarted(let start):
      events.append(contentsOf: "\"s\",\(start.effect),\(start.action),".utf8)
      Self.write(optional: start.name, to: &events)
    case .effectEnded(let end):
      events.append(contentsOf: "\"e\",\(end.effect),".utf8)
      switch end.outcome {
      case .finished: events.append(contentsOf: "\"finished\",null".utf8)
      case .cancelled: events.append(contentsOf: "\"cancelled\",null".utf8)
      case .failed(let error):
        events.append(contentsOf: "\"failed\",".utf8)
        Self.write(string: error, to: &events)
      }
    case .mutation(let mutation):
      addMutation(mutation, stateAfter: state)
    case .streamEnded(let end):
      events.append(contentsOf: "\"x\",".utf8)
      Self.write(string: end.stream, to: &events)
      events.append(UInt8(ascii: ","))
      Self.write(optional: end.error, to: &events)
    case .gap(let gap):
      // The recorder dropped events here, without taking seq numbers: shown as such.
      gaps.append(
        "the recorder dropped \(gap.droppedEvents) events at seq \(event.sequence): "
          + "the trace is incomplete from there")
      events.append(contentsOf: "\"o\",".utf8)
      Self.write(string: "gap: \(gap.droppedEvents) events dropped", to: &events)
    case .end(let end):
      droppedAtEnd = end.droppedEvents
      events.append(contentsOf: "\"z\",\(end.observedEvents),\(end.droppedEvents)".utf8)
    @unknown default:
      // A kind added after this page was written: shown as its description.
      events.append(contentsOf: "\"o\",".utf8)
      Self.write(string: String(describing: event.kind), to: &events)
    }
    events.append(UInt8(ascii: "]"))
    bytesSinceSnapshot += events.count - start
    if events.count >= Self.pieceSize {
      output(ScriptEscaping.escaped(events))
      events.removeAll(keepingCapacity: true)
    }
  }

  private mutating func addMutation(
    _ mutation: TraceEvent.Mutation, stateAfter state: TraceHeader.State
  ) {
    events.append(contentsOf: "\"m\",\(mutation.id),".utf8)
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
    mutationCount += 1
    mutationsSinceSnapshot += 1
    if diagram.hasDiagram {
      // Most mutations leave the fields the diagram shows alone: their diff says so.
      if !diagram.keepsNode(through: mutation.state) { lastNode = diagram.node(of: state) }
      nodes.append(",\(lastNode)")
    }
    if mutationsSinceSnapshot >= Self.snapshotInterval && bytesSinceSnapshot >= lastSnapshotSize {
      var snapshot = Array(",\n[\(mutationCount),".utf8)
      let before = snapshot.count
      Self.write(state, to: &snapshot)
      lastSnapshotSize = snapshot.count - before
      snapshot.append(UInt8(ascii: "]"))
      snapshots.append(ScriptEscaping.escaped(snapshot))
      snapshotCount += 1
      mutationsSinceSnapshot = 0
      bytesSinceSnapshot = 0
    }
  }

  /// Counts an event the page leaves out.
  mutating func skip(_ event: TraceEvent) {
    skippedEventCount += 1
  }

  /// Writes the rest of the document, safe to put inside a `<script>` element.
  /// - Returns: `false` when a temporary file could not be read back whole.
  mutating func finish(warnings readerWarnings: [String], output: ([UInt8]) -> Void) -> Bool {
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

    var object = JSONObject()
    object["reactor"] = .string(header.reactor)
    object["version"] = .string(header.version.description)
    object["recorder"] = header.recorder.map(JSONValue.string) ?? .null
    object["clock"] = .string(header.clock.name)
    object["origin"] = header.clock.origin.map(JSONValue.string) ?? .null
    object["metadata"] = .object(
      JSONObject(header.metadata.map { ($0.key, JSONValue.string($0.value)) }))
    object["schema"] = header.schema.json
    object["redactions"] = .array(header.redactions.map(JSONValue.string))
    object["warnings"] = .array(warnings.map(JSONValue.string))
    object["notes"] = .array(notes.map(JSONValue.string))
    object["diagramNote"] = diagram.note.map(JSONValue.string) ?? .null
    object["svg"] = diagram.svg.map(JSONValue.string) ?? .null
    object["nodeNames"] = .array(diagram.nodeNames.map(JSONValue.string))
    object["describedStates"] = .bool(
      { if case .description = header.initialState { true } else { false } }())
    output(ScriptEscaping.escaped(events))
    events = []
    output(Array("\n],\"snapshots\":".utf8))
    var isWhole = snapshots.drain(to: output)
    output(Array("],\"nodes\":".utf8))
    if diagram.hasDiagram {
      output(Array("[".utf8))
      isWhole = nodes.drain(to: output) && isWhole
      output(Array("]".utf8))
    } else {
      output(Array("null".utf8))
    }
    // The header's facts and the notes, known only now: the rest of the object.
    var rest: [UInt8] = []
    JSONValue.object(object).write(to: &rest)
    rest[0] = UInt8(ascii: ",")
    output(ScriptEscaping.escaped(rest))
    return isWhole
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

  private static func write(optional: String?, to bytes: inout [UInt8]) {
    if let optional {
      write(string: optional, to: &bytes)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }
}
