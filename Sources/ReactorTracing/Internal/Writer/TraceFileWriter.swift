import Foundation
import ReactorSchema

/// Encodes and writes a recording on its own thread, so the reactor's actor never waits for
/// encoding or the disk.
///
/// The reactor's actor only appends captured events to `pending`. The writer thread wakes
/// when `flushThreshold` events are pending or `flushInterval` has passed, takes them all,
/// encodes them and writes them with one `write` call per ``chunkSize`` bytes; the events of
/// each piece written leave the queue at once, making room for the reactor's next ones. A
/// crash loses at most what was queued: pending, or taken and not yet written. With a rolling window, each flush instead rewrites the whole window
/// atomically, so the file is always a complete trace.
///
/// What is queued, pending or taken but not yet written, is bounded by a byte budget
/// (``TraceOptions/queueBudget``, estimated per event as `admit(_:)` says). An event that
/// does not fit makes the reactor's actor wait for the writer (``TraceOverflowPolicy/wait``)
/// or is refused, and the monitor records a gap (``TraceOverflowPolicy/drop``). With the
/// wait policy, at most `flushThreshold` events are queued too, so that a crash loses at most
/// those (or what came in the last `flushInterval`, when fewer).
///
/// How the reactor's actor and the thread hand over requests (flush, close, hold) is shared
/// with the session writer (``WriterHandshake``).
///
/// `@unchecked Sendable`: everything the reactor's actor and the thread share is guarded by
/// `condition`, the handshake's lock; the rest belongs to the thread alone once it starts.
package final class TraceFileWriter<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  typealias Event = StampedEvent<Action, Mutation, State>

  let path: String
  /// The most encoded bytes held before they are written (``WriterHandshake/chunkSize``).
  private static var chunkSize: Int { WriterHandshake.chunkSize }
  /// The bytes of memory a queued state is estimated to take per byte of its canonical JSON
  /// (``WriterHandshake/memoryPerStateByte``).
  private static var memoryPerByte: Int { WriterHandshake.memoryPerStateByte }
  private let flushThreshold: Int
  private let flushInterval: TimeInterval

  private let handshake = WriterHandshake()
  /// The handshake's lock, held here too so that the hot path reaches it in one load.
  private let condition: WriterLock
  /// The states the thread has yet to hash, which the reactor's actor hashes while it waits
  /// for room.
  private let hashJobs: StateHashJobs

  // Guarded by `condition`. The lock already keeps accesses from overlapping, and each is
  // instantaneous: no dynamic exclusivity checks needed on the hot path.
  @exclusivity(unchecked) private var pending: [CapturedEvent] = []
  // `let`, their contents swapped with the writer's (a `var` would be retained at every
  // append).
  private let pendingActions: PayloadBuffer<Action>
  private let pendingMutations: PayloadBuffer<Mutation>
  private let pendingStates: PayloadBuffer<State>
  /// Bytes queued: appended and not yet written.
  @exclusivity(unchecked) private var queuedBytes = 0
  /// Bytes appended to `pending` since the writer last took it.
  @exclusivity(unchecked) private var pendingBytes = 0
  /// Events queued: appended and not yet written.
  @exclusivity(unchecked) private var queuedEvents = 0
  /// With the wait policy, the most events queued: what a crash may lose.
  private let eventCap: Int
  /// The most bytes ever queued.
  private var peakBytes = 0
  /// The estimated memory of a queued state.
  ///
  /// Six times the length of the canonical JSON of the last state the writer took, less
  /// what that state shared with the one before it (``QueuedStateMemory``): set when the
  /// writer has measured a batch it took. A batch's states leave the queue at the estimate
  /// in force when it was taken; whatever they were counted at leaves with the batch's end.
  @exclusivity(unchecked) private var stateBytes: Int
  /// Whether the reactor's actor waits for room.
  private var isSenderWaiting = false
  /// Whether the drop policy refuses events until the queue is half empty.
  @exclusivity(unchecked) private var isDropping = false

  private let budget: Int
  private let policy: TraceOverflowPolicy
  // An event's fixed size counts twice: the buffers it is queued in grow by doubling, and
  // are swapped with the ones the writer is emptying.
  private let eventCost = 2 * MemoryLayout<CapturedEvent>.stride
  private let actionCost = 2 * (MemoryLayout<CapturedEvent>.stride + MemoryLayout<Action>.stride)
  private let mutationCost =
    2
    * (MemoryLayout<CapturedEvent>.stride + MemoryLayout<Mutation>.stride
      + MemoryLayout<State>.stride)

  // The writer thread's alone.
  private var encoder: TraceEventEncoder<Action, Mutation, State>
  private let header: TraceHeader
  private var window: EventWindow<Action, Mutation, State>?
  private var file: POSIXFile?
  /// Where the lines go instead of a file: a live recorder's stream.
  private let sink: (any TraceLineSink)?
  private var line = LineWriter()
  private var hasFailed = false
  /// The last state the thread took, which the next batch's first state is measured against.
  private var lastTakenState: State?
  /// What the last state taken holds of its own, in bytes of its canonical JSON
  /// (``QueuedStateMemory``); `nil` when not measured.
  private var ownStateByteCount: Int?

  init(
    path: String, header: TraceHeader, encoder: TraceEventEncoder<Action, Mutation, State>,
    initialState: State, options: TraceOptions
  ) throws(TraceRecordingError) {
    try Self.checkPlainData(reactor: header.reactor)
    guard options.flushThreshold >= 1 else {
      throw .invalidOption("flushThreshold must be at least 1")
    }
    guard options.queueBudget >= 1 else {
      throw .invalidOption("queueBudget must be at least 1 byte, not \(options.queueBudget)")
    }
    condition = handshake.condition
    hashJobs = StateHashJobs(lock: handshake.condition)
    budget = options.queueBudget
    policy = options.overflow
    eventCap = options.overflow == .wait ? options.flushThreshold : .max
    stateBytes = Self.memoryPerByte * header.initialState.length
    self.path = path
    self.header = header
    pendingActions = PayloadBuffer(capacity: options.flushThreshold)
    pendingMutations = PayloadBuffer(capacity: options.flushThreshold)
    pendingStates = PayloadBuffer(capacity: options.flushThreshold)
    self.encoder = encoder
    self.flushThreshold = options.flushThreshold
    let (seconds, attoseconds) = options.flushInterval.components
    self.flushInterval = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
    if case .lastEvents(let capacity) = options.limit {
      guard capacity >= 1 else { throw .invalidOption("lastEvents needs at least 1 event") }
      window = EventWindow(capacity: capacity, initialState: initialState)
      // Fail now, not on the first flush, if the file cannot be written.
      do {
        try AtomicFile.write(header.serializedLine + [UInt8(ascii: "\n")], to: path)
      } catch {
        throw .cannotCreate(path: path, reason: error.description)
      }
    } else {
      guard let file = POSIXFile(truncating: path) else {
        throw .cannotCreate(path: path, reason: POSIXFile.message(POSIXFile.errorCode))
      }
      self.file = consume file
    }
    sink = nil
    pending.reserveCapacity(flushThreshold)
    RecorderThread.start(named: "trace writer") { [self] in run() }
  }

  /// A writer that hands its lines (the header's, then the events') to `sink` instead of a
  /// file: the same queue, thread and encoding as a file recording, for a live recorder.
  /// - Parameters:
  ///   - sink: Where the encoded lines go, from the writer's thread.
  ///   - name: What the writer's failures call the destination.
  ///   - header: The recording's header, the first line.
  ///   - encoder: Encodes the events' actions, mutations and states.
  ///   - options: The recording's options; a live recording takes no limit.
  /// - Throws: ``TraceRecordingError/invalidOption(_:)`` for an invalid option.
  package init(
    sink: any TraceLineSink, name: String, header: TraceHeader,
    encoder: TraceEventEncoder<Action, Mutation, State>, options: TraceOptions
  ) throws(TraceRecordingError) {
    try Self.checkPlainData(reactor: header.reactor)
    guard options.flushThreshold >= 1 else {
      throw .invalidOption("flushThreshold must be at least 1")
    }
    guard options.queueBudget >= 1 else {
      throw .invalidOption("queueBudget must be at least 1 byte, not \(options.queueBudget)")
    }
    guard case .unlimited = options.limit else {
      throw .invalidOption("a live recording takes no limit: its ring bounds what it holds")
    }
    condition = handshake.condition
    hashJobs = StateHashJobs(lock: handshake.condition)
    budget = options.queueBudget
    policy = options.overflow
    eventCap = options.overflow == .wait ? options.flushThreshold : .max
    stateBytes = Self.memoryPerByte * header.initialState.length
    path = name
    self.header = header
    pendingActions = PayloadBuffer(capacity: options.flushThreshold)
    pendingMutations = PayloadBuffer(capacity: options.flushThreshold)
    pendingStates = PayloadBuffer(capacity: options.flushThreshold)
    self.encoder = encoder
    self.flushThreshold = options.flushThreshold
    let (seconds, attoseconds) = options.flushInterval.components
    self.flushInterval = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
    window = nil
    file = nil
    self.sink = sink
    pending.reserveCapacity(flushThreshold)
    RecorderThread.start(named: "trace live wr") { [self] in run() }
  }

  /// Refuses a reactor whose action, mutation or state can hold an object (a class instance
  /// such as a child reactor, a closure, an existential), decided from the types as
  /// ``SessionRecorder`` decides which lanes it encodes on the writer thread: encoding such a
  /// value here could read a reactor's main-actor state from the writer thread, which traps.
  /// - Parameter reactor: The reactor's type, for the message.
  /// - Throws: ``TraceRecordingError/holdsObjects(reactor:types:)``.
  static func checkPlainData(reactor: String) throws(TraceRecordingError) {
    let types: [(String, Any.Type)] = [
      ("Action", Action.self), ("Mutation", Mutation.self), ("State", State.self),
    ]
    let holding = types.filter { !ObjectFreeTypes.contains($0.1) }.map(\.0)
    guard holding.isEmpty else { throw .holdsObjects(reactor: reactor, types: holding) }
  }

  /// Queues an event other than an action or a mutation, on the reactor's actor.
  /// - Parameters:
  ///   - event: The event.
  ///   - waits: Whether to wait for room whatever the policy: for the end line and the gap
  ///     before it, which must be recorded.
  /// - Returns: Whether it was queued; `false` only when the queue is full and the policy
  ///   drops.
  func append(_ event: consuming CapturedEvent, waits: Bool = false) -> Bool {
    condition.lock()
    guard admit(eventCost, waits: waits) else { return refused() }
    pending.append(event)
    didAppend()
    return true
  }

  /// Queues an action event and its action; returns whether it was queued.
  func append(_ event: consuming CapturedEvent, action: Action) -> Bool {
    condition.lock()
    guard admit(actionCost) else { return refused() }
    pending.append(event)
    pendingActions.append(action)
    didAppend()
    return true
  }

  /// Queues a mutation event, its mutation and the state `reduce` returned; returns whether
  /// it was queued.
  func append(_ event: consuming CapturedEvent, mutation: Mutation, state: State) -> Bool {
    condition.lock()
    guard admit(mutationCost + stateBytes) else { return refused() }
    pending.append(event)
    pendingMutations.append(mutation)
    pendingStates.append(state)
    didAppend()
    return true
  }

  /// Makes room for `cost` more bytes, with the lock held, and returns whether they were
  /// counted in.
  ///
  /// They are counted in at once when they fit or the queue is empty (so an event larger
  /// than the budget still records), else as the policy says.
  ///
  /// Once the drop policy has refused an event, it refuses every one until the writer has
  /// emptied at least half the budget, so that a full queue gives one gap, not a gap before
  /// every small event that still fits.
  @inline(__always)
  private func admit(_ cost: Int, waits: Bool = false) -> Bool {
    if queuedBytes + cost <= budget && queuedEvents < eventCap && !isDropping
      || queuedBytes == 0
    {
      account(cost)
      return true
    }
    return admitOverBudget(cost, waits: waits)
  }

  @inline(never)
  private func admitOverBudget(_ cost: Int, waits: Bool) -> Bool {
    if isDropping && queuedBytes <= budget / 2 && queuedBytes + cost <= budget {
      isDropping = false
      account(cost)
      return true
    }
    handshake.isWriterNeeded = true
    condition.broadcast()
    guard policy == .wait || waits else {
      isDropping = true
      return false
    }
    isDropping = false
    isSenderWaiting = true
    // While it waits, the actor hashes the states the thread has not reached yet.
    while (queuedBytes + cost > budget || queuedEvents >= eventCap) && queuedBytes > 0
      && !handshake.isDone
    {
      if !hashJobs.help() { condition.wait() }
    }
    hashJobs.stopHelping()
    isSenderWaiting = false
    account(cost)
    return true
  }

  @inline(__always)
  private func account(_ cost: Int) {
    queuedBytes += cost
    pendingBytes += cost
    queuedEvents += 1
    if queuedBytes > peakBytes { peakBytes = queuedBytes }
  }

  private func refused() -> Bool {
    condition.unlock()
    return false
  }

  /// Unlocks after an append, waking the thread when a batch is full.
  @inline(__always)
  private func didAppend() {
    let isBatchFull = pending.count == flushThreshold
    condition.unlock()
    if isBatchFull { condition.broadcast() }
  }

  /// The most bytes that were ever queued at once.
  package var peakQueuedBytes: Int {
    condition.lock()
    defer { condition.unlock() }
    return peakBytes
  }

  /// Holds the writer back from taking queued events until ``release()``: lets tests fill
  /// the queue deterministically.
  func hold() { handshake.hold() }

  /// Lets a held writer take queued events again.
  func release() { handshake.release() }

  /// Asks the thread to write everything and close the file, and waits until it has.
  /// - Returns: The first write failure, if any.
  package func close() async -> TraceRecordingError? { await handshake.close() }

  /// Asks the thread to write everything queued so far, and waits until it has.
  package func flush() async { await handshake.flush() }

  /// Asks the thread to write everything and close the file, without waiting.
  package func closeInBackground() { handshake.closeInBackground() }

  // MARK: The writer thread

  private func run() {
    if window == nil {
      write(header.serializedLine + [UInt8(ascii: "\n")])
    }
    var batch: [CapturedEvent] = []
    batch.reserveCapacity(flushThreshold)
    let actions = PayloadBuffer<Action>(capacity: flushThreshold)
    let mutations = PayloadBuffer<Mutation>(capacity: flushThreshold)
    let states = PayloadBuffer<State>(capacity: flushThreshold)
    // Until it has measured what a state holds of its own, the thread wakes every 5 ms (for
    // at most 40 wakes): the states queued first count at their whole canonical JSON, which
    // can fill the budget with a few of a large state before the first 200 ms are up.
    var measuringWakes = 0
    while true {
      let isMeasuring = ownStateByteCount == nil && measuringWakes < 40
      if isMeasuring { measuringWakes += 1 }
      handshake.waitForBatch(interval: isMeasuring ? min(flushInterval, 0.005) : flushInterval) {
        pending.count >= flushThreshold
      }
      let stateCost = stateBytes
      if ownStateByteCount == nil, let measured = encoder.lastStateByteCount {
        stateBytes = Self.memoryPerByte * measured
      }
      let takenBytes = pendingBytes
      pendingBytes = 0
      let takenEvents = pending.count
      swap(&batch, &pending)
      actions.swapContents(with: pendingActions)
      mutations.swapContents(with: pendingMutations)
      states.swapContents(with: pendingStates)
      let closing = handshake.isClosing
      let waiters = handshake.takeFlushWaiters()
      condition.unlock()

      // Written events leave the queue piece by piece, and their states' memory with them;
      // the rest of what they were counted at (the buffers they are in) only with the batch.
      var written = TraceEventEncoder<Action, Mutation, State>.WrittenCount(
        events: 0, actions: 0, mutations: 0)
      var dequeuedBytes = 0
      if measureOwnStateBytes(states) {
        // The states queued from now on count at what the last one holds of its own.
        condition.lock()
        stateBytes = Self.memoryPerByte * ownStateByteCount!
        condition.unlock()
      }
      if !batch.isEmpty {
        process(batch, actions: actions, mutations: mutations, states: states) { now in
          actions.discard(upTo: now.actions)
          mutations.discard(upTo: now.mutations)
          states.discard(upTo: now.mutations)
          let bytes = min(
            (now.mutations - written.mutations) * stateCost, takenBytes - dequeuedBytes)
          dequeuedBytes += bytes
          dequeue(bytes, events: now.events - written.events)
          written = now
        }
      }
      batch.removeAll(keepingCapacity: true)
      actions.removeAll()
      mutations.removeAll()
      states.removeAll()
      dequeue(takenBytes - dequeuedBytes, events: takenEvents - written.events)
      for waiter in waiters { waiter.resume() }
      if closing { break }
    }
    finish()
  }

  /// Measures what the last state of a batch holds of its own (``QueuedStateMemory``),
  /// against the state queued before it, for the estimate of the states queued next;
  /// returns whether it could.
  private func measureOwnStateBytes(_ states: PayloadBuffer<State>) -> Bool {
    guard states.count > 0 else { return false }
    ownStateByteCount = QueuedStateMemory.ownBytesOfLast(
      in: states, lastTaken: &lastTakenState, json: encoder.previousBytes)
    return ownStateByteCount != nil
  }

  /// Takes written events out of the queue, and wakes the reactor's actor if it waits for
  /// room.
  private func dequeue(_ bytes: Int, events: Int) {
    guard events > 0 || bytes > 0 else { return }
    condition.lock()
    queuedBytes -= bytes
    queuedEvents -= events
    if isSenderWaiting { condition.broadcast() }
    condition.unlock()
  }

  /// Encodes and writes a batch; `didWrite` is told how much of it is written, at every
  /// piece of about ``chunkSize`` bytes but the last.
  private func process(
    _ batch: [CapturedEvent], actions: PayloadBuffer<Action>,
    mutations: PayloadBuffer<Mutation>, states: PayloadBuffer<State>,
    didWrite: (TraceEventEncoder<Action, Mutation, State>.WrittenCount) -> Void
  ) {
    if var window {
      var nextAction = 0
      var nextMutation = 0
      for event in batch {
        switch event.kind {
        case .action(let id, let origin):
          window.append(
            Event(
              sequence: event.sequence, time: event.time,
              event: .action(actions[nextAction], id: id, origin: origin)))
          nextAction += 1
        case .mutation(let id, let origin, let publisher):
          window.append(
            Event(
              sequence: event.sequence, time: event.time,
              event: .mutation(
                mutations[nextMutation], id: id, origin: origin, state: states[nextMutation],
                publisher: publisher)))
          nextMutation += 1
        default:
          window.append(Event(event))
        }
      }
      self.window = window
      rewriteWindow()
      return
    }
    line.bytes.removeAll(keepingCapacity: true)
    encoder.writeLines(
      batch, actions: actions, mutations: mutations, states: states, to: &line,
      chunkSize: Self.chunkSize, hashJobs: hashJobs
    ) { line, written in
      write(line.bytes)
      line.bytes.removeAll(keepingCapacity: true)
      didWrite(written)
    }
    write(line.bytes)
  }

  private func rewriteWindow() {
    guard let window, !hasFailed else { return }
    do {
      try window.trace(header: header, encoder: encoder).write(to: path)
    } catch {
      fail(error.description)
    }
  }

  private func write(_ bytes: [UInt8]) {
    if let sink {
      if !bytes.isEmpty { sink.write(bytes) }
      return
    }
    guard !hasFailed, let succeeded = file?.write(bytes) else { return }
    if !succeeded { fail(POSIXFile.message(POSIXFile.errorCode)) }
  }

  private func fail(_ reason: String) {
    hasFailed = true
    handshake.recordFailure(.writeFailed(path: path, reason: reason))
  }

  private func finish() {
    sink?.finish()
    if var file = file.take() {
      if !hasFailed && !file.synchronize() { fail(POSIXFile.message(POSIXFile.errorCode)) }
      if !file.close() && !hasFailed { fail(POSIXFile.message(POSIXFile.errorCode)) }
    }
    handshake.finish()
  }
}
