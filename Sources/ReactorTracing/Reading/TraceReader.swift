import ReactorJSON

/// Reads a trace one event at a time, in memory that does not grow with the trace.
///
/// ```swift
/// let reader = try TraceReader(path: "counter.trace.jsonl")
/// print(reader.header.reactor)
/// while let event = try reader.next() {
///   print(event.sequence, event.kind)
/// }
/// for warning in reader.warnings { print("warning:", warning) }
/// ```
///
/// Opening reads and checks the header: a file that is not a trace, declares another format
/// or a newer major version fails with one clear ``TraceReadError``. A malformed line fails
/// with its line number and the reason. A last line cut off by a crash ends the trace with a
/// ``TraceWarning/tornLastLine(line:byteCount:)`` warning instead. Members and event kinds
/// the reader does not know are skipped, so newer minor versions stay readable.
///
/// While reading, the reader rebuilds every state from its snapshot or diff and checks it
/// against the recorded hash (``currentState``); turn this off with `verifyingStates: false`
/// when only the events matter.
public final class TraceReader {
  /// The most bytes a line may have unless told otherwise: 16 MiB, far above any real event
  /// (a line holds at most one state snapshot) and small enough to bound memory.
  public static let defaultMaximumLineLength = 16 << 20

  /// The trace's first line.
  public let header: TraceHeader
  /// The file's path, or the name given to bytes, as errors mention it.
  public let path: String
  // A reader's stored properties are touched only by its own methods, which never call out
  // while one is being modified: their dynamic exclusivity checks, which cost several hundred
  // instructions per event read, are off.

  /// What was noticed so far without failing.
  @exclusivity(unchecked) public private(set) var warnings: [TraceWarning] = []
  /// How many events were read so far: complete lines of known kinds.
  @exclusivity(unchecked) public private(set) var eventCount = 0
  /// How many lines of kinds this reader does not know it skipped so far.
  ///
  /// Each such kind is named once in ``warnings``. Their `seq` numbers belong to them:
  /// consumers that check that no event is missing count them with ``skippedBeforeLastEvent``.
  @exclusivity(unchecked) public private(set) var skippedEventCount = 0
  /// How many lines of unknown kinds came right before the event ``next()`` returned last
  /// (0 when none did): the `seq` numbers between the previous event and this one that
  /// are not missing.
  @exclusivity(unchecked) public private(set) var skippedBeforeLastEvent = 0
  /// The number of the line last read, from 1 (the header).
  @exclusivity(unchecked) public private(set) var lineNumber = 1
  /// The state after the last event read, rebuilt from snapshots and diffs.
  ///
  /// It is the header's
  /// initial state before any mutation. Not updated when verification is off.
  @exclusivity(unchecked) public private(set) var currentState: TraceHeader.State

  private let lines: LineReader
  /// Kept across lines: it reuses its working memory and its cache of repeated keys.
  @exclusivity(unchecked) private var parser = JSONParser()
  /// Decodes lines of the Swift recorder's shape without a JSON tree for the whole line.
  @exclusivity(unchecked) private var fastDecoder = EventLineDecoder()
  private let verifiesStates: Bool
  /// Whether a reader that does not verify states may leave the state change of a mutation
  /// unparsed (an empty diff in its event) when it only needs checking: for a replay that
  /// compares state hashes and asks for ``stateChangeOfLastEvent()`` where they differ.
  @exclusivity(unchecked) package var skipsStateChanges = false
  /// The mutation ``nextReplayLine()`` returned last, when it came the general way
  /// (``lastMutationIsGeneral``; set only then, to spare the common step its copy).
  @exclusivity(unchecked) private var lastGeneralMutation: TraceEvent.Mutation?
  @exclusivity(unchecked) private var lastMutationIsGeneral = false
  /// The last line read, while it is still in the buffer.
  @exclusivity(unchecked) private var lastLine: Range<Int> = 0..<0
  /// Whether the last event's state change was left unparsed.
  @exclusivity(unchecked) private var skippedLastState = false
  @exclusivity(unchecked) private var hasEnded = false
  @exclusivity(unchecked) private var isFinished = false
  @exclusivity(unchecked) private var unknownKinds: Set<String> = []
  /// The effects started and not yet ended, by id, to name them when the trace ends early.
  @exclusivity(unchecked) private var runningEffects: [Int: TraceEvent.EffectStart] = [:]
  /// The time and line of the last event read.
  @exclusivity(unchecked) private var lastEventTime = Duration.zero
  @exclusivity(unchecked) private var lastEventLine = 1

