/// A whole session in memory: its header and the events of all its reactors.
///
/// ``SessionReader`` streams a session from a file without holding it; this type reads one
/// whole for small files and tests, is what an in-memory session recorder produces, and
/// takes a session apart into the lanes of its reactors (``lane(of:)``), each a ``Trace`` of
/// one reactor that the tools for single traces replay.
public struct SessionTrace: Hashable, Sendable {
  /// The first line.
  public var header: SessionHeader
  /// The events, in order.
  public var events: [SessionEvent]
  /// What the reader noticed without failing.
  public var warnings: [TraceWarning]

  /// A session.
  public init(header: SessionHeader, events: [SessionEvent], warnings: [TraceWarning] = []) {
    self.header = header
    self.events = events
    self.warnings = warnings
  }

  /// A trace of one reactor as a session: reactor 1, introduced at `seq` 0.
  /// - Parameter trace: The trace.
  public init(_ trace: Trace) {
    var events = [
      SessionEvent(sequence: 0, time: .zero, kind: .introduced(ReactorIntroduction(trace.header)))
    ]
    events += trace.events.map(SessionEvent.init)
    self.init(header: SessionHeader(trace.header), events: events, warnings: trace.warnings)
  }

  /// Reads a whole session, or a trace of one reactor as a session.
  /// - Throws: ``TraceReadError`` for a file that cannot be read, is not a session or a trace,
  ///   or has a malformed line.
  public init(contentsOf path: String) throws(TraceReadError) {
    try self.init(reader: try SessionReader(path: path))
  }

  /// Reads a whole session from its bytes.
  /// - Throws: ``TraceReadError`` as ``init(contentsOf:)`` does.
  public init(bytes: [UInt8]) throws(TraceReadError) {
    try self.init(reader: try SessionReader(bytes: bytes))
  }

  private init(reader: SessionReader) throws(TraceReadError) {
    var events: [SessionEvent] = []
    while let event = try reader.next() { events.append(event) }
    self.init(header: reader.header, events: events, warnings: reader.warnings)
  }

  /// Every reactor's introduction, in the order they entered the session.
  public var reactors: [ReactorIntroduction] {
    events.compactMap {
      if case .introduced(let introduction) = $0.kind { return introduction }
      return nil
    }
  }

  /// The session as JSON Lines in format 2.0 (2.1 for a session window that dropped the
  /// start of the run, 2.2 for one that may hold jumps): the header line, then one line per event, each ending in a newline.
  ///
  /// A trace of one reactor read as a session (its introduction has `seq` 0) is numbered
  /// again from 1, so that the file's numbering is consecutive, and the targets of its jumps
  /// with it.
  public var serialized: [UInt8] {
    var header = self.header
    if header.version.major == SessionHeader.currentVersion.major, header.window != nil {
      header.version = SessionHeader.windowVersion
    } else {
      header.version = SessionHeader.currentVersion
      header.window = nil
    }
    // A session that holds a jump, or was recorded to hold one, is 2.2 (which includes 2.1).
    let holdsJumps = events.contains {
      if case .reactor(_, .jump) = $0.kind { true } else { false }
    }
    if holdsJumps || self.header.version >= SessionHeader.jumpVersion {
      header.version = SessionHeader.jumpVersion
    }
    var lines = LineWriter()
    lines.bytes = header.serializedLine
    lines.endLine()
    let renumbers = events.first?.sequence == 0
    // A jump names an earlier event by its `seq`: numbered again with it.
    var renumbered: [Int: Int] = [:]
    for (index, event) in events.enumerated() {
      var event = event
      if renumbers {
        if holdsJumps {
          renumbered[event.sequence] = index + 1
          if case .reactor(let reactor, .jump(var jump)) = event.kind,
            let target = renumbered[jump.target]
          {
            jump.target = target
            event.kind = .reactor(reactor, .jump(jump))
          }
        }
        event.sequence = index + 1
      }
      event.write(to: &lines)
      lines.endLine()
    }
    return lines.bytes
  }

  /// Writes the session to a file atomically, in format 2.0.
  /// - Throws: ``AtomicFileError`` when the file cannot be written; nothing is left behind.
  public func write(to path: String) throws(AtomicFileError) {
    try AtomicFile.write(serialized, to: path)
  }

  /// The lane of one reactor: the trace of that reactor alone, as a recorder of it alone would
  /// have written it, except that events keep their `seq` in the session (so what a replay
  /// of the lane reports names the session's event).
  ///
  /// Its header holds the reactor's type, schema and initial state and the session's clock,
  /// recorder, metadata and redactions; its events are the reactor's, with the session's gaps
  /// while it was alive. It ends with an end line at its release or at the session's end.
  /// The lane of a trace of one reactor read as a session is that trace, byte for byte.
  /// - Parameter reactor: The reactor's id.
  /// - Returns: The lane, or `nil` when no reactor with that id was introduced.
  public func lane(of reactor: Int) -> Trace? {
    var introduction: ReactorIntroduction?
    var events: [TraceEvent] = []
    for event in self.events {
      switch event.kind {
      case .introduced(let introduced) where introduced.reactor == reactor:
        introduction = introduced
      case .reactor(let owner, let kind) where owner == reactor:
        events.append(TraceEvent(sequence: event.sequence, time: event.time, kind: kind))
      case .gap(let gap) where introduction != nil:
        events.append(TraceEvent(sequence: event.sequence, time: event.time, kind: .gap(gap)))
      case .released(let released) where released == reactor:
        guard let introduction else { return nil }
        events.append(laneEnd(events, running: [], at: event))
        return Trace(header: introduction.traceHeader(in: header), events: events)
      case .end(let end) where introduction != nil:
        let starts = end.runningEffects.filter { $0.reactor == reactor }.map(\.start)
        if header.version.major == TraceHeader.currentVersion.major {
          // A trace of one reactor read as a session: its lane is that trace, end line and all.
          events.append(
            TraceEvent(
              sequence: event.sequence, time: event.time,
              kind: .end(
                TraceEvent.End(
                  observedEvents: end.observedEvents, droppedEvents: end.droppedEvents,
                  runningEffects: starts))))
        } else {
          events.append(laneEnd(events, running: starts, at: event))
        }
      default:
        break
      }
    }
    guard let introduction else { return nil }
    return Trace(header: introduction.traceHeader(in: header), events: events)
  }

  private func laneEnd(
    _ events: [TraceEvent], running: [TraceEvent.EffectStart], at event: SessionEvent
  ) -> TraceEvent {
    var dropped = 0
    var observed = 0
    for laneEvent in events {
      if case .gap(let gap) = laneEvent.kind {
        dropped += gap.droppedEvents
      } else {
        observed += 1
      }
    }
    return TraceEvent(
      sequence: event.sequence, time: event.time,
      kind: .end(
        TraceEvent.End(
          observedEvents: observed + dropped, droppedEvents: dropped, runningEffects: running)))
  }
}
