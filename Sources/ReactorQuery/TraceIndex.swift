import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the server knows of one trace or session after reading it once: a record per event
/// (kind, reactor, label, changed paths, and the record of its cause), in temporary files,
/// and every live reactor's state every few thousand events (``checkpointInterval``), so that a question
/// reads a few thousand lines at most.
///
/// Built in one pass of a ``SessionReader`` (every state rebuilt and checked against its
/// hash, as every command reads a trace); memory holds the reactors' names and schemas and
/// one entry per checkpoint, not the events.
final class TraceIndex {
  /// Events between two checkpoints of the reactors' states, unless told otherwise.
  static let defaultCheckpointInterval = 4096

  /// Events between two checkpoints of the reactors' states.
  let checkpointInterval: Int
  /// The file, resolved.
  let path: String
  /// The file as the agent named it, relative to the root.
  let name: String
  /// The file's identity when it was indexed: a changed file is indexed again.
  let identity: FileIdentity
  /// The session's header (a trace's, read as a session of one reactor).
  let header: SessionHeader
  /// The redaction applied to labels as they were indexed, and to states as they are read.
  let redaction: AnswerRedaction
  /// Whether the redaction hides some value in the trace: then diagrams and replay reports,
  /// drawn from the raw file, are withheld.
  private(set) var touchesRedactedValues = false
  /// How many events the trace holds.
  private(set) var eventCount = 0
  /// The reactors ever introduced, by id.
  private(set) var reactors: [Int: ReactorInfo] = [:]
  /// Each reactor type's schema, as JSON.
  private(set) var schemas: [String: JSONValue] = [:]
  /// What the reader noticed without failing.
  private(set) var warnings: [String] = []

  /// A reactor as the index keeps it.
  struct ReactorInfo {
    var type: String
    var name: String?
    var parent: Int?
    var introducedAt: Int
    var releasedAt: Int?

    /// `TaskListReactor 'list'`.
    var title: String {
      ReactorIntroduction.shortTypeName(type) + (name.map { " '\($0)'" } ?? "")
    }
  }

  /// The reactors' states after one event, kept in the checkpoints file as the lines that
  /// introduce them (or as a trace's header), and where the file goes on after it.
  struct Checkpoint {
    /// The number of records before it (0: before the first event).
    var recordCount: Int
    /// The `seq` of the last event before it, -1 before the first.
    var sequence: Int
    /// Where the line after that event starts in the file.
    var fileOffset: Int
    var blobOffset: Int
    var blobCount: Int
  }

  let records: IndexFile
  let labels: IndexFile
  let changedPaths: IndexFile
  let checkpointLines: IndexFile
  private(set) var checkpoints: [Checkpoint] = []

  /// A reactor's actions and effects by id, while the index is built.
  ///
  /// The record of each, so that the events they cause point at them; dropped when the
  /// reactor is released.
  private struct Lane {
    var actions = IdentifierTable()
    var effects = IdentifierTable()
  }

  /// Record numbers by id, for ids that grow from the first one seen.
  private struct IdentifierTable {
    private var base = 0
    private var records: [Int] = []

    mutating func insert(_ id: Int, record: Int) {
      if records.isEmpty { base = id }
      let offset = id - base
      guard offset >= 0, offset < 1 << 31 else { return }
      if offset >= records.count {
        records.append(contentsOf: repeatElement(-1, count: offset - records.count + 1))
      }
      records[offset] = record
    }

    func record(_ id: Int) -> Int {
      let offset = id - base
      guard offset >= 0, offset < records.count else { return -1 }
      return records[offset]
    }
  }

  private init(
    path: String, name: String, identity: FileIdentity, header: SessionHeader,
    redaction: AnswerRedaction, checkpointInterval: Int
  ) throws(QueryError) {
    self.checkpointInterval = max(1, checkpointInterval)
    self.path = path
    self.name = name
    self.identity = identity
    self.header = header
    self.redaction = redaction
    records = try IndexFile(for: name)
    labels = try IndexFile(for: name)
    changedPaths = try IndexFile(for: name)
    checkpointLines = try IndexFile(for: name)
  }

  /// Reads the file at `path` once and indexes it.
  /// - Parameters:
  ///   - path: The resolved file.
  ///   - name: What answers call it.
  ///   - redaction: What labels hide.
  ///   - checkpointInterval: Events between two checkpoints.
  /// - Returns: The index.
  /// - Throws: ``QueryError/unreadableTrace(path:reason:)`` with the reader's words.
  static func build(
    path: String, name: String, redaction: AnswerRedaction,
    checkpointInterval: Int = defaultCheckpointInterval
  ) throws(QueryError) -> TraceIndex {
    guard let identity = FileIdentity(path: path) else {
      throw .unreadableTrace(path: name, reason: String(cString: strerror(errno)))
    }
    let reader: SessionReader
    do {
      reader = try SessionReader(path: path)
    } catch {
      throw .unreadableTrace(path: name, reason: "\(error)")
    }
    guard let lineStarts = LineStarts(path: path) else {
      throw .unreadableTrace(path: name, reason: String(cString: strerror(errno)))
    }
    let index = try TraceIndex(
      path: path, name: name, identity: identity, header: reader.header, redaction: redaction,
      checkpointInterval: checkpointInterval)
    try index.read(reader, lineStarts: lineStarts)
    return index
  }

