import ReactorJSON

/// Reads a session trace (many reactors in one file) one event at a time, in memory that
/// grows with the reactors alive at once, not with the length of the session.
///
/// ```swift
/// let reader = try SessionReader(path: "taskapp.session.jsonl")
/// while let event = try reader.next() {
///   if case .introduced(let reactor) = event.kind { print(reactor.reactor, reactor.type) }
/// }
/// ```
///
/// It reads session traces (format 2.x) and traces of one reactor (format 1.x) alike: a trace
/// of one reactor reads as a session of one reactor, id 1, introduced by an event with `seq`
/// 0 built from its header. Opening checks the header; a malformed line fails with its line
/// number, as does an event of a reactor that was not introduced or was already released. A
/// torn last line, a missing end line and unknown kinds are warnings, as with ``TraceReader``.
/// While reading, it rebuilds every reactor's state and checks it against the recorded hash
/// (turn this off with `verifyingStates: false`). Whether causes point at events that exist
/// is checked by the structural replay, not here.
public final class SessionReader {
  /// The session's first line (for a trace of one reactor, built from its header).
  public let header: SessionHeader
  /// The file's path, or the name given to bytes, as errors mention it.
  public let path: String
  /// How many events were read so far (the introduction of a trace of one reactor included).
  public private(set) var eventCount = 0
  /// How many lines of unknown kinds came right before the event ``next()`` returned last
  /// (0 when none did): the `seq` numbers between the previous event and this one that are
  /// not missing.
  public private(set) var skippedBeforeLastEvent = 0
  /// The reactors introduced and not yet released, by id.
  public private(set) var liveReactors: [Int: ReactorIntroduction] = [:]

  /// What was noticed so far without failing.
  public var warnings: [TraceWarning] {
    if case .single(let reader) = source { return reader.warnings }
    return sessionWarnings
  }

  /// The number of the line last read, from 1 (the header).
  public var lineNumber: Int {
    if case .single(let reader) = source { return reader.lineNumber }
    return sessionLine
  }

  private enum Source {
    /// A trace of one reactor, read by its own reader.
    case single(TraceReader)
    /// A session trace.
    case session(LineReader)
  }

  /// A reactor's effect, as a key.
  private struct EffectKey: Hashable {
    var reactor: Int
    var effect: Int
  }

  private let source: Source
  private let verifiesStates: Bool
  private var parser = JSONParser()
  /// Decodes the action and mutation lines the session recorder writes without a JSON tree.
  private var fastDecoder = EventLineDecoder()
  private var introducedSingle = false
  private var sessionWarnings: [TraceWarning] = []
  private var sessionLine = 1
  private var states: [Int: TraceHeader.State] = [:]
  private var introduced: Set<Int> = []
  private var runningEffects: [EffectKey: TraceEvent.EffectStart] = [:]
  private var unknownKinds: Set<String> = []
  private var hasEnded = false
  private var isFinished = false
  private var lastEventTime = Duration.zero
  private var lastEventLine = 1

  /// Opens the session or trace at `path` and reads its header.
  /// - Parameters:
  ///   - path: The file.
  ///   - verifyingStates: Whether to rebuild each reactor's state and check its hash.
  /// - Throws: ``TraceReadError`` when the file cannot be read or is neither a session nor a
  ///   trace this reader reads.
  public convenience init(path: String, verifyingStates: Bool = true) throws(TraceReadError) {
    guard
      let lines = LineReader(path: path, maximumLineLength: TraceReader.defaultMaximumLineLength)
    else {
      throw .cannotOpen(path: path, reason: POSIXFile.message(POSIXFile.errorCode))
    }
    try self.init(lines: lines, path: path, verifyingStates: verifyingStates) {
      () throws(TraceReadError) in try TraceReader(path: path, verifyingStates: verifyingStates)
    }
  }

  /// Reads a session or a trace held in memory.
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - name: What errors call it.
  ///   - verifyingStates: Whether to rebuild each reactor's state and check its hash.
  /// - Throws: ``TraceReadError`` when the bytes are neither a session nor a trace.
  public convenience init(
    bytes: [UInt8], name: String = "session", verifyingStates: Bool = true
  ) throws(TraceReadError) {
    try self.init(
      lines: LineReader(bytes: bytes, maximumLineLength: TraceReader.defaultMaximumLineLength),
      path: name, verifyingStates: verifyingStates
    ) { () throws(TraceReadError) in
      try TraceReader(bytes: bytes, name: name, verifyingStates: verifyingStates)
    }
  }

  /// Reads a session from bytes with lines of any length: how an in-memory session recorder
  /// reads back its own lines.
  convenience init(
    bytes: [UInt8], name: String, verifyingStates: Bool, maximumLineLength: Int
  ) throws(TraceReadError) {
    try self.init(
      lines: LineReader(bytes: bytes, maximumLineLength: maximumLineLength),
      path: name, verifyingStates: verifyingStates
    ) { () throws(TraceReadError) in
      try TraceReader(bytes: bytes, name: name, verifyingStates: verifyingStates)
    }
  }

