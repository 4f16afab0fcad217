import ReactorTracing

/// Writes the inspector's data, one JSON document, as the trace is read.
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
  private var lanes: [Int: Lane] = [:]
  private var laneOrder: [Int] = []
  private let header: SessionHeader
  private let diagrams: PageDiagrams
  private var lastSequence: Int?
  private var gaps: [String] = []
  private var droppedAtEnd = 0

  /// The most mutations between two snapshots when the diffs are as large as the state.
  static let snapshotInterval = 64

  /// How many state snapshots the page holds, every reactor's initial state included.
  var snapshotCount: Int { lanes.values.reduce(0) { $0 + $1.snapshotCount } }

  /// What the page keeps of one reactor: its introduction, its snapshots and the diagram node
  /// of its state after each of its mutations.
  private struct Lane {
    var introduction: ReactorIntroduction
    var diagram: Int?
    var snapshots: [UInt8] = []
    var nodes: [UInt8] = []
    var snapshotCount = 1
    var mutationCount = 0
    var mutationsSinceSnapshot = 0
    var bytesSinceSnapshot = 0
    var lastSnapshotSize = 0
    var lastNode = -1
  }

  init(header: SessionHeader, diagrams: PageDiagrams) {
    self.header = header
    self.diagrams = diagrams
  }

  /// Adds a session event; `state` gives the state of a reactor after it, `skipped` how many
  /// lines of kinds the reader does not know came right before it (their `seq` numbers are
  /// not missing).
  mutating func add(
    _ event: SessionEvent, skipped: Int = 0, state: (Int) -> TraceHeader.State?
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
  }

  private mutating func introduce(_ introduction: ReactorIntroduction) {
    var lane = Lane(introduction: introduction)
    lane.diagram = diagrams.diagram(ofType: introduction.type)
    lane.snapshots.append(contentsOf: "[[0,".utf8)
    let before = lane.snapshots.count
    Self.write(introduction.initialState, to: &lane.snapshots)
    lane.lastSnapshotSize = lane.snapshots.count - before
    lane.snapshots.append(UInt8(ascii: "]"))
    if let diagram = lane.diagram {
      lane.lastNode = diagrams.node(of: introduction.initialState, in: diagram)
      lane.nodes.append(contentsOf: "\(lane.lastNode)".utf8)
    }
    if lanes[introduction.reactor] == nil { laneOrder.append(introduction.reactor) }
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
    guard var lane = lanes[reactor], let state else { return }
    lane.mutationCount += 1
    lane.mutationsSinceSnapshot += 1
    if let diagram = lane.diagram {
      // Most mutations leave the fields the diagram shows alone: their diff says so.
      if !diagrams.keepsNode(through: mutation.state, in: diagram) {
        lane.lastNode = diagrams.node(of: state, in: diagram)
      }
      lane.nodes.append(contentsOf: ",\(lane.lastNode)".utf8)
    }
    if lane.mutationsSinceSnapshot >= Self.snapshotInterval
      && lane.bytesSinceSnapshot >= lane.lastSnapshotSize
    {
      lane.snapshots.append(contentsOf: ",\n[\(lane.mutationCount),".utf8)
      let before = lane.snapshots.count
      Self.write(state, to: &lane.snapshots)
      lane.lastSnapshotSize = lane.snapshots.count - before
      lane.snapshots.append(UInt8(ascii: "]"))
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

  /// The whole document, safe to put inside a `<script>` element.
  /// - Parameters:
  ///   - title: What the page is called: the reactor's type, or the session's app.
  ///   - readerWarnings: What the reader noticed.
  /// - Returns: The JSON text, escaped for a `<script>` element.
  func finish(title: String, warnings readerWarnings: [String]) -> [UInt8] {
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
    object["reactor"] = .string(title)
    object["session"] = .bool(header.version.major >= 2)
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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(events.count + 4096)
    JSONValue.object(object).write(to: &bytes)
    bytes.removeLast()
    bytes.append(contentsOf: #","reactors":["#.utf8)
    for (position, id) in laneOrder.enumerated() {
      guard let lane = lanes[id] else { continue }
      let introduction = lane.introduction
      var reactor = JSONObject()
      reactor["id"] = .int(Int64(id))
      reactor["type"] = .string(introduction.type)
      reactor["name"] = introduction.name.map(JSONValue.string) ?? .null
      reactor["parent"] = introduction.parent.map { .int(Int64($0)) } ?? .null
      reactor["during"] = introduction.createdDuring.map { .int(Int64($0)) } ?? .null
      reactor["schema"] = introduction.schema.json
      reactor["described"] = .bool(
        { if case .description = introduction.initialState { true } else { false } }())
      reactor["diagram"] = .int(Int64(lane.diagram ?? -1))
      if position > 0 { bytes.append(contentsOf: ",\n".utf8) }
      JSONValue.object(reactor).write(to: &bytes)
      bytes.removeLast()
      bytes.append(contentsOf: #","snapshots":"#.utf8)
      bytes.append(contentsOf: lane.snapshots)
      bytes.append(contentsOf: #"],"nodes":"#.utf8)
      if lane.diagram != nil {
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: lane.nodes)
        bytes.append(UInt8(ascii: "]"))
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(contentsOf: #"],"events":["#.utf8)
    bytes.append(contentsOf: events)
    bytes.append(contentsOf: "\n]}".utf8)
    return ScriptEscaping.escaped(bytes)
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
        if lane.diagram != nil,
          let nodes = try? JSONValue(
            parsing: "[" + String(decoding: lane.nodes, as: UTF8.self) + "]")
        {
          reactor["nodes"] = nodes
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