  /// Opens the trace at `path` and reads its header.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - verifyingStates: Whether to rebuild each state and check its hash.
  ///   - maximumLineLength: Longer lines fail with ``TraceReadError/lineTooLong(path:line:limit:)``.
  /// - Throws: ``TraceReadError`` when the file cannot be read or is not a trace this reader
  ///   reads.
  public convenience init(
    path: String, verifyingStates: Bool = true,
    maximumLineLength: Int = TraceReader.defaultMaximumLineLength
  ) throws(TraceReadError) {
    guard let lines = LineReader(path: path, maximumLineLength: maximumLineLength) else {
      throw .cannotOpen(path: path, reason: POSIXFile.message(POSIXFile.errorCode))
    }
    try self.init(lines: lines, path: path, verifyingStates: verifyingStates)
  }

  /// Reads a trace held in memory.
  /// - Parameters:
  ///   - bytes: The trace's bytes.
  ///   - name: What errors call it.
  ///   - verifyingStates: Whether to rebuild each state and check its hash.
  /// - Throws: ``TraceReadError`` when the bytes are not a trace this reader reads.
  public convenience init(
    bytes: [UInt8], name: String = "trace", verifyingStates: Bool = true
  ) throws(TraceReadError) {
    try self.init(
      lines: LineReader(bytes: bytes, maximumLineLength: Self.defaultMaximumLineLength),
      path: name, verifyingStates: verifyingStates)
  }

  /// Reads a trace from a file already open, from its current offset, for files that have
  /// no name (a lane of a session written to an unnamed temporary file).
  /// - Parameters:
  ///   - descriptor: The open file; the reader closes it, even when it throws.
  ///   - name: What errors call it.
  ///   - verifyingStates: Whether to rebuild each state and check its hash.
  /// - Throws: ``TraceReadError`` when the file is not a trace this reader reads.
  package convenience init(
    descriptor: Int32, name: String, verifyingStates: Bool = true
  ) throws(TraceReadError) {
    try self.init(
      lines: LineReader(descriptor: descriptor, maximumLineLength: Self.defaultMaximumLineLength),
      path: name, verifyingStates: verifyingStates)
  }

  private init(
    lines: LineReader, path: String, verifyingStates: Bool
  ) throws(TraceReadError) {
    self.lines = lines
    self.path = path
    self.verifiesStates = verifyingStates
    let json = try lines.headerLine(path: path, with: &parser)
    do throws(TraceHeaderProblem) {
      header = try TraceHeader.decode(json)
    } catch {
      throw error.readError(path: path)
    }
    currentState = header.initialState
    if verifyingStates {
      let actual = currentState.hash
      guard actual == header.initialStateHash else {
        throw .stateMismatch(
          path: path, line: 1, sequence: 0, expected: header.initialStateHash, actual: actual)
      }
    }
  }

  /// The next event, or `nil` after the last one.
  /// - Throws: ``TraceReadError`` for a malformed line, an unreadable file, or a state that
  ///   does not match its hash.
  public func next() throws(TraceReadError) -> TraceEvent? {
    switch try nextLine() {
    case .fast: fastDecoder.line.event
    case .event(let event): event
    case nil: nil
    }
  }