  /// Reads a trace of one reactor from `reader`, which has read no event yet, as a session of
  /// one reactor: as a session reader opened on the trace's file reads it.
  /// - Parameter reader: The trace's reader; this one reads through it, and checks states as
  ///   it does.
  public init(reader: TraceReader) {
    path = reader.path
    verifiesStates = true
    source = .single(reader)
    header = SessionHeader(reader.header)
  }

  private init(
    lines: LineReader, path: String, verifyingStates: Bool,
    singleReader: () throws(TraceReadError) -> TraceReader
  ) throws(TraceReadError) {
    self.path = path
    self.verifiesStates = verifyingStates
    let json = try lines.headerLine(path: path, with: &parser)
    let version: TraceFormatVersion
    do throws(TraceHeaderProblem) {
      version = try TraceHeader.formatVersion(json)
    } catch {
      throw error.readError(path: path)
    }
    switch version.major {
    case TraceHeader.currentVersion.major:
      let reader = try singleReader()
      source = .single(reader)
      header = SessionHeader(reader.header)
    case SessionHeader.currentVersion.major:
      source = .session(lines)
      do throws(TraceFormatError) {
        header = try SessionHeader.decode(json, version: version)
      } catch {
        throw .malformedHeader(path: path, reason: error.description)
      }
    default:
      throw .unsupportedVersion(path: path, version: version)
    }
  }

  /// The state of a live reactor after the last event read, rebuilt from snapshots and diffs
  /// (its initial state until its first mutation); `nil` for a reactor that is not live, and
  /// not updated when verification is off.
  /// - Parameter reactor: The reactor's id.
  /// - Returns: Its current state.
  public func currentState(of reactor: Int) -> TraceHeader.State? {
    if case .single(let reader) = source { return reactor == 1 ? reader.currentState : nil }
    return states[reactor]
  }

  /// The lines to read on from here as this reader does.
  ///
  /// Followed by the file's lines after the last event read, they read as the same live
  /// reactors in the same states: for a session, its header and an introduction of each live
  /// reactor with its state now (at `event`'s `seq` and time); for a trace of one reactor,
  /// its header with the state now.
  /// - Parameter event: The event ``next()`` returned last.
  /// - Returns: The lines, each ending in a newline.
  package func resumptionLines(after event: SessionEvent) -> [UInt8] {
    var bytes: [UInt8] = []
    if case .session = source { bytes = header.serializedLine + [0x0A] }
    for id in liveReactors.keys.sorted() {
      guard var introduction = liveReactors[id], let state = currentState(of: id) else { continue }
      introduction.initialState = state
      introduction.initialStateHash = state.hash
      switch source {
      case .single:
        bytes += introduction.traceHeader(in: header).serializedLine
      case .session:
        bytes +=
          SessionEvent(sequence: event.sequence, time: event.time, kind: .introduced(introduction))
          .serializedLine
      }
      bytes.append(0x0A)
    }
    return bytes
  }

  /// The next event, or `nil` after the last one.
  /// - Throws: ``TraceReadError`` for a malformed line, an event of a reactor that is not
  ///   live, an unreadable file, or a state that does not match its hash.
  public func next() throws(TraceReadError) -> SessionEvent? {
    skippedBeforeLastEvent = 0
    switch source {
    case .single(let reader):
      defer { skippedBeforeLastEvent = reader.skippedBeforeLastEvent }
      return try nextSingle(reader)
    case .session(let lines):
      return try nextSession(lines)
    }
  }

  /// The next event of a trace of one reactor, as a session's.
  private func nextSingle(_ reader: TraceReader) throws(TraceReadError) -> SessionEvent? {
    if !introducedSingle {
      introducedSingle = true
      let introduction = ReactorIntroduction(reader.header)
      liveReactors[1] = introduction
      eventCount += 1
      return SessionEvent(sequence: 0, time: .zero, kind: .introduced(introduction))
    }
    guard let event = try reader.next() else { return nil }
    eventCount += 1
    return SessionEvent(event)
  }

