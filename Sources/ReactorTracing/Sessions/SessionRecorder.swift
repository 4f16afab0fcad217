public import ReactorCore
import ReactorSchema

/// Records many reactors into one session: each reactor's lane, and the causes that cross
/// from one reactor to another, in memory, to a file or as a flight recorder's window
/// (``SessionDestination``).
///
/// Record a whole app with one line at start-up: every reactor whose pipeline starts from
/// then on is recorded, children with their parent.
///
/// ```swift
/// let recorder = try SessionRecorder.recordingEveryReactor(.file("app.session.jsonl"))
/// // … the app runs …
/// await recorder.waitUntilIdle()
/// try await recorder.close()
/// ```
///
/// In memory, ``session`` holds every event; as a flight recorder
/// (`.window(FlightWindow(events: 5_000))`), ``session`` is the window now, which starts from
/// every live reactor's state before its first event, and can be written at any time with
/// `recorder.session.write(to:)` while recording goes on.
///
/// To a file, each event's line is queued for a writer thread, which writes what is queued
/// every ``TraceOptions/flushInterval`` or ``TraceOptions/flushThreshold`` events: the main
/// actor never waits for the disk unless the queue is full (``TraceOptions/queueBudget``
/// bytes, or `flushThreshold` lines), so a crash loses at most the last 200 ms or 4,096
/// events by default. The file is a valid session after every flush (a torn last line is
/// reported by readers as a warning). ``close()`` writes everything and the end line; if the
/// recorder is released without it, recording stops and the writer finishes in the
/// background. Only the wait policy applies: a dropped introduction or mutation would break
/// the lanes after it.
///
/// Or choose reactors by hand, with names scripts address them by:
///
/// ```swift
/// let recorder = try SessionRecorder()
/// recorder.record(list, name: "list")
/// recorder.record(edit, name: "edit")
/// ```
///
/// Nothing the recorder holds keeps a reactor alive: a reactor released during the run ends
/// its lane with a `release` event. To a file (or a live stream), a reactor whose action,
/// mutation and state types are plain data (no class instance, closure or existential in
/// them, so no reactor) has its actions and mutations numbered on the main actor and queued
/// as values, and the writer thread encodes them, as a single reactor's file recorder does;
/// the events of any other reactor (a state that holds reactors, or could), and every event
/// in memory or in a flight window, are encoded on the main actor as they happen, so that the
/// recorder keeps none of their values. Recording a reactor sets its
/// runtime's ``ReactorCore/ReactorRuntime/sessionID``, so that its runtime tracks what runs
/// (``ReactorCore/ReactorActivity``) and actions and stream elements it causes in other
/// reactors are recorded with their origin.
@MainActor
public final class SessionRecorder: ReactorSessionObserver {
  let log: SessionLog
  private let options: TraceOptions
  /// Which reactors ``reactorWillStart(_:createdBy:)`` records.
  private var includes: @MainActor (AnyObject) -> Bool = { _ in true }
  /// The naming rules, in the order given: the first name one gives a reactor recorded
  /// without one is its name.
  private var namingRules: [@MainActor (AnyObject) -> String?] = []
  /// The parent types whose recorded state was searched for a child held inline: each is
  /// searched once (``checkInlineCopy(of:type:id:state:parent:)``).
  var inlineCheckedTypes: Set<String> = []

  /// What the recorder noticed in the app so far that the session is recorded right despite
  /// but that misleads its readers, each once: a reactor whose state holds a child reactor
  /// inline rather than as a `ReactorReference` (``SessionRecordingWarning``).
  ///
  /// ```swift
  /// try await recorder.close()
  /// for warning in recorder.warnings { print("warning: \(warning)") }
  /// ```
  public internal(set) var warnings: [SessionRecordingWarning] = []