  private func read(_ reader: SessionReader, lineStarts: LineStarts) throws(QueryError) {
    checkpoints.append(
      Checkpoint(
        recordCount: 0, sequence: -1, fileOffset: lineStarts.start(ofLine: 2), blobOffset: 0,
        blobCount: 0))
    var lanes: [Int: Lane] = [:]
    // The lane of the last event's reactor, kept out of `lanes` while its events follow one
    // another (all of a trace's do): no lookup per event.
    var current: (reactor: Int, lane: Lane)?
    func park() {
      if let parked = current { lanes[parked.reactor] = parked.lane }
      current = nil
    }
    while true {
      let event: SessionEvent?
      do {
        event = try reader.next()
      } catch {
        throw .unreadableTrace(path: name, reason: "\(error)")
      }
      guard let event else { break }
      var record = IndexRecord()
      record.sequence = Int64(event.sequence)
      record.time = event.time.traceNanoseconds
      let number = eventCount
      switch event.kind {
      case .introduced(let introduction):
        record.kind = IndexRecord.Kind.introduced.rawValue
        record.reactor = Int64(introduction.reactor)
        reactors[introduction.reactor] = ReactorInfo(
          type: introduction.type, name: introduction.name, parent: introduction.parent,
          introducedAt: event.sequence)
        if schemas[introduction.type] == nil {
          schemas[introduction.type] = introduction.schema.json
        }
        park()
        lanes[introduction.reactor] = Lane()
        if redaction.touches(introduction.initialState) { touchesRedactedValues = true }
        try label(&record, reactors[introduction.reactor]!.title)
        if let parent = introduction.parent {
          record.link = IndexRecord.Link.createdDuring.rawValue
          record.causeReactor = Int64(parent)
          record.causeAction = Int64(introduction.createdDuring ?? 0)
        }
      case .released(let reactor):
        record.kind = IndexRecord.Kind.released.rawValue
        record.reactor = Int64(reactor)
        reactors[reactor]?.releasedAt = event.sequence
        park()
        lanes[reactor] = nil
        try label(&record, "reactor \(reactor)")
      case .gap(let gap):
        record.kind = IndexRecord.Kind.gap.rawValue
        record.identifier = Int64(gap.droppedEvents)
        try label(
          &record, "gap: \(gap.droppedEvents) events dropped, the trace is incomplete from here")
      case .end(let end):
        record.kind = IndexRecord.Kind.end.rawValue
        try label(&record, "end: \(end.observedEvents) observed, \(end.droppedEvents) dropped")
      case .reactor(let reactor, let kind):
        record.reactor = Int64(reactor)
        if current?.reactor != reactor {
          park()
          current = (reactor, lanes.removeValue(forKey: reactor) ?? Lane())
        }
        try describe(
          kind, of: reactor, number: number, in: &current!.lane, lanes: lanes, into: &record)
      }
      try records.append(raw: record)
      eventCount += 1
      if eventCount % checkpointInterval == 0 {
        try checkpoint(reader, after: event, lineStarts: lineStarts)
      }
    }
    warnings = reader.warnings.map(\.description)
    for file in [records, labels, changedPaths, checkpointLines] { try file.flush() }
  }

  private func label(_ record: inout IndexRecord, _ text: String) throws(QueryError) {
    record.labelOffset = Int64(try labels.append(text.utf8))
    record.labelCount = Int64(text.utf8.count)
  }

  private func note(_ record: inout IndexRecord, _ text: String) throws(QueryError) {
    record.noteOffset = Int64(try labels.append(text.utf8))
    record.noteCount = Int64(text.utf8.count)
  }