  /// The next event of a session trace.
  private func nextSession(_ lines: LineReader) throws(TraceReadError) -> SessionEvent? {
    while !isFinished {
      guard let line = try lines.nextEventLine(path: path, number: &sessionLine) else {
        isFinished = true
        if !hasEnded {
          sessionWarnings.append(.missingEnd(lastLine: sessionLine))
          warnUnfinishedEffects()
        }
        return nil
      }
      let fastEvent = lines.buffer.withUnsafeBytes { bytes in
        fastDecoder.decode(
          UnsafeRawBufferPointer(rebasing: bytes[line.range]), parser: &parser, inSession: true)
      }
      if let fastEvent {
        let event = SessionEvent(
          sequence: fastEvent.sequence, time: fastEvent.time,
          kind: .reactor(fastDecoder.reactor, fastEvent.kind))
        try accept(event)
        return event
      }
      let json: JSONValue
      switch try lines.parse(line, with: &parser, path: path, number: sessionLine) {
      case .json(let value):
        json = value
      case .torn(let byteCount):
        sessionWarnings.append(.tornLastLine(line: sessionLine, byteCount: byteCount))
        warnUnfinishedEffects()
        isFinished = true
        return nil
      }
      let decoded: SessionEventDecoding
      do throws(TraceFormatError) {
        decoded = try SessionEvent.decode(json)
      } catch {
        throw .malformedLine(path: path, line: sessionLine, reason: error.description)
      }
      switch decoded {
      case .unknownKind(let kind):
        if unknownKinds.insert(kind).inserted {
          sessionWarnings.append(.unknownEventKind(kind, firstLine: sessionLine))
        }
        skippedBeforeLastEvent += 1
        continue
      case .event(let event):
        try accept(event)
        return event
      }
    }
    return nil
  }

  /// Warns that the run was not finished when effects were still running at the last event.
  private func warnUnfinishedEffects() {
    warnUnfinished(
      runningEffects.map { SessionEvent.RunningEffect(reactor: $0.key.reactor, start: $0.value) })
  }

  /// Checks an event read from the current line against the reactors alive, and rebuilds the
  /// state after it.
  private func accept(_ event: SessionEvent) throws(TraceReadError) {
    func malformed(_ reason: String) -> TraceReadError {
      .malformedLine(path: path, line: sessionLine, reason: reason)
    }
    if hasEnded { throw malformed("an event follows the end line") }
    if let reactor = event.reactor, !isIntroduction(event), liveReactors[reactor] == nil {
      throw malformed(
        introduced.contains(reactor)
          ? "an event of reactor \(reactor), which was released before it"
          : "an event of reactor \(reactor), which was not introduced before it")
    }
    eventCount += 1
    lastEventTime = event.time
    lastEventLine = sessionLine
    switch event.kind {
    case .introduced(let introduction):
      guard introduced.insert(introduction.reactor).inserted else {
        throw malformed("reactor \(introduction.reactor) is introduced a second time")
      }
      liveReactors[introduction.reactor] = introduction
      if verifiesStates {
        let actual = introduction.initialState.hash
        guard actual == introduction.initialStateHash else {
          throw .stateMismatch(
            path: path, line: sessionLine, sequence: event.sequence,
            expected: introduction.initialStateHash, actual: actual)
        }
        states[introduction.reactor] = introduction.initialState
      }
    case .released(let reactor):
      liveReactors[reactor] = nil
      states[reactor] = nil
      runningEffects = runningEffects.filter { $0.key.reactor != reactor }
    case .reactor(let reactor, let kind):
      switch kind {
      case .mutation(let mutation):
        if verifiesStates {
          try rebuildState(
            of: reactor, mutation.state, hash: mutation.stateHash, sequence: event.sequence)
        }
      case .jump(let jump):
        if verifiesStates {
          try rebuildState(
            of: reactor, jump.stateChange, hash: jump.stateHash, sequence: event.sequence)
        }
      case .effectStarted(let start):
        runningEffects[EffectKey(reactor: reactor, effect: start.effect)] = start
      case .effectEnded(let end):
        runningEffects[EffectKey(reactor: reactor, effect: end.effect)] = nil
      case .gap, .end:
        throw malformed("a gap or an end line names a reactor")
      case .action, .streamEnded:
        break
      }
    case .gap(let gap):
      sessionWarnings.append(.eventsDropped(count: gap.droppedEvents, line: sessionLine))
      runningEffects.removeAll()
    case .end(let end):
      hasEnded = true
      warnUnfinished(end.runningEffects)
    }
  }

  private func isIntroduction(_ event: SessionEvent) -> Bool {
    if case .introduced = event.kind { return true }
    return false
  }

  private func warnUnfinished(_ effects: [SessionEvent.RunningEffect]) {
    guard !effects.isEmpty else { return }
    sessionWarnings.append(
      .unfinishedSessionEffects(
        line: lastEventLine, time: lastEventTime,
        effects: effects.sorted {
          ($0.reactor, $0.start.effect) < ($1.reactor, $1.start.effect)
        }))
  }

  private func rebuildState(
    of reactor: Int, _ change: TraceEvent.StateChange, hash: TraceHash, sequence: Int
  ) throws(TraceReadError) {
    guard var state = states.removeValue(forKey: reactor) else { return }
    do throws(TraceFormatError) {
      try state.apply(change)
    } catch {
      throw .malformedLine(path: path, line: sessionLine, reason: error.description)
    }
    let actual = state.hash
    states[reactor] = state
    guard actual == hash else {
      throw .stateMismatch(
        path: path, line: sessionLine, sequence: sequence, expected: hash, actual: actual)
    }
  }
}