  /// Starts a session recording no reactor yet.
  /// - Parameters:
  ///   - destination: Where the events go: memory (the default), a file or a flight window.
  ///   - options: Metadata, redaction, a first-events limit (not with a window), snapshot
  ///     interval and clock; for a file, flushing and the queue budget too. A rolling window
  ///     of the last events is the `.window` destination, not a limit.
  /// - Throws: ``TraceRecordingError`` for an invalid option, or a file that cannot be
  ///   created.
  public init(
    _ destination: SessionDestination = .memory, options: TraceOptions = TraceOptions()
  ) throws(TraceRecordingError) {
    if case .lastEvents = options.limit {
      throw .invalidOption(
        "a session recorder keeps the last events with the .window destination, not a limit")
    }
    log = try SessionLog(
      header: Self.header(checking: options), options: options, destination: destination)
    self.options = options
  }

  /// A session recorder handing its lines to `sink` (a live recorder's stream) from a writer
  /// thread, which drops events rather than make the main actor wait when its queue
  /// (``TraceOptions/queueBudget``) is full, recording a gap for them.
  /// - Parameters:
  ///   - sink: Where the lines go: the header's first, then each event's.
  ///   - name: What errors call the destination.
  ///   - options: As for ``init(_:options:)``, without a limit; the overflow policy is drop.
  /// - Throws: ``TraceRecordingError/invalidOption(_:)`` for an invalid option.
  package init(
    sink: any TraceLineSink, name: String, options: TraceOptions
  ) throws(TraceRecordingError) {
    guard case .unlimited = options.limit else {
      throw .invalidOption("a live session takes no limit")
    }
    let header = try Self.header(checking: options)
    log = SessionLog(
      header: header, options: options,
      writer: try SessionFileWriter(sink: sink, name: name, header: header, options: options))
    self.options = options
  }

  /// The session's header for `options`, once their redactions and snapshot interval are
  /// checked (before any reactor).
  private static func header(checking options: TraceOptions) throws(TraceRecordingError)
    -> SessionHeader
  {
    _ = try TraceEventEncoder<Never, Never, Never>(
      redactions: options.redactions, snapshotInterval: options.snapshotInterval)
    let clock = options.clock
    let isRealTime = clock is ContinuousClock || clock is SuspendingClock
    return SessionHeader(
      version: options.recordsJumps ? SessionHeader.jumpVersion : SessionHeader.currentVersion,
      recorder: recorderIdentifier,
      clock: TraceHeader.Clock(
        name: String(describing: type(of: clock)),
        origin: isRealTime ? WallClock.nowISO8601() : nil),
      metadata: options.metadata, redactions: options.redactions.map(\.pattern))
  }

  isolated deinit {
    log.stop()
    log.writer?.closeInBackground()
  }

  /// Starts a session that records every reactor whose pipeline starts from now on, until
  /// ``stop()``: the one line that records a whole app.
  /// - Parameters:
  ///   - destination: As for ``init(_:options:)``.
  ///   - options: As for ``init(_:options:)``.
  ///   - including: Which reactors to record (all by default): a reactor it turns down is
  ///     not in the session, and neither is what it causes in others.
  /// - Returns: The recorder; keep it, since it is installed weakly (released, it stops).
  /// - Throws: ``TraceRecordingError`` for an invalid option or a file that cannot be created.
  public static func recordingEveryReactor(
    _ destination: SessionDestination = .memory, options: TraceOptions = TraceOptions(),
    including: @escaping @MainActor (AnyObject) -> Bool = { _ in true }
  ) throws(TraceRecordingError) -> SessionRecorder {
    let recorder = try SessionRecorder(destination, options: options)
    recorder.recordEveryReactor(including: including)
    return recorder
  }

  /// Records every reactor whose pipeline starts from now on that `including` accepts, until
  /// ``stop()``: installs the recorder.
  package func recordEveryReactor(including: @escaping @MainActor (AnyObject) -> Bool) {
    includes = including
    install()
  }

  /// Names every reactor of type `type` (or a subclass) that is recorded from now on without
  /// a name: how a session factory names screens the app creates on demand, after the
  /// factory returns, such as an edit screen a list presents.
  ///
  /// ```swift
  /// recorder.name(TaskEditReactor.self, "edit")
  /// ```
  ///
  /// Several live reactors may share a name; a script addresses one of them by order,
  /// `edit[-1]` (the latest).
  /// - Parameters:
  ///   - type: The reactor type.
  ///   - name: The name its reactors are recorded with.
  public func name<R: Reactor>(_ type: R.Type, _ name: String) {
    namingRules.append { $0 is R ? name : nil }
  }

