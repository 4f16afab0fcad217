import Foundation

/// Writes the lines of a session to a file on a thread of its own, so that the main actor,
/// where every reactor runs, never waits for the disk while the queue has room.
///
/// The main actor serializes each event and appends its line to `pending` under a lock: no
/// action, mutation or state crosses to the thread, only bytes (a state that holds reactors
/// is never touched off the main actor). The thread wakes when `flushThreshold` lines are
/// pending, when `flushInterval` has passed, or when asked to flush or close; it takes every
/// pending line and writes them with one `write` call. Lines are whole in every batch, so the
/// file is a valid session after every flush (a crash in the middle of a `write` leaves a
/// torn last line, which readers report as a warning).
///
/// What is queued (pending, or taken and not yet written) is bounded by
/// ``TraceOptions/queueBudget`` bytes, each line counted twice (the buffers grow by doubling
/// and are swapped with the one the thread writes), and by `flushThreshold` lines: a line
/// that does not fit makes the main actor wait for the writer, so that a crash loses at most
/// `flushThreshold` events or those of the last `flushInterval`. A line is always queued when
/// the queue is empty, so that one larger than the budget still records.
///
/// A live session recorder's writer hands its lines to a ``TraceLineSink`` instead of a file
/// (``init(sink:name:header:options:)``), and drops rather than waits: the main actor asks
/// ``admitsEvent()`` before it encodes a reactor's event, and a full queue turns it down,
/// so the log records a gap instead; introductions, releases, gaps and the end line are
/// always queued. The main actor then never waits, and the queue holds at most the budget
/// plus those lines and the one event admitted last.
///
/// `@unchecked Sendable`: everything the main actor and the thread share is guarded by
/// `condition`; `file` and `hasFailed` belong to the thread once it starts.
final class SessionFileWriter: @unchecked Sendable {
  let path: String
  private let header: [UInt8]
  private let budget: Int
  private let flushThreshold: Int
  private let flushInterval: TimeInterval
  /// Where the lines go instead of a file (a live stream), from the thread.
  private let sink: (any TraceLineSink)?
  /// Whether a full queue turns events down (``admitsEvent()``) instead of waiting.
  let drops: Bool

  // Guarded by `condition`.
  private let condition = NSCondition()
  private var pending: [UInt8] = []
  private var pendingLines = 0
  /// Bytes queued, as counted: appended and not yet written.
  private var queuedBytes = 0
  /// Lines appended and not yet written.
  private var queuedLines = 0
  private var peakBytes = 0
  private var isClosing = false
  private var isDone = false
  private var isHeld = false
  private var isWriterNeeded = false
  /// Set when ``admitsEvent()`` turned an event down, until the writer has emptied half the
  /// budget: a full queue gives one gap, not a gap before every small event that fits.
  private var isDropping = false
  private var flushWaiters: [CheckedContinuation<Void, Never>] = []
  private var closeWaiters: [CheckedContinuation<Void, Never>] = []
  private var failure: TraceRecordingError?

  // The thread's alone.
  private var file: POSIXFile?
  private var hasFailed = false

  /// Creates (or empties) the file at `path` and starts the writer thread, which writes
  /// `header` first.
  /// - Throws: ``TraceRecordingError`` when the file cannot be created or an option is
  ///   invalid.
  init(path: String, header: SessionHeader, options: TraceOptions) throws(TraceRecordingError) {
    guard options.flushThreshold >= 1 else {
      throw .invalidOption("flushThreshold must be at least 1")
    }
    guard options.queueBudget >= 1 else {
      throw .invalidOption("queueBudget must be at least 1 byte, not \(options.queueBudget)")
    }
    guard options.overflow == .wait else {
      throw .invalidOption(
        "a session recorder waits for its writer: a dropped introduction, release or"
          + " mutation would break the lanes that follow it")
    }
    guard let file = POSIXFile(truncating: path) else {
      throw .cannotCreate(path: path, reason: POSIXFile.message(POSIXFile.errorCode))
    }
    self.file = consume file
    self.path = path
    self.header = header.serializedLine + [UInt8(ascii: "\n")]
    budget = options.queueBudget
    flushThreshold = options.flushThreshold
    flushInterval = Self.seconds(options.flushInterval)
    sink = nil
    drops = false
    start()
  }

  /// A writer that hands its lines (the header's, then the events') to `sink` instead of a
  /// file, and drops events when its queue is full (``admitsEvent()``).
  /// - Parameters:
  ///   - sink: Where the lines go, from the writer's thread.
  ///   - name: What errors call it.
  ///   - header: The session's header.
  ///   - options: The flush interval and threshold, and the queue budget.
  /// - Throws: ``TraceRecordingError/invalidOption(_:)`` for an invalid option.
  init(
    sink: any TraceLineSink, name: String, header: SessionHeader, options: TraceOptions
  ) throws(TraceRecordingError) {
    guard options.flushThreshold >= 1 else {
      throw .invalidOption("flushThreshold must be at least 1")
    }
    guard options.queueBudget >= 1 else {
      throw .invalidOption("queueBudget must be at least 1 byte, not \(options.queueBudget)")
    }
    path = name
    self.header = header.serializedLine + [UInt8(ascii: "\n")]
    budget = options.queueBudget
    flushThreshold = options.flushThreshold
    flushInterval = Self.seconds(options.flushInterval)
    self.sink = sink
    drops = true
    start()
  }

