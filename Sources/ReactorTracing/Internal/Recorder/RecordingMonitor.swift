package import ReactorCore

/// The monitor a recorder attaches to a reactor.
///
/// It stamps each call and stores it, in memory or in a file writer's queue. This is all the work recording adds on the reactor's actor.
@MainActor
package final class RecordingMonitor<Action: Sendable, Mutation: Sendable, State: Sendable>:
  ReactorMonitor
{
  // Touched for every event, on the main actor only, each access instantaneous: no dynamic
  // exclusivity checks needed.
  // The properties read for every event come first: those after the first property of a
  // generic type (the writer's, the window's) are found through the type's metadata at every
  // access.
  @exclusivity(unchecked) private var stamper: EventStamper
  @exclusivity(unchecked) private(set) var isStopped = false
  /// Events the writer's full queue refused since the last gap event was queued.
  @exclusivity(unchecked) private var unreportedDrops = 0
  /// `writer`, as the hot path calls it, without a retain.
  ///
  /// The `let` below is retained at every call, an `unowned(unsafe)` copy at every unwrap;
  /// `writer` keeps it alive.
  private let unretainedWriter: Unmanaged<TraceFileWriter<Action, Mutation, State>>?
  /// Where events go to a file or stream.
  private let writer: TraceFileWriter<Action, Mutation, State>?
  /// Where events go in memory; `nil` when a writer takes them.
  private(set) var window: EventWindow<Action, Mutation, State>?
  /// The effects started and not yet ended, by id: the end line lists them.
  private var runningEffects: [Int: TraceEvent.EffectStart] = [:]
  /// Who waits in ``waitUntilIdle()`` for the running effects to end.
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Whether effect starts record their `id` and `cancelInFlight` (format 1.3).
  private let recordsEffectIDs: Bool

  init(options: TraceOptions, initialState: State) {
    stamper = EventStamper(limit: options.limit, clock: options.clock)
    recordsEffectIDs = options.recordsEffectIDs || options.recordsJumps
    let capacity: Int
    if case .lastEvents(let count) = options.limit { capacity = count } else { capacity = .max }
    window = EventWindow(capacity: capacity, initialState: initialState)
    writer = nil
    unretainedWriter = nil
  }

  init(options: TraceOptions, window: EventWindow<Action, Mutation, State>) {
    stamper = EventStamper(limit: options.limit, clock: options.clock)
    recordsEffectIDs = options.recordsEffectIDs || options.recordsJumps
    self.window = window
    writer = nil
    unretainedWriter = nil
  }

  package init(options: TraceOptions, writer: TraceFileWriter<Action, Mutation, State>) {
    stamper = EventStamper(limit: options.limit, clock: options.clock)
    recordsEffectIDs = options.recordsEffectIDs || options.recordsJumps
    window = nil
    self.writer = writer
    unretainedWriter = Unmanaged.passUnretained(writer)
  }

  /// The id the reactor's runtime names it by in ``ReactorActivity``
  /// (``ReactorRuntime/activityID``), once attached.
  private var reactorID: Int?

  /// Becomes the monitor of `runtime`, replacing any other, and makes the runtime track its
  /// own activity, so that stream elements the reactor publishes itself are told apart.
  package func attach(to runtime: ReactorRuntime<Action, Mutation, State>) {
    runtime.tracksOwnActivity = true
    reactorID = runtime.activityID
    runtime.monitor = self
  }

  /// Stops being the monitor of `runtime`, if it still is, and turns its tracking off.
  package func detach(from runtime: ReactorRuntime<Action, Mutation, State>) {
    guard runtime.monitor === self else { return }
    runtime.monitor = nil
    runtime.tracksOwnActivity = false
  }

  package var observedCount: Int { stamper.observedCount }
  package var droppedCount: Int { stamper.droppedCount }

  /// The end event `stop()` would store now, without stopping.
  func snapshotEnd() -> CapturedEvent {
    stamper.peekEnd(running: runningInOrder)
  }

  /// The effects still running, in the order they started, as the end line lists them.
  private var runningInOrder: [TraceEvent.EffectStart] {
    runningEffects.values.sorted { $0.effect < $1.effect }
  }

  /// Stops recording and stores the end event; later events are ignored.
  /// - Returns: `false` if it was already stopped.
  package func stop() -> Bool {
    guard !isStopped else { return false }
    isStopped = true
    let running = runningInOrder
    resumeIdleWaiters()
    if let writer {
      if unreportedDrops > 0 {
        _ = writer.append(stamper.gap(dropped: unreportedDrops), waits: true)
        unreportedDrops = 0
      }
      _ = writer.append(stamper.end(running: running), waits: true)
      return true
    }
    window?.append(StampedEvent(stamper.end(running: running)))
    return true
  }

  // Each call hands the writer a `CapturedEvent` and the values, which are not generic
  // containers of them: see `CapturedEvent`.

  package func reactorDidReceive(action: Action, id: Int, origin: Origin) {
    guard !isStopped, reportsDrops(), let (sequence, time) = stamper.next() else { return }
    if let unretainedWriter {
      if !Self.append(
        action, id: id, origin: origin, sequence: sequence, time: time, to: unretainedWriter)
      {
        didDrop()
      }
    } else {
      keep(action: action, id: id, origin: origin, sequence: sequence, time: time)
    }
  }

  // The writer called through an unretained reference, from code that is not isolated to
  // the main actor (a closure formed in isolated code checks the executor when called). The
  // event is made in the argument, so that it is moved into the queue, never copied.

  @inline(__always)
  nonisolated private static func append(
    _ action: Action, id: Int, origin: Origin, sequence: Int, time: Duration,
    to writer: Unmanaged<TraceFileWriter<Action, Mutation, State>>
  ) -> Bool {
    writer._withUnsafeGuaranteedRef {
      $0.append(
        CapturedEvent(sequence: sequence, time: time, kind: .action(id: id, origin: origin)),
        action: action)
    }
  }

  @inline(__always)
  nonisolated private static func append(
    _ mutation: Mutation, id: Int, origin: Origin, state: State,
    publisher: TraceEvent.Publisher?, sequence: Int, time: Duration,
    to writer: Unmanaged<TraceFileWriter<Action, Mutation, State>>
  ) -> Bool {
    writer._withUnsafeGuaranteedRef {
      $0.append(
        CapturedEvent(
          sequence: sequence, time: time,
          kind: .mutation(id: id, origin: origin, publisher: publisher)),
        mutation: mutation, state: state)
    }
  }

  // The in-memory paths are out of line: the generic `StampedEvent` they build needs its type
  // metadata looked up, which the file path, inlined, would pay for every event too.

  @inline(never)
  private func keep(action: Action, id: Int, origin: Origin, sequence: Int, time: Duration) {
    window?.append(
      StampedEvent(sequence: sequence, time: time, event: .action(action, id: id, origin: origin))
    )
  }

  @inline(never)
  private func keep(
    mutation: Mutation, id: Int, origin: Origin, state: State,
    publisher: TraceEvent.Publisher?, sequence: Int, time: Duration
  ) {
    window?.append(
      StampedEvent(
        sequence: sequence, time: time,
        event: .mutation(mutation, id: id, origin: origin, state: state, publisher: publisher)))
  }

  /// How many effects are running now.
  var runningEffectCount: Int { runningEffects.count }

  /// Returns once no effect is running (at once when none is), or when recording stops.
  package func waitUntilIdle() async {
    guard !isStopped, !runningEffects.isEmpty else { return }
    await withCheckedContinuation { idleWaiters.append($0) }
  }

  private func resumeIdleWaiters() {
    let waiters = idleWaiters
    idleWaiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }

  package func reactorDidStartEffect(_ effect: Int, action: Int, name: String?) {
    reactorDidStartEffect(effect, action: action, name: name, id: nil, cancelsInFlight: false)
  }

  package func reactorDidStartEffect(
    _ effect: Int, action: Int, name: String?, id: AnyHashable?, cancelsInFlight: Bool
  ) {
    let running = TraceEvent.EffectStart(effect: effect, action: action, name: name)
    if !isStopped { runningEffects[effect] = running }
    guard recordsEffectIDs else {
      record(.effectStarted(running))
      return
    }
    record(
      .effectStarted(
        TraceEvent.EffectStart(
          effect: effect, action: action, name: name,
          cancelID: id.map { String(describing: $0.base) }, cancelsInFlight: cancelsInFlight)))
  }

  package func reactorDidEndEffect(_ effect: Int, outcome: EffectOutcome) {
    record(.effectEnded(effect, outcome))
    if runningEffects.removeValue(forKey: effect) != nil, runningEffects.isEmpty {
      resumeIdleWaiters()
    }
  }

  package func reactorDidReduce(mutation: Mutation, id: Int, origin: Origin, state: State) {
    record(mutation: mutation, id: id, origin: origin, state: state, publisher: nil)
  }

  /// A mutation of a runtime that tracks its activity (``ReactorRuntime/tracksOwnActivity``):
  /// a stream element that this reactor's own action published (`from` names
  /// ``reactorID``) is recorded with that action and effect as its publisher.
  package func reactorDidReduce(
    mutation: Mutation, id: Int, origin: Origin, state: State, from: ReactorActivity?
  ) {
    var publisher: TraceEvent.Publisher?
    if case .stream = origin, let from, from.reactor == reactorID, let action = from.action {
      publisher = TraceEvent.Publisher(action: action, effect: from.effect)
    }
    record(mutation: mutation, id: id, origin: origin, state: state, publisher: publisher)
  }

  private func record(
    mutation: Mutation, id: Int, origin: Origin, state: State, publisher: TraceEvent.Publisher?
  ) {
    guard !isStopped, reportsDrops(), let (sequence, time) = stamper.next() else { return }
    if let unretainedWriter {
      if !Self.append(
        mutation, id: id, origin: origin, state: state, publisher: publisher,
        sequence: sequence, time: time, to: unretainedWriter)
      {
        didDrop()
      }
    } else {
      keep(
        mutation: mutation, id: id, origin: origin, state: state, publisher: publisher,
        sequence: sequence, time: time)
    }
  }

  package func reactorDidJump(to state: State, event: Int, from source: String) {
    record(.jump(state: JumpedState(state), target: event, external: source))
  }

  package func reactorStreamDidEnd(_ name: String, error: String?) {
    record(.streamEnded(name, error: error))
  }

  /// Records an event without payloads.
  private func record(_ kind: CapturedEvent.Kind) {
    guard !isStopped, reportsDrops(), let (sequence, time) = stamper.next() else { return }
    let event = CapturedEvent(sequence: sequence, time: time, kind: kind)
    if let writer {
      if !writer.append(event) { didDrop() }
    } else {
      window?.append(StampedEvent(event))
    }
  }

  /// Before an event, queues the gap event for the events dropped since the last one; returns
  /// `false`, counting the event dropped too, when the queue has no room for the gap either.
  @inline(__always)
  private func reportsDrops() -> Bool {
    guard unreportedDrops > 0 else { return true }
    return queueGap()
  }

  @inline(never)
  private func queueGap() -> Bool {
    guard let writer else { return true }
    if writer.append(stamper.gap(dropped: unreportedDrops)) {
      unreportedDrops = 0
      return true
    }
    stamper.retractGap()
    stamper.skip()
    unreportedDrops += 1
    return false
  }

  /// Counts an event the writer's full queue refused.
  @inline(never)
  private func didDrop() {
    stamper.retract()
    unreportedDrops += 1
  }
}