  /// Names the reactors recorded from now on without a name by `rule`.
  ///
  /// A reactor gets the name the rule returns for it, or none for `nil`. Rules are asked in
  /// the order given, the first name wins; a name given to ``record(_:name:parent:)`` comes
  /// before any rule.
  ///
  /// ```swift
  /// recorder.nameReactors { ($0 as? TaskCellReactor).map { "row \($0.initialState.task.id)" } }
  /// ```
  /// - Parameter rule: A reactor's name, or `nil`.
  public func nameReactors(_ rule: @escaping @MainActor (AnyObject) -> String?) {
    namingRules.append(rule)
  }

  /// Records `reactor` from now on, replacing any monitor it had.
  ///
  /// Record a reactor before its first action to see its whole run. A reactor already in
  /// this session keeps its id.
  /// - Parameters:
  ///   - reactor: The reactor.
  ///   - name: The name scripts address it by; without one, the first name a naming rule
  ///     gives (``name(_:_:)``, ``nameReactors(_:)``), if any.
  ///   - parent: The session id of the reactor that created it, if any.
  /// - Returns: Its id in the session, or `nil` once the recording stopped.
  @discardableResult
  public func record<R: Reactor>(_ reactor: R, name: String? = nil, parent: Int? = nil) -> Int? {
    if let id = reactor.runtime.sessionID, log.isLive(id) { return id }
    guard !log.isStopped else { return nil }
    // The options were checked when the recorder was made.
    guard
      var encoder = try? TraceEventEncoder<R.Action, R.Mutation, R.State>(
        redactions: options.redactions, snapshotInterval: options.snapshotInterval)
    else { return nil }
    // A state that is not Encodable is reflected, the reactors it holds as references.
    encoder.reflectsState = { ReactorStateReflection.json(of: $0) }
    let state = reactor.currentState
    let (initialState, hash) = encoder.start(from: state)
    let name = name ?? namingRules.lazy.compactMap { $0(reactor) }.first
    let id = log.nextReactorID()
    let lane: SessionLane<R>
    if let writer = log.writer, Self.queuesValues(of: R.self) {
      lane = SessionLane(
        id: id, reactor: reactor, log: log, encoder: encoder, initialState: state,
        initialStateLength: initialState.length, writer: writer)
    } else {
      lane = SessionLane(id: id, reactor: reactor, log: log, encoder: encoder)
    }
    let knownParent = parent.flatMap { log.isLive($0) ? $0 : nil }
    let typeName = String(reflecting: type(of: reactor))
    log.introduce(
      ReactorIntroduction(
        reactor: id, type: typeName, name: name,
        schema: TraceSchema(action: R.Action.self, mutation: R.Mutation.self, state: R.State.self),
        initialState: initialState, initialStateHash: hash, parent: knownParent,
        createdDuring: knownParent.flatMap { log.lastSequence(of: $0) }),
      control: lane.link)
    lane.laneRecord = log.lane(id)
    reactor.runtime.monitor = lane
    reactor.runtime.sessionID = id
    if let knownParent {
      checkInlineCopy(of: reactor, type: typeName, id: id, state: initialState, parent: knownParent)
    }
    return id
  }

  /// Whether a lane of `R` hands its actions and mutations to the writer thread to encode, as
  /// values, when the session has a writer: when its state is `Encodable` (so that it never
  /// needs ``ReactorStateReflection``, which runs on the main actor), as itself rather than
  /// through an optional's dynamic cast, and the action, mutation and state types are plain
  /// data, so that no queued value holds a reactor.
  static func queuesValues<Recorded: Reactor>(of _: Recorded.Type) -> Bool {
    Recorded.State.self is any Encodable.Type
      && !(Recorded.State.self is any ExpressibleByNilLiteral.Type)
      && ObjectFreeTypes.contains(Recorded.Action.self)
      && ObjectFreeTypes.contains(Recorded.Mutation.self)
      && ObjectFreeTypes.contains(Recorded.State.self)
  }