  /// The next line as a reduce replay reads it: the few fields it needs of an action or a
  /// mutation of the recorder's shape, without making its event; any other event whole.
  ///
  /// It reads, checks and fails exactly as ``next()`` does, line for line.
  /// - Returns: The line, or `nil` after the last one.
  /// - Throws: What ``next()`` throws.
  package func nextReplayLine() throws(TraceReadError) -> ReplayLine? {
    switch try nextLine() {
    case .fast:
      lastMutationIsGeneral = false
      switch fastDecoder.line.kind {
      case .action:
        return .action(id: fastDecoder.line.id, label: fastDecoder.line.label)
      case .mutation:
        return .mutation(
          ReplayLine.Mutation(
            sequence: fastDecoder.line.sequence, label: fastDecoder.line.label,
            value: fastDecoder.line.value, action: fastDecoder.line.action,
            stateHash: fastDecoder.line.stateHash))
      }
    case .event(let event):
      switch event.kind {
      case .action(let action):
        return .action(id: action.id, label: action.label)
      case .mutation(let mutation):
        lastMutationIsGeneral = true
        lastGeneralMutation = mutation
        return .mutation(
          ReplayLine.Mutation(
            sequence: event.sequence, label: mutation.label, value: mutation.value,
            action: mutation.cause.action, stateHash: mutation.stateHash))
      default:
        return .event(event)
      }
    case nil:
      return nil
    }
  }

  /// The mutation ``nextReplayLine()`` returned last, whole, with its state change parsed.
  package func lastMutation() -> TraceEvent.Mutation {
    if lastMutationIsGeneral, let lastGeneralMutation { return lastGeneralMutation }
    if !skippedLastState, case .mutation(let mutation) = fastDecoder.line.event.kind {
      return mutation
    }
    let line = lastLine
    return lines.buffer.withUnsafeBytes { bytes in
      fastDecoder.rereadMutation(UnsafeRawBufferPointer(rebasing: bytes[line]), parser: &parser)
    }
  }

