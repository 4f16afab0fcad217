import ReactorCore

/// The events of a session being recorded, numbered and timed across all its reactors and
/// kept where the ``SessionDestination`` says, and what the session knows of each reactor's
/// lane.
@MainActor
final class SessionLog {
  /// What the log knows of one reactor it records.
  ///
  /// A class, which the lane's monitor holds too: the monitor notes each event's `seq` in it
  /// directly, where a struct in the dictionary cost a lookup and an in-place modify per
  /// event.
  final class Lane {
    /// The lane's monitor, to detach it when the recording stops; weak, so that nothing the
    /// log holds keeps a reactor (or its monitor) alive.
    weak var control: (any SessionLaneControl)?
    /// The name the reactor was recorded with, which scripts address it by.
    let name: String?
    /// Its type as its introduction records it: `ReactorExamples.TaskEditReactor`.
    let type: String
    /// The reactor that created it, if recorded.
    let parent: Int?
    /// The `seq` of the reactor's last event.
    @exclusivity(unchecked) var lastSequence: Int
    /// Its effects started and not yet ended, by id.
    var running: [Int: TraceEvent.EffectStart] = [:]

    init(
      control: any SessionLaneControl, name: String?, type: String, parent: Int?,
      lastSequence: Int
    ) {
      self.control = control
      self.name = name
      self.type = type
      self.parent = parent
      self.lastSequence = lastSequence
    }
  }

  let header: SessionHeader
  /// The events' lines, newlines included, when recording in memory: about a tenth of the
  /// memory the events take as values; ``session`` reads them back.
  private var memoryLines: [UInt8] = []
  /// The file's writer, when recording to a file.
  let writer: SessionFileWriter?
  /// The window, when recording as a flight recorder.
  @exclusivity(unchecked) private(set) var window: SessionWindow?
  /// The end line, once stopped.
  private(set) var endEvent: SessionEvent?
  /// Reused to serialize each event for the file or to count it for the window.
  private var line = LineWriter()
  private(set) var lanes: [Int: Lane] = [:]
  private(set) var lastReactorID = 0
  // Read or written for every event, on the main actor only, each access instantaneous: no
  // dynamic exclusivity checks.
  @exclusivity(unchecked) private(set) var isStopped = false
  @exclusivity(unchecked) private var stamper: EventStamper
  /// Events the writer turned down since the last gap line (a live session's full queue).
  @exclusivity(unchecked) private var unreportedDrops = 0
  /// Whether every event of a live reactor is admitted, no gap line owed.
  ///
  /// True while the log runs and its writer, if any, never drops: ``admitsEvent()`` and
  /// ``stamp()`` then ask nothing else.
  @exclusivity(unchecked) private var admitsAll = false
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []

  /// A log keeping its events where `destination` says.
  /// - Throws: ``TraceRecordingError`` when the file cannot be created or an option does not
  ///   fit the destination.
  init(
    header: SessionHeader, options: TraceOptions, destination: SessionDestination
  ) throws(TraceRecordingError) {
    self.header = header
    switch destination {
    case .memory:
      writer = nil
    case .file(let path):
      writer = try SessionFileWriter(path: path, header: header, options: options)
    case .window(let bounds):
      guard bounds.events >= 1, bounds.bytes >= 1 else {
        throw .invalidOption("a flight window must keep at least 1 event and 1 byte")
      }
      if let duration = bounds.duration, duration <= .zero {
        throw .invalidOption("a flight window's duration must be positive")
      }
      guard case .unlimited = options.limit else {
        throw .invalidOption("a flight window takes no limit: its bounds say what it keeps")
      }
      writer = nil
      window = SessionWindow(bounds: bounds)
    }
    stamper = EventStamper(limit: options.limit, clock: options.clock)
    admitsAll = !(writer?.drops ?? false)
  }

  /// A log handing its lines to `writer` (a live session's, which writes to its stream).
  init(header: SessionHeader, options: TraceOptions, writer: SessionFileWriter) {
    self.header = header
    self.writer = writer
    stamper = EventStamper(limit: options.limit, clock: options.clock)
    admitsAll = !writer.drops
  }

  /// How many events the recorded reactors produced, kept or not.
  var observedCount: Int { stamper.observedCount }

  /// How many events a limit or a full queue dropped.
  var droppedCount: Int { stamper.droppedCount }

  /// The bytes of memory a kept event is counted at per byte of its line, against a flight
  /// window's ``FlightWindow/bytes``.
  static let memoryPerLineByte = 4

  /// Keeps an event where the destination says.
  private func store(_ event: SessionEvent) {
    line.bytes.removeAll(keepingCapacity: true)
    event.write(to: &line)
    line.endLine()
    if let writer {
      writer.append(line.bytes)
    } else if window != nil {
      window?.append(event, bytes: Self.memoryPerLineByte * line.bytes.count)
    } else {
      memoryLines.append(contentsOf: line.bytes)
    }
  }