  /// Records a reactor whose pipeline starts, while the recorder is installed.
  public func reactorWillStart<R: Reactor>(_ reactor: R, createdBy parent: Int?) {
    guard reactor.runtime.monitor == nil, includes(reactor) else { return }
    record(reactor, parent: parent)
  }

  /// Sends a recorded action to the live reactor with session id `reactor`, decoding it as
  /// that reactor's action: how a session replay sends the user's actions again.
  /// - Parameters:
  ///   - action: The action's recorded value.
  ///   - reactor: The reactor's id in this session.
  /// - Throws: ``SessionSendError`` when the reactor is not alive or the value does not
  ///   decode.
  public func send(_ action: JSONValue, to reactor: Int) throws(SessionSendError) {
    guard let control = log.control(of: reactor) else { throw .notAlive(reactor) }
    try control.send(action)
  }

  /// Sends an action that comes from outside the app to a live reactor.
  ///
  /// It decodes it as that reactor's action: how a live recording that accepts control
  /// performs a command. The trace records it with `external` (issue 43).
  /// - Parameters:
  ///   - action: The action as JSON.
  ///   - reactor: The reactor's id in this session.
  ///   - external: Who sent it: `"page"` or `"client"`.
  /// - Throws: ``SessionSendError`` when the reactor is not alive or the value does not
  ///   decode.
  public func send(_ action: JSONValue, to reactor: Int, from external: String)
    throws(SessionSendError)
  {
    guard let control = log.control(of: reactor) else { throw .notAlive(reactor) }
    try control.send(action, external: external)
  }

  /// Sets a live reactor's state from outside the app to a recorded one: "jump to the state
  /// after event N" (``ReactorCore/Reactor/jump(to:event:from:)``).
  ///
  /// It decodes the state as that reactor's state: how a live recording that accepts control
  /// performs a jump. The session records a `jump` event with `external` (issue 43).
  /// - Parameters:
  ///   - reactor: The reactor's id in this session.
  ///   - state: The recorded state, as JSON.
  ///   - event: The `seq` of the event whose state it is.
  ///   - external: Who asked for it: `"page"` or `"client"`.
  /// - Throws: ``SessionSendError`` when the reactor is not alive or the state does not
  ///   decode.
  public func jump(
    reactor: Int, to state: JSONValue, event: Int, from external: String
  ) throws(SessionSendError) {
    guard let control = log.control(of: reactor) else { throw .notAlive(reactor) }
    try control.jump(to: state, event: event, external: external)
  }

  /// Sends `action` to the live reactor with session id `reactor`: how a test generated from
  /// a session (`reactor-trace generate-test`) sends the user's actions, addressing reactors
  /// by their ids as session replay does.
  ///
  /// ```swift
  /// try recorder.send(TaskEditReactor.Action.save, to: 2)
  /// ```
  /// - Parameters:
  ///   - action: A value of the reactor's `Action` type.
  ///   - reactor: The reactor's id in this session.
  /// - Throws: ``SessionSendError`` when the reactor is not alive or takes another type.
  public func send<Action>(_ action: Action, to reactor: Int) throws(SessionSendError) {
    guard let control = log.control(of: reactor) else { throw .notAlive(reactor) }
    try control.send(value: action)
  }

  /// The live reactors recorded with `name` (``record(_:name:parent:)``), oldest first: how
  /// a script finds the reactor a step addresses by name.
  /// - Parameter name: A name given when recording.
  /// - Returns: Their ids in this session; empty when no live reactor has the name.
  public func reactors(named name: String) -> [Int] {
    log.reactors(named: name)
  }

  /// The live reactors of the type `type`, oldest first: how a script finds the reactor a
  /// step addresses by type and order (`TaskEditReactor[-1]`).
  /// - Parameter type: The type as introductions record it (`ReactorExamples.TaskEditReactor`),
  ///   or without its module (`TaskEditReactor`).
  /// - Returns: Their ids in this session; empty when no live reactor has the type.
  public func reactors(ofType type: String) -> [Int] {
    log.reactors(ofType: type)
  }

