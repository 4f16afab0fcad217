public import ReactorCore
import ReactorSchema

/// Records many reactors into one session, in memory: each reactor's lane, and the causes
/// that cross from one reactor to another.
///
/// Record a whole app with one line at start-up: every reactor whose pipeline starts from
/// then on is recorded, children with their parent.
///
/// ```swift
/// let recorder = try SessionRecorder.recordingEveryReactor()
/// // … the app runs …
/// await recorder.waitUntilIdle()
/// recorder.stop()
/// try recorder.session.write(to: "app.session.jsonl")
/// ```
///
/// Or choose reactors by hand, with names scripts address them by:
///
/// ```swift
/// let recorder = try SessionRecorder()
/// recorder.record(list, name: "list")
/// recorder.record(edit, name: "edit")
/// ```
///
/// Each event is encoded on the main actor as it happens, so the recorder keeps no action,
/// mutation or state value, and nothing it holds keeps a reactor alive: a reactor released
/// during the run ends its lane with a `release` event. Recording a reactor sets its
/// runtime's ``ReactorCore/ReactorRuntime/sessionID``, so that its runtime tracks what runs
/// (``ReactorCore/ReactorActivity``) and actions and stream elements it causes in other
/// reactors are recorded with their origin.
@MainActor
public final class SessionRecorder: ReactorSessionObserver {
  private let log: SessionLog
  private let options: TraceOptions
  /// Which reactors ``reactorWillStart(_:createdBy:)`` records.
  private var includes: @MainActor (AnyObject) -> Bool = { _ in true }

  /// Starts a session recording no reactor yet.
  /// - Parameter options: Metadata, redaction, a first-events limit, snapshot interval and
  ///   clock; a rolling window and flush options do not apply.
  /// - Throws: ``TraceRecordingError`` for an invalid option.
  public init(options: TraceOptions = TraceOptions()) throws(TraceRecordingError) {
    if case .lastEvents = options.limit {
      throw .invalidOption("a session recorder keeps no rolling window of the last events")
    }
    // Checks the redactions and the snapshot interval once, before any reactor.
    _ = try TraceEventEncoder<Never, Never, Never>(
      redactions: options.redactions, snapshotInterval: options.snapshotInterval)
    let clock = options.clock
    let isRealTime = clock is ContinuousClock || clock is SuspendingClock
    log = SessionLog(
      header: SessionHeader(
        recorder: recorderIdentifier,
        clock: TraceHeader.Clock(
          name: String(describing: type(of: clock)),
          origin: isRealTime ? WallClock.nowISO8601() : nil),
        metadata: options.metadata, redactions: options.redactions.map(\.pattern)),
      options: options)
    self.options = options
  }

  /// Starts a session that records every reactor whose pipeline starts from now on, until
  /// ``stop()``: the one line that records a whole app.
  /// - Parameters:
  ///   - options: As for ``init(options:)``.
  ///   - including: Which reactors to record (all by default): a reactor it turns down is
  ///     not in the session, and neither is what it causes in others.
  /// - Returns: The recorder; keep it, since it is installed weakly.
  /// - Throws: ``TraceRecordingError`` for an invalid option.
  public static func recordingEveryReactor(
    options: TraceOptions = TraceOptions(),
    including: @escaping @MainActor (AnyObject) -> Bool = { _ in true }
  ) throws(TraceRecordingError) -> SessionRecorder {
    let recorder = try SessionRecorder(options: options)
    recorder.includes = including
    recorder.install()
    return recorder
  }

  /// Records `reactor` from now on, replacing any monitor it had.
  ///
  /// Record a reactor before its first action to see its whole run. A reactor already in
  /// this session keeps its id.
  /// - Parameters:
  ///   - reactor: The reactor.
  ///   - name: The name scripts address it by.
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
    let (initialState, hash) = encoder.start(from: reactor.currentState)
    let id = log.nextReactorID()
    let lane = SessionLane(id: id, reactor: reactor, log: log, encoder: encoder)
    let knownParent = parent.flatMap { log.isLive($0) ? $0 : nil }
    log.introduce(
      ReactorIntroduction(
        reactor: id, type: String(reflecting: R.self), name: name,
        schema: TraceSchema(action: R.Action.self, mutation: R.Mutation.self, state: R.State.self),
        initialState: initialState, initialStateHash: hash, parent: knownParent,
        createdDuring: knownParent.flatMap { log.lastSequence(of: $0) }),
      control: lane)
    reactor.runtime.monitor = lane
    reactor.runtime.sessionID = id
    return id
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

  /// The session so far: header and events, with the end line once stopped.
  public var session: SessionTrace {
    SessionTrace(header: log.header, events: log.events)
  }

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