  /// Whether a lane hands its actions and mutations over as lines, in memory and to a file.
  ///
  /// A flight window keeps events instead, to apply those it evicts.
  var storesLines: Bool { window == nil }

  /// Appends the line of a lane's event stamped by ``stamp()``, newline included, and notes
  /// its `seq` in the lane.
  func append(line bytes: [UInt8], of lane: Lane?, sequence: Int) {
    if let writer {
      writer.append(bytes)
    } else {
      memoryLines.append(contentsOf: bytes)
    }
    lane?.lastSequence = sequence
  }

  /// What the log knows of the live reactor `reactor`: its lane's monitor keeps it.
  func lane(_ reactor: Int) -> Lane? {
    lanes[reactor]
  }

  /// The session so far: in memory, every event, read back from its lines; as a flight
  /// window, the window (closed by an end line as if it stopped now, while it records); to a
  /// file, the header alone, since the events are in the file.
  var session: SessionTrace {
    if let window {
      return window.session(header: header, end: endEvent ?? makeEnd(numbering: false))
    }
    guard !memoryLines.isEmpty else { return SessionTrace(header: header, events: []) }
    var bytes = header.serializedLine
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: memoryLines)
    do {
      let reader = try SessionReader(
        bytes: bytes, name: "the recorded session", verifyingStates: false,
        maximumLineLength: Int.max)
      var events: [SessionEvent] = []
      while let event = try reader.next() { events.append(event) }
      return SessionTrace(header: header, events: events)
    } catch {
      // The lines are this log's own, written by the session format's writer.
      preconditionFailure("a session recorded in memory does not read back: \(error)")
    }
  }

  /// A new reactor id.
  func nextReactorID() -> Int {
    lastReactorID += 1
    return lastReactorID
  }

  /// Whether a live reactor's next event is kept.
  ///
  /// Not when the recording stopped, nor when a writer that drops has no room for it: then
  /// it counts as dropped, and the next event kept is preceded by a gap line saying how many
  /// were. Asked before encoding the event, so that a dropped mutation leaves the encoder's
  /// last state the last one recorded.
  @inline(__always)
  func admitsEvent() -> Bool {
    if admitsAll { return true }
    guard !isStopped else { return false }
    guard let writer, writer.drops else { return true }
    return writerAdmitsEvent(writer)
  }

  /// ``admitsEvent()`` of a running log whose writer drops: asks it.
  @inline(never)
  private func writerAdmitsEvent(_ writer: SessionFileWriter) -> Bool {
    guard !writer.admitsEvent() else { return true }
    stamper.skip()
    unreportedDrops += 1
    return false
  }

  /// The `seq` and time of the next event of a live reactor, or `nil` when the recording
  /// stopped or a limit drops it.
  ///
  /// A gap line for the events dropped since the last one is queued first.
  @inline(__always)
  func stamp() -> (sequence: Int, time: Duration)? {
    if admitsAll { return stamper.next() }
    guard !isStopped else { return nil }
    if unreportedDrops > 0 { reportDrops() }
    return stamper.next()
  }

  /// Queues the gap line for the events dropped since the last one.
  @inline(never)
  private func reportDrops() {
    let dropped = unreportedDrops
    let gap = stamper.gap(dropped: dropped)
    unreportedDrops = 0
    store(
      SessionEvent(
        sequence: gap.sequence, time: gap.time,
        kind: .gap(TraceEvent.Gap(droppedEvents: dropped))))
  }

  /// Appends an event stamped by ``stamp()``.
  func append(_ event: SessionEvent) {
    store(event)
    guard let reactor = event.reactor, let lane = lanes[reactor] else { return }
    lane.lastSequence = event.sequence
    guard case .reactor(_, let kind) = event.kind else { return }
    switch kind {
    case .effectStarted(let start):
      lane.running[start.effect] = start
    case .effectEnded(let end):
      lane.running[end.effect] = nil
      if isIdle { resumeIdleWaiters() }
    default:
      break
    }
  }

  /// Introduces a reactor; its lane starts.
  func introduce(
    _ introduction: ReactorIntroduction, control: any SessionLaneControl
  ) {
    guard let (sequence, time) = stamp() else { return }
    lanes[introduction.reactor] = Lane(
      control: control, name: introduction.name, type: introduction.type,
      parent: introduction.parent, lastSequence: sequence)
    store(SessionEvent(sequence: sequence, time: time, kind: .introduced(introduction)))
  }

  /// Ends the lane of a released reactor.
  func release(_ reactor: Int) {
    guard lanes.removeValue(forKey: reactor) != nil else { return }
    if isIdle { resumeIdleWaiters() }
    guard let (sequence, time) = stamp() else { return }
    store(SessionEvent(sequence: sequence, time: time, kind: .released(reactor: reactor)))
  }

  /// The monitor of a live reactor.
  func control(of reactor: Int) -> (any SessionLaneControl)? {
    lanes[reactor]?.control
  }

  /// The live reactors recorded with `name`, oldest first.
  func reactors(named name: String) -> [Int] {
    lanes.filter { $0.value.name == name }.map(\.key).sorted()
  }

  /// The live reactors of the type `type`, module-qualified or not (`TaskEditReactor`), oldest
  /// first.
  func reactors(ofType type: String) -> [Int] {
    lanes.filter { _, lane in
      lane.type == type
        || (!type.contains(".") && ReactorIntroduction.shortTypeName(lane.type) == type)
    }.map(\.key).sorted()
  }

  /// The live reactors whose recorded creator is `parent`, oldest first.
  func children(of parent: Int) -> [Int] {
    lanes.filter { $0.value.parent == parent }.map(\.key).sorted()
  }

  /// The names of the live reactors recorded with one, sorted, each once.
  var names: [String] {
    Set(lanes.values.compactMap(\.name)).sorted()
  }

  /// `activity` as the origin of an event, when it names a live reactor of this session:
  /// only such origins are recorded.
  func origin(_ activity: ReactorActivity) -> TraceEvent.ReactorOrigin? {
    guard isLive(activity.reactor) else { return nil }
    return TraceEvent.ReactorOrigin(
      reactor: activity.reactor, action: activity.action,
      effect: activity.action == nil ? nil : activity.effect)
  }

  /// Whether `origin` names a live reactor of this session: only such origins are recorded.
  func isLive(_ reactor: Int) -> Bool {
    lanes[reactor] != nil
  }

  /// The `seq` of the last event of a live reactor.
  func lastSequence(of reactor: Int) -> Int? {
    lanes[reactor]?.lastSequence
  }

  /// Whether no effect of any live reactor is running.
  var isIdle: Bool { lanes.values.allSatisfy(\.running.isEmpty) }

  /// Returns once no effect is running (at once when none is), or when recording stops.
  func waitUntilIdle() async {
    guard !isStopped, !isIdle else { return }
    await withCheckedContinuation { idleWaiters.append($0) }
  }

  /// Detaches every lane and appends the end line, listing the effects still running.
  func stop() {
    guard !isStopped else { return }
    if unreportedDrops > 0 { reportDrops() }
    let end = makeEnd(numbering: true)
    // Stopped first: a lane detached here may be released at once, and is then no event.
    isStopped = true
    admitsAll = false
    for lane in lanes.values { lane.control?.detach() }
    endEvent = end
    if window == nil { store(end) }
    resumeIdleWaiters()
  }

  /// The end line, listing the effects of live reactors still running; `numbering` takes its
  /// `seq` for good, else it is the end line the session would get if it stopped now.
  private func makeEnd(numbering: Bool) -> SessionEvent {
    let running = lanes.sorted { $0.key < $1.key }.flatMap { reactor, lane in
      lane.running.values.sorted { $0.effect < $1.effect }.map {
        SessionEvent.RunningEffect(reactor: reactor, start: $0)
      }
    }
    let end = numbering ? stamper.end(running: []) : stamper.peekEnd(running: [])
    guard case .end(let observed, let dropped, _) = end.kind else {
      preconditionFailure("the stamper's end event is an end")
    }
    return SessionEvent(
      sequence: end.sequence, time: end.time,
      kind: .end(
        SessionEvent.End(
          observedEvents: observed, droppedEvents: dropped, runningEffects: running)))
  }

  private func resumeIdleWaiters() {
    let waiters = idleWaiters
    idleWaiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }
}