  /// Fills in an event of a reactor: its label, its cause, and a mutation's changed paths.
  private func describe(
    _ kind: TraceEvent.Kind, of reactor: Int, number: Int, in lane: inout Lane,
    lanes: [Int: Lane], into record: inout IndexRecord
  ) throws(QueryError) {
    func origin(_ from: TraceEvent.ReactorOrigin) {
      record.link = IndexRecord.Link.origin.rawValue
      record.causeReactor = Int64(from.reactor)
      record.causeAction = Int64(from.action ?? 0)
      record.causeEffect = Int64(from.effect ?? 0)
      let originLane = from.reactor == reactor ? lane : lanes[from.reactor]
      if let effect = from.effect {
        record.causeRecord = Int64(originLane?.effects.record(effect) ?? -1)
      } else if let action = from.action {
        record.causeRecord = Int64(originLane?.actions.record(action) ?? -1)
      }
    }
    func own(_ link: IndexRecord.Link, action: Int, effect: Int?) {
      record.link = link.rawValue
      record.causeReactor = Int64(reactor)
      record.causeAction = Int64(action)
      record.causeEffect = Int64(effect ?? 0)
      record.causeRecord = Int64(
        effect.map { lane.effects.record($0) } ?? lane.actions.record(action))
    }
    switch kind {
    case .action(let action):
      record.kind = IndexRecord.Kind.action.rawValue
      record.identifier = Int64(action.id)
      lane.actions.insert(action.id, record: number)
      if redaction.touches(payload: action.value, isAction: true) {
        touchesRedactedValues = true
        try label(&record, redaction.hidden(action.label))
      } else {
        try label(&record, action.label)
      }
      if let from = action.from {
        origin(from)
      } else if case .stream(let stream) = action.source {
        record.link = IndexRecord.Link.externalStream.rawValue
        try note(&record, stream)
      } else {
        record.link = IndexRecord.Link.user.rawValue
      }
    case .effectStarted(let start):
      record.kind = IndexRecord.Kind.effectStart.rawValue
      record.identifier = Int64(start.effect)
      lane.effects.insert(start.effect, record: number)
      try label(&record, start.name ?? "effect \(start.effect)")
      own(.action, action: start.action, effect: nil)
    case .effectEnded(let end):
      record.kind = IndexRecord.Kind.effectEnd.rawValue
      record.identifier = Int64(end.effect)
      let outcome =
        switch end.outcome {
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
      try label(&record, "effect \(end.effect) \(outcome)")
      record.link = IndexRecord.Link.effect.rawValue
      record.causeReactor = Int64(reactor)
      record.causeEffect = Int64(end.effect)
      record.causeRecord = Int64(lane.effects.record(end.effect))
    case .mutation(let mutation):
      record.kind = IndexRecord.Kind.mutation.rawValue
      record.identifier = Int64(mutation.id)
      if redaction.touches(payload: mutation.value, isAction: false) {
        touchesRedactedValues = true
        try label(&record, redaction.hidden(mutation.label))
      } else {
        try label(&record, mutation.label)
      }
      switch mutation.cause {
      case .action(let action): own(.action, action: action, effect: nil)
      case .effect(let effect, let action): own(.effect, action: action, effect: effect)
      case .stream(let stream):
        try note(&record, stream)
        if let publisher = mutation.publisher {
          own(.publisher, action: publisher.action, effect: publisher.effect)
        } else if let from = mutation.from {
          origin(from)
        } else {
          record.link = IndexRecord.Link.externalStream.rawValue
        }
      }
      try paths(of: mutation.state, into: &record)
    case .streamEnded(let end):
      record.kind = IndexRecord.Kind.streamEnd.rawValue
      try label(
        &record, "stream \(end.stream) " + (end.error.map { "failed: \($0)" } ?? "finished"))
      try note(&record, end.stream)
    case .jump(let jump):
      record.kind = IndexRecord.Kind.jump.rawValue
      record.identifier = Int64(jump.target)
      try label(&record, "jump to event \(jump.target)")
      try note(&record, "external " + (jump.external ?? "command"))
      try paths(of: jump.stateChange, into: &record)
    case .gap, .end:
      record.kind = IndexRecord.Kind.end.rawValue
    }
  }

  /// Keeps where a mutation writes: each diff operation's path (components separated by
  /// 0x1F, each path ended by 0x1E); a snapshot or a description writes the root.
  private func paths(
    of change: TraceEvent.StateChange, into record: inout IndexRecord
  ) throws(QueryError) {
    var bytes: [UInt8] = []
    switch change {
    case .diff(let operations):
      for operation in operations {
        if redaction.touches(operation) { touchesRedactedValues = true }
        for (position, component) in operation.path.enumerated() {
          if position > 0 { bytes.append(0x1F) }
          switch component {
          case .key(let key): bytes.append(contentsOf: key.utf8)
          case .index(let index): bytes.append(contentsOf: String(index).utf8)
          }
        }
        bytes.append(0x1E)
      }
    case .snapshot(let value):
      if redaction.touches(.json(value)) { touchesRedactedValues = true }
      bytes.append(0x1E)
    case .description:
      if redaction.touches(.description("")) { touchesRedactedValues = true }
      bytes.append(0x1E)
    }
    record.pathsOffset = Int64(try changedPaths.append(bytes))
    record.pathsCount = Int64(bytes.count)
  }

  /// Keeps every live reactor's state after `event`, as the lines a reader takes them from.
  private func checkpoint(
    _ reader: SessionReader, after event: SessionEvent, lineStarts: LineStarts
  ) throws(QueryError) {
    let bytes = reader.resumptionLines(after: event)
    let offset = try checkpointLines.append(bytes)
    checkpoints.append(
      Checkpoint(
        recordCount: eventCount, sequence: event.sequence,
        fileOffset: lineStarts.start(ofLine: reader.lineNumber + 1), blobOffset: offset,
        blobCount: bytes.count))
  }
}

/// A file's device, inode, size and modification time: the same values, the same file.
struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: Int64
  var modifiedNanoseconds: Int64

  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    #if canImport(Darwin)
    modified = Int64(status.st_mtimespec.tv_sec)
    modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
    #else
    modified = Int64(status.st_mtim.tv_sec)
    modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
    #endif
  }
}