  private func start() {
    let thread = Thread { [self] in run() }
    thread.name = "reactor-trace session writer"
    thread.start()
  }

  private static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// Whether a reactor's next event may be queued; on the main actor, before encoding it.
  ///
  /// Always, unless the writer ``drops``: then not while the queue is full (its budget or
  /// `flushThreshold` lines), nor, once it was, until the writer has emptied half of it.
  func admitsEvent() -> Bool {
    guard drops else { return true }
    condition.lock()
    defer { condition.unlock() }
    if queuedBytes == 0
      || !isDropping && queuedBytes < budget && queuedLines < flushThreshold
      || isDropping && queuedBytes <= budget / 2 && queuedLines < flushThreshold / 2 + 1
    {
      isDropping = false
      return true
    }
    isDropping = true
    isWriterNeeded = true
    condition.broadcast()
    return false
  }

  /// Queues one line, newline included; on the main actor.
  ///
  /// It waits for the writer only when the queue is full, and never when the writer
  /// ``drops`` (which admitted the event before it was encoded).
  func append(_ line: [UInt8]) {
    let cost = 2 * line.count
    condition.lock()
    if !drops && queuedBytes > 0
      && (queuedBytes + cost > budget || queuedLines >= flushThreshold)
    {
      isWriterNeeded = true
      condition.broadcast()
      while queuedBytes > 0 && (queuedBytes + cost > budget || queuedLines >= flushThreshold)
        && !isDone
      {
        condition.wait()
      }
    }
    pending.append(contentsOf: line)
    pendingLines += 1
    queuedLines += 1
    queuedBytes += cost
    if queuedBytes > peakBytes { peakBytes = queuedBytes }
    let isBatchFull = pendingLines >= flushThreshold
    condition.unlock()
    if isBatchFull { condition.broadcast() }
  }

  /// The most bytes that were ever queued at once, as counted against the budget.
  var peakQueuedBytes: Int {
    condition.lock()
    defer { condition.unlock() }
    return peakBytes
  }

  /// Holds the writer back from taking queued lines until ``release()``: lets tests fill the
  /// queue deterministically.
  func hold() {
    condition.lock()
    isHeld = true
    condition.unlock()
  }

  /// Lets a held writer take queued lines again.
  func release() {
    condition.lock()
    isHeld = false
    condition.broadcast()
    condition.unlock()
  }

  /// Asks the thread to write every line queued so far, and waits until it has.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      flushWaiters.append(continuation)
      condition.broadcast()
      condition.unlock()
    }
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
      closeWaiters.append(continuation)
      condition.broadcast()
      condition.unlock()
    }
    return recordedFailure()
  }

  private func recordedFailure() -> TraceRecordingError? {
    condition.lock()
    defer { condition.unlock() }
    return failure
  }

  /// Asks the thread to write everything and close the file, without waiting.
  func closeInBackground() {
    condition.lock()
    isClosing = true
    condition.broadcast()
    condition.unlock()
  }

  // MARK: The writer thread

  private func run() {
    write(header)
    var batch: [UInt8] = []
    while true {
      condition.lock()
      let deadline = Date(timeIntervalSinceNow: flushInterval)
      while !isClosing
        && (isHeld || pendingLines < flushThreshold && flushWaiters.isEmpty && !isWriterNeeded)
      {
        if isHeld {
          condition.wait()
        } else if !condition.wait(until: deadline) {
          break
        }
      }
      isWriterNeeded = false
      swap(&batch, &pending)
      let lines = pendingLines
      pendingLines = 0
      let closing = isClosing
      let waiters = flushWaiters
      flushWaiters = []
      condition.unlock()

      if !batch.isEmpty { write(batch) }
      let bytes = 2 * batch.count
      batch.removeAll(keepingCapacity: true)
      condition.lock()
      queuedBytes -= bytes
      queuedLines -= lines
      condition.broadcast()
      condition.unlock()
      for waiter in waiters { waiter.resume() }
      if closing { break }
    }
    finish()
  }

  private func write(_ bytes: [UInt8]) {
    if let sink {
      sink.write(bytes)
      return
    }
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
    sink?.finish()
    if var file = file.take() {
      if !hasFailed && !file.synchronize() { fail(POSIXFile.message(POSIXFile.errorCode)) }
      if !file.close() && !hasFailed { fail(POSIXFile.message(POSIXFile.errorCode)) }
    }
    condition.lock()
    isDone = true
    condition.broadcast()
    let waiters = closeWaiters + flushWaiters
    closeWaiters = []
    flushWaiters = []
    condition.unlock()
    for waiter in waiters { waiter.resume() }
  }
}