  /// The live reactors the reactor with session id `parent` created (as their introductions
  /// record it), oldest first.
  /// - Parameter parent: A reactor's id in this session.
  /// - Returns: Their ids in this session.
  public func children(of parent: Int) -> [Int] {
    log.children(of: parent)
  }

  /// The names of the live reactors recorded with one, sorted.
  public var reactorNames: [String] { log.names }

  /// The state of the live reactor with session id `reactor` now, as its lane records it.
  ///
  /// It is JSON in which each reactor the state holds is a reference, `{"reactor": 3}`: how a
  /// script follows a path from a reactor to a child it holds.
  /// - Parameter reactor: The reactor's id in this session.
  /// - Returns: The state, or `nil` when the reactor is not alive or its state is recorded as
  ///   a description.
  public func recordedState(of reactor: Int) -> JSONValue? {
    log.control(of: reactor)?.recordedState
  }

  /// Whether the lane of the live reactor with session id `reactor` hands its actions and
  /// mutations to the writer thread to encode (`false` when it encodes them on the main
  /// actor, or the reactor is not alive).
  func queuesValues(of reactor: Int) -> Bool {
    log.control(of: reactor)?.isQueuingValues ?? false
  }

  /// The `Action` type of the live reactor with session id `reactor`, when it is
  /// `Decodable`: what a tool sending it actions decodes them as.
  /// - Parameter reactor: The reactor's id in this session.
  /// - Returns: The type, or `nil` when the reactor is not alive or its actions do not decode.
  public func actionType(of reactor: Int) -> (any Decodable.Type)? {
    log.control(of: reactor)?.actionType
  }

  /// The session so far: in memory, the header and every event, with the end line once
  /// stopped; as a flight recorder, the window now, closed by an end line; to a file, the
  /// header alone (the events are in the file: read it after ``flush()`` or ``close()``).
  public var session: SessionTrace {
    log.session
  }

  /// How many events the recorded reactors produced, kept or not.
  package var observedEventCount: Int { log.observedCount }

  /// How many events were dropped (by a live session's full queue), each run of them a gap.
  package var droppedEventCount: Int { log.droppedCount }

  /// The most bytes that were queued for a file's writer at once, as counted against
  /// ``TraceOptions/queueBudget`` (0 unless recording to a file).
  public var peakQueuedBytes: Int { log.writer?.peakQueuedBytes ?? 0 }

  /// Writes every event recorded so far to the file, without stopping.
  ///
  /// It waits until the writer has handed them to the operating system: after it returns, a
  /// crash of the app loses none of them. Nothing to do unless recording to a file.
  public func flush() async {
    await log.writer?.flush()
  }

  /// Stops recording (as ``stop()``) and, when recording to a file, waits until every line
  /// and the end line are written and the file is closed.
  /// - Throws: ``TraceRecordingError/writeFailed(path:reason:)`` if any write failed; the
  ///   file then holds the lines written before the failure.
  public func close() async throws(TraceRecordingError) {
    stop()
    if let failure = await log.writer?.close() { throw failure }
  }

  /// Holds a file's writer back from writing until ``releaseWriter()``: lets tests see what
  /// is queued and not yet on disk.
  func holdWriter() { log.writer?.hold() }

  /// Lets a held writer write again.
  func releaseWriter() { log.writer?.release() }

  /// Whether no effect of a live recorded reactor is running.
  public var isIdle: Bool { log.isIdle }

  /// Waits until no effect of a live recorded reactor is running.
  ///
  /// It returns at once when none is, and when recording stops.
  public func waitUntilIdle() async {
    await log.waitUntilIdle()
  }

  /// Stops recording.
  ///
  /// It uninstalls the recorder, detaches from every reactor and appends the end line.
  /// Later calls do nothing.
  public func stop() {
    uninstall()
    log.stop()
  }
}