/// A lane's monitor, as the log detaches it and a replay drives its reactor.
@MainActor
protocol SessionLaneControl: AnyObject {
  /// Stops recording the reactor: the monitor leaves its runtime.
  func detach()
  /// Decodes a recorded action and sends it to the reactor.
  /// - Throws: ``SessionSendError`` when the reactor is gone or the value does not decode.
  func send(_ action: JSONValue) throws(SessionSendError)
  /// Decodes an action sent from outside the app (`external`: `page` or `client`) and
  /// sends it to the reactor with that origin.
  /// - Throws: ``SessionSendError`` when the reactor is gone or the value does not decode.
  func send(_ action: JSONValue, external: String) throws(SessionSendError)
  /// Sends an action value, which must be of the reactor's `Action` type.
  /// - Throws: ``SessionSendError`` when the reactor is gone or the value is of another type.
  func send(value action: Any) throws(SessionSendError)
  /// Decodes a recorded state and makes it the reactor's (``ReactorCore/Reactor/jump(to:event:from:)``).
  /// - Throws: ``SessionSendError`` when the reactor is gone or the state does not decode.
  func jump(to state: JSONValue, event: Int, external: String) throws(SessionSendError)
  /// The reactor's state now, as its lane records it (JSON, the reactors it holds as
  /// references), or `nil` when the reactor is gone or its state is stored as a description.
  var recordedState: JSONValue? { get }
  /// The reactor's `Action` type, when it is `Decodable`.
  var actionType: (any Decodable.Type)? { get }
  /// Whether the writer thread encodes the lane's actions and mutations
  /// (``SessionLaneQueue``).
  var isQueuingValues: Bool { get }
}
