import Foundation

/// Encodes and writes a recording on its own thread, so the reactor's actor never waits for
/// encoding or the disk.
///
/// The reactor's actor only appends captured events to `pending`. The writer thread wakes
/// when `flushThreshold` events are pending or `flushInterval` has passed, takes them all,
/// encodes them and writes them with one `write` call per batch. A crash loses at most what
/// was pending. With a rolling window, each flush instead rewrites the whole window
/// atomically, so the file is always a complete trace.
///
/// `@unchecked Sendable`: everything the reactor's actor and the thread share is guarded by
/// `condition`; the rest belongs to the thread alone once it starts.
final class TraceFileWriter<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  typealias Event = StampedEvent<Action, Mutation, State>

  let path: String
  /// The most encoded bytes held before they are written: a batch that piled up while the
  /// writer was behind is written in pieces of this size.
  private static var chunkSize: Int { 1 << 20 }
  private let flushThreshold: Int
  private let flushInterval: TimeInterval

  // Guarded by `condition`. The lock already keeps accesses from overlapping, and each is
  // instantaneous: no dynamic exclusivity checks needed on the hot path.
  private let condition = NSCondition()
  @exclusivity(unchecked) private var pending: [CapturedEvent] = []
  @exclusivity(unchecked) private var pendingActions: PayloadBuffer<Action>
  @exclusivity(unchecked) private var pendingMutations: PayloadBuffer<Mutation>
  @exclusivity(unchecked) private var pendingStates: PayloadBuffer<State>
  private var isClosing = false
  private var isDone = false
  private var closeWaiter: CheckedContinuation<Void, Never>?
  private var flushWaiters: [CheckedContinuation<Void, Never>] = []
  private var failure: TraceRecordingError?

  // The writer thread's alone.
  private var encoder: TraceEventEncoder<Action, Mutation, State>
  private let header: TraceHeader
  private var window: EventWindow<Action, Mutation, State>?
  private var file: POSIXFile?
  private var line = LineWriter()
  private var hasFailed = false

  init(
    path: String, header: TraceHeader, encoder: TraceEventEncoder<Action, Mutation, State>,
    initialState: State, options: TraceOptions
  ) throws(TraceRecordingError) {
    guard options.flushThreshold >= 1 else {
      throw .invalidOption("flushThreshold must be at least 1")
    }
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
    pending.reserveCapacity(flushThreshold)
    let thread = Thread { [self] in run() }
    thread.name = "reactor-trace writer"
    thread.start()
  }

  /// Queues an event other than an action or a mutation, on the reactor's actor, without
  /// ever waiting for the writer.
  func append(_ event: CapturedEvent) {
    condition.lock()
    pending.append(event)
    didAppend()
  }

  /// Queues an action event and its action.
  func append(_ event: CapturedEvent, action: Action) {
    condition.lock()
    pending.append(event)
    pendingActions.append(action)
    didAppend()
  }

  /// Queues a mutation event, its mutation and the state `reduce` returned.
  func append(_ event: CapturedEvent, mutation: Mutation, state: State) {
    condition.lock()
    pending.append(event)
    pendingMutations.append(mutation)
    pendingStates.append(state)
    didAppend()
  }

  /// Unlocks after an append, waking the thread when a batch is full.
  @inline(__always)
  private func didAppend() {
    let isBatchFull = pending.count == flushThreshold
    condition.unlock()
    if isBatchFull { condition.signal() }
  }

  /// Asks the thread to write everything and close the file, and waits until it has.
  /// - Returns: The first write failure, if any.
  func close() async -> TraceRecordingError? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      isClosing = true
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      closeWaiter = continuation
      condition.signal()
      condition.unlock()
    }
    return recordedFailure()
  }

  private func recordedFailure() -> TraceRecordingError? {
    condition.lock()
    defer { condition.unlock() }
    return failure
  }

  /// Asks the thread to write everything queued so far, and waits until it has.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      flushWaiters.append(continuation)
      condition.signal()
      condition.unlock()
    }
  }

  /// Asks the thread to write everything and close the file, without waiting.
  func closeInBackground() {
    condition.lock()
    isClosing = true
    condition.signal()
    condition.unlock()
  }

  // MARK: The writer thread

  private func run() {
    if window == nil {
      write(header.serializedLine + [UInt8(ascii: "\n")])
    }
    var batch: [CapturedEvent] = []
    batch.reserveCapacity(flushThreshold)
    var actions = PayloadBuffer<Action>(capacity: flushThreshold)
    var mutations = PayloadBuffer<Mutation>(capacity: flushThreshold)
    var states = PayloadBuffer<State>(capacity: flushThreshold)
    while true {
      condition.lock()
      let deadline = Date(timeIntervalSinceNow: flushInterval)
      while pending.count < flushThreshold && !isClosing && flushWaiters.isEmpty {
        if !condition.wait(until: deadline) { break }
      }
      swap(&batch, &pending)
      swap(&actions, &pendingActions)
      swap(&mutations, &pendingMutations)
      swap(&states, &pendingStates)
      let closing = isClosing
      let waiters = flushWaiters
      flushWaiters = []
      condition.unlock()

      if !batch.isEmpty { process(batch, actions: actions, mutations: mutations, states: states) }
      batch.removeAll(keepingCapacity: true)
      actions.removeAll()
      mutations.removeAll()
      states.removeAll()
      for waiter in waiters { waiter.resume() }
      if closing { break }
    }
    finish()
  }

  private func process(
    _ batch: [CapturedEvent], actions: PayloadBuffer<Action>,
    mutations: PayloadBuffer<Mutation>, states: PayloadBuffer<State>
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
        case .mutation(let id, let origin):
          window.append(
            Event(
              sequence: event.sequence, time: event.time,
              event: .mutation(
                mutations[nextMutation], id: id, origin: origin, state: states[nextMutation])))
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
      chunkSize: Self.chunkSize
    ) { line in
      write(line.bytes)
      line.bytes.removeAll(keepingCapacity: true)
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
    guard !hasFailed, let succeeded = file?.write(bytes) else { return }
    if !succeeded { fail(POSIXFile.message(POSIXFile.errorCode)) }
  }

  private func fail(_ reason: String) {
    hasFailed = true
    condition.lock()
    if failure == nil { failure = .writeFailed(path: path, reason: reason) }
    condition.unlock()
  }

  private func finish() {
    if var file = file.take() {
      if !hasFailed && !file.synchronize() { fail(POSIXFile.message(POSIXFile.errorCode)) }
      if !file.close() && !hasFailed { fail(POSIXFile.message(POSIXFile.errorCode)) }
    }
    condition.lock()
    isDone = true
    let waiter = closeWaiter
    closeWaiter = nil
    let waiters = flushWaiters
    flushWaiters = []
    condition.unlock()
    waiter?.resume()
    for waiter in waiters { waiter.resume() }
  }
}