  /// Copies the line of the mutation ``nextReplayLine()`` returned last to the end of `bytes`,
  /// so that ``ReadAheadReplayReader`` reads it whole again on another thread.
  /// - Parameter bytes: Where to copy it.
  /// - Returns: The mutation whole instead when it was read the general way (nothing is
  ///   copied then).
  package func copyLastMutation(to bytes: inout [UInt8]) -> TraceEvent.Mutation? {
    if lastMutationIsGeneral { return lastGeneralMutation }
    let line = lastLine
    lines.buffer.withUnsafeBytes { buffer in
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[line]))
    }
    return nil
  }

  /// A line read: of the recorder's shape (its fields in the fast decoder's line), or any
  /// other event, boxed so that the common case moves a word.
  private enum ReadLine {
    case fast
    indirect case event(TraceEvent)
  }

  /// Reads, checks and accepts the next event's line.
  private func nextLine() throws(TraceReadError) -> ReadLine? {
    skippedBeforeLastEvent = 0
    while !isFinished {
      guard let line = try lines.nextEventLine(path: path, number: &lineNumber) else {
        isFinished = true
        if !hasEnded {
          warnings.append(.missingEnd(lastLine: lineNumber))
          warnUnfinished(runningEffects.values)
        }
        return nil
      }
      lastLine = line.range
      skippedLastState = false
      let skippingStates = skipsStateChanges && !verifiesStates
      let isFast = lines.buffer.withUnsafeBytes { bytes in
        fastDecoder.read(
          UnsafeRawBufferPointer(rebasing: bytes[line.range]), parser: &parser,
          skippingStates: skippingStates)
      }
      if isFast {
        skippedLastState = fastDecoder.skippedState
        try acceptDecoded()
        return .fast
      }
      let json: JSONValue
      switch try lines.parse(line, with: &parser, path: path, number: lineNumber) {
      case .json(let value):
        json = value
      case .torn(let byteCount):
        warnings.append(.tornLastLine(line: lineNumber, byteCount: byteCount))
        warnUnfinished(runningEffects.values)
        isFinished = true
        return nil
      }
      let decoded: TraceEventDecoding
      do throws(TraceFormatError) {
        decoded = try TraceEvent.decode(json)
      } catch {
        throw .malformedLine(path: path, line: lineNumber, reason: error.description)
      }
      switch decoded {
      case .unknownKind(let kind):
        if unknownKinds.insert(kind).inserted {
          warnings.append(.unknownEventKind(kind, firstLine: lineNumber))
        }
        skippedEventCount += 1
        skippedBeforeLastEvent += 1
        continue
      case .event(let event):
        try accept(event)
        return .event(event)
      }
    }
    return nil
  }

  /// The state change of the mutation ``next()`` returned last, as stored in the trace,
  /// parsed now if ``skipsStateChanges`` left it out of the event.
  /// - Parameter mutation: That mutation.
  /// - Returns: Its state change.
  package func stateChangeOfLastEvent(
    _ mutation: TraceEvent.Mutation
  ) -> TraceEvent.StateChange {
    guard skippedLastState else { return mutation.state }
    let line = lastLine
    let event = lines.buffer.withUnsafeBytes { bytes in
      fastDecoder.decode(UnsafeRawBufferPointer(rebasing: bytes[line]), parser: &parser)
    }
    // The skipped change was checked to be of a shape that parses.
    guard case .mutation(let parsed)? = event?.kind else {
      preconditionFailure("a skipped state change did not parse")
    }
    return parsed.state
  }

  /// ``accept(_:)`` for the action or mutation the fast path read last.
  private func acceptDecoded() throws(TraceReadError) {
    if hasEnded {
      throw .malformedLine(path: path, line: lineNumber, reason: "an event follows the end line")
    }
    eventCount += 1
    lastEventTime = fastDecoder.line.time
    lastEventLine = lineNumber
    if verifiesStates, fastDecoder.line.kind == .mutation {
      try rebuildState(
        fastDecoder.line.state, hash: fastDecoder.line.stateHash,
        sequence: fastDecoder.line.sequence)
    }
  }

  /// Checks an event read from the current line against the ones before, and rebuilds the
  /// state after it.
  private func accept(_ event: TraceEvent) throws(TraceReadError) {
    if hasEnded {
      throw .malformedLine(path: path, line: lineNumber, reason: "an event follows the end line")
    }
    eventCount += 1
    lastEventTime = event.time
    lastEventLine = lineNumber
    switch event.kind {
    case .mutation:
      // Bound only when needed: binding copies the mutation.
      if verifiesStates, case .mutation(let mutation) = event.kind {
        try rebuildState(mutation.state, hash: mutation.stateHash, sequence: event.sequence)
      }
    case .jump(let jump):
      if verifiesStates {
        try rebuildState(jump.stateChange, hash: jump.stateHash, sequence: event.sequence)
      }
    case .effectStarted(let start):
      runningEffects[start.effect] = start
    case .effectEnded(let end):
      runningEffects[end.effect] = nil
    case .gap(let gap):
      warnings.append(.eventsDropped(count: gap.droppedEvents, line: lineNumber))
      // Effects that started before the gap may have ended in it.
      runningEffects.removeAll()
    case .end(let end):
      hasEnded = true
      warnUnfinished(end.runningEffects)
    case .action, .streamEnded:
      break
    }
  }

  /// Warns that the run was not finished when `effects` were still running at the last event.
  private func warnUnfinished<Effects: Collection<TraceEvent.EffectStart>>(_ effects: Effects) {
    guard !effects.isEmpty else { return }
    warnings.append(
      .unfinishedEffects(
        line: lastEventLine, time: lastEventTime,
        effects: effects.sorted { $0.effect < $1.effect }))
  }

  private func rebuildState(
    _ change: TraceEvent.StateChange, hash: TraceHash, sequence: Int
  ) throws(TraceReadError) {
    do throws(TraceFormatError) {
      try currentState.apply(change)
    } catch {
      throw .malformedLine(path: path, line: lineNumber, reason: error.description)
    }
    let actual = currentState.hash
    guard actual == hash else {
      throw .stateMismatch(
        path: path, line: lineNumber, sequence: sequence, expected: hash, actual: actual)
    }
  }

  static func parse(
    _ buffer: [UInt8], _ range: Range<Int>, with parser: inout JSONParser
  ) throws(JSONParseError) -> JSONValue {
    try buffer.withUnsafeBytes { bytes in
      Result { () throws(JSONParseError) in
        try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[range]))
      }
    }.get()
  }

  static func isBlank(_ buffer: [UInt8], _ range: Range<Int>) -> Bool {
    buffer[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}
