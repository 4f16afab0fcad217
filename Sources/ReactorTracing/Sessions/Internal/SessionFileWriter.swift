import Foundation
import ReactorCore

/// Writes the lines of a session to a file on a thread of its own, so that the main actor,
/// where every reactor runs, never waits for the disk while the queue has room, and encodes
/// the actions, mutations and states of plain-data lanes itself.
///
/// Two kinds of lines are queued, in `seq` order. Most events are serialized on the main
/// actor and their lines appended to `pending` under a lock: introductions, releases, gaps,
/// effects, the end line, and every event of a lane whose types may hold reactors (a state
/// that holds reactors is never touched off the main actor, and never kept). A lane whose
/// action, mutation and state types are plain data (``ReactorSchema/ObjectFreeTypes``)
/// instead queues each action and mutation as its values
/// (``queueValues(_:reactor:from:cost:isLanesFirst:)``, through its ``SessionLaneQueue``), stamped on the main actor with its `seq`, time and
/// cause, with the place its line takes among the pending lines; the thread encodes them
/// there, with the lane's encoder, into the very bytes the main actor would have written.
///
/// The thread wakes when `flushThreshold` lines are pending, when `flushInterval` has passed,
/// or when asked to flush or close; it takes every pending line and value, encodes the values'
/// lines in place, and writes the batch in pieces of about ``WriterHandshake/chunkSize``
/// bytes, each leaving the queue (and its values their memory) once written. Lines are whole
/// in every piece, so the file is a valid session after every flush (a crash in the middle of
/// a `write` leaves a torn last line, which readers report as a warning).
///
/// What is queued (pending, or taken and not yet written) is bounded by
/// ``TraceOptions/queueBudget`` bytes, each line counted twice (the buffers grow by doubling
/// and are swapped with the one the thread writes), each queued value at twice its size and
/// each queued state at ``WriterHandshake/memoryPerStateByte`` times the length of its lane's
/// last encoded state, as a single reactor's writer counts them; and by `flushThreshold`
/// lines: a line that does not fit makes the main actor wait for the writer, so that a crash
/// loses at most `flushThreshold` events or those of the last `flushInterval`. A line is
/// always queued when the queue is empty, so that one larger than the budget still records.
///
/// A live session recorder's writer hands its lines to a ``TraceLineSink`` instead of a file
/// (``init(sink:name:header:options:)``), and drops rather than waits: the main actor asks
/// ``admitsEvent()`` before it encodes a reactor's event, and a full queue turns it down,
/// so the log records a gap instead; introductions, releases, gaps and the end line are
/// always queued. The main actor then never waits, and the queue holds at most the budget
/// plus those lines and the one event admitted last.
///
/// How the main actor and the thread hand over requests (flush, close, hold) is the trace
/// writer's own (``WriterHandshake``).
///
/// `@unchecked Sendable`: everything the main actor and the thread share is guarded by
/// `condition`, the handshake's lock; `file`, `hasFailed` and `line` belong to the thread once
/// it starts.
final class SessionFileWriter: @unchecked Sendable {
  /// A lane's action or mutation queued as values for the thread to encode, or the end of a
  /// lane.
  struct Entry {
    /// Where its line goes: the length `pending` had when it was queued.
    var offset: Int
    /// The lane's reactor.
    var reactor: Int
    /// The event, stamped; `nil` when the lane ended: the thread forgets its writer side.
    var event: CapturedEvent?
    /// Its origin in another reactor of the session, as its line records it.
    var from: TraceEvent.ReactorOrigin?
    /// What it is counted at against the budget.
    var cost: Int
  }

  let path: String
  private let header: [UInt8]
  private let budget: Int
  private let flushThreshold: Int
  private let flushInterval: TimeInterval
  /// Where the lines go instead of a file (a live stream), from the thread.
  private let sink: (any TraceLineSink)?
  /// Whether a full queue turns events down (``admitsEvent()``) instead of waiting.
  let drops: Bool

  private let handshake = WriterHandshake()
  private let condition: WriterLock

  // Guarded by `condition`. The lock already keeps accesses from overlapping, and each is
  // instantaneous: no dynamic exclusivity checks needed on the main actor's path.
  @exclusivity(unchecked) private var pending: [UInt8] = []
  /// The values queued among the pending lines, in order.
  @exclusivity(unchecked) private var pendingEntries: [Entry] = []
  /// The lanes that queued values since the thread last took them.
  @exclusivity(unchecked) private var pendingLanes: [Int] = []
  /// The writer side of every plain-data lane not yet ended, by reactor.
  private var lanes: [Int: any DeferredSessionLane] = [:]
  @exclusivity(unchecked) private var pendingLines = 0
  /// Bytes queued, as counted: appended and not yet written.
  @exclusivity(unchecked) private var queuedBytes = 0
  /// Lines appended and not yet written.
  @exclusivity(unchecked) private var queuedLines = 0
  @exclusivity(unchecked) private var peakBytes = 0
  /// Set when ``admitsEvent()`` turned an event down, until the writer has emptied half the
  /// budget: a full queue gives one gap, not a gap before every small event that fits.
  @exclusivity(unchecked) private var isDropping = false

  // The thread's alone.
  private var file: POSIXFile?
  private var hasFailed = false
  /// The batch with its values' lines encoded in place.
  private var line = LineWriter()

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
    condition = handshake.condition
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
    condition = handshake.condition
    self.header = header.serializedLine + [UInt8(ascii: "\n")]
    budget = options.queueBudget
    flushThreshold = options.flushThreshold
    flushInterval = Self.seconds(options.flushInterval)
    self.sink = sink
    drops = true
    start()
  }

  private func start() {
    // The queue holds at most `flushThreshold` lines, so neither array of entries (this and
    // the thread's, swapped) grows on the main actor, where a growth copies every entry
    // queued (the pages of their storage are touched only as entries fill them).
    pendingEntries.reserveCapacity(Self.reservedEntries(flushThreshold))
    RecorderThread.start(named: "trace session") { [self] in run() }
  }

  /// How many entries each array of them is made to hold at the start: `flushThreshold`, up
  /// to 65,536.
  private static func reservedEntries(_ flushThreshold: Int) -> Int {
    min(flushThreshold, 1 << 16)
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
    handshake.isWriterNeeded = true
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
    waitForRoom(cost)
    pending.append(contentsOf: line)
    didQueue(cost)
  }

  /// Makes `lane`'s writer side known to the thread, before the lane queues values; on the
  /// main actor.
  func register(_ lane: any DeferredSessionLane) {
    condition.lock()
    lanes[lane.reactor] = lane
    condition.unlock()
  }

  /// Locks the queue and waits until `cost` more bytes and a line fit, as ``append(_:)``
  /// does, for a plain-data lane to queue an action or mutation as its values; on the main
  /// actor, from the lane's ``SessionLaneQueue``, which then puts the values in its buffers
  /// and calls ``queueValues(_:reactor:from:cost:isLanesFirst:)``, the lock held throughout.
  @inline(__always)
  func lockForValues(cost: Int) {
    condition.lock()
    waitForRoom(cost)
  }

  /// ``lockForValues(cost:)`` with a cost read with the lock held; returns it.
  @inline(__always)
  func lockForValues(cost: () -> Int) -> Int {
    condition.lock()
    let cost = cost()
    waitForRoom(cost)
    return cost
  }

  /// With the lock that ``lockForValues(cost:)`` took: queues the values a lane just put in
  /// its buffers, for the thread to encode in their place among the lines, and unlocks.
  /// - Parameters:
  ///   - event: The event, stamped.
  ///   - reactor: The lane's reactor.
  ///   - from: Its origin in another reactor, as its line records it.
  ///   - cost: What the values are counted at against the budget.
  ///   - isLanesFirst: Whether they are the lane's first since the thread last took its
  ///     values.
  @inline(__always)
  func queueValues(
    _ event: consuming CapturedEvent, reactor: Int, from: TraceEvent.ReactorOrigin?, cost: Int,
    isLanesFirst: Bool
  ) {
    if isLanesFirst { pendingLanes.append(reactor) }
    pendingEntries.append(
      Entry(offset: pending.count, reactor: reactor, event: event, from: from, cost: cost))
    didQueue(cost)
  }

  /// ``queueValues(_:reactor:from:cost:isLanesFirst:)`` for an action (`isMutation` false) or
  /// a mutation, its event made here, in the entry: a stamped event handed down is copied
  /// into it through its value witness, in the lane's unspecialized code.
  @inline(__always)
  func queueValues(
    sequence: Int, time: Duration, id: Int, origin: Origin, isMutation: Bool, reactor: Int,
    from: TraceEvent.ReactorOrigin?, cost: Int, isLanesFirst: Bool
  ) {
    if isLanesFirst { pendingLanes.append(reactor) }
    pendingEntries.append(
      Entry(
        offset: pending.count, reactor: reactor,
        event: CapturedEvent(
          sequence: sequence, time: time,
          kind: isMutation
            ? .mutation(id: id, origin: origin, publisher: nil) : .action(id: id, origin: origin)),
        from: from, cost: cost))
    didQueue(cost)
  }

  /// Ends a plain-data lane: once the thread has written its last line, it forgets the lane's
  /// writer side; on the main actor.
  func retire(_ reactor: Int) {
    condition.lock()
    pendingEntries.append(Entry(offset: pending.count, reactor: reactor, event: nil, cost: 0))
    condition.unlock()
  }

  /// With the lock held: waits until `cost` more bytes and a line fit, unless the queue is
  /// empty or the writer ``drops`` (which admitted the event before it was stamped).
  private func waitForRoom(_ cost: Int) {
    guard !drops, queuedBytes > 0,
      queuedBytes + cost > budget || queuedLines >= flushThreshold
    else { return }
    handshake.isWriterNeeded = true
    condition.broadcast()
    while queuedBytes > 0 && (queuedBytes + cost > budget || queuedLines >= flushThreshold)
      && !handshake.isDone
    {
      condition.wait()
    }
  }

  /// With the lock held: counts a line of `cost` bytes in, unlocks, and wakes the thread when
  /// a batch is full.
  ///
  /// Inlined: it ends every action and mutation a plain-data lane queues.
  @inline(__always)
  private func didQueue(_ cost: Int) {
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
  func hold() { handshake.hold() }

  /// Lets a held writer take queued lines again.
  func release() { handshake.release() }

  /// Asks the thread to write every line queued so far, and waits until it has.
  func flush() async { await handshake.flush() }

  /// Asks the thread to write everything and close the file, and waits until it has.
  /// - Returns: The first write failure, if any.
  func close() async -> TraceRecordingError? { await handshake.close() }

  /// Asks the thread to write everything and close the file, without waiting.
  func closeInBackground() { handshake.closeInBackground() }

  // MARK: The writer thread

  private func run() {
    write(header)
    var batch: [UInt8] = []
    var entries: [Entry] = []
    entries.reserveCapacity(Self.reservedEntries(flushThreshold))
    var taken: [any DeferredSessionLane] = []
    while true {
      handshake.waitForBatch(interval: flushInterval) { pendingLines >= flushThreshold }
      swap(&batch, &pending)
      swap(&entries, &pendingEntries)
      for reactor in pendingLanes {
        guard let lane = lanes[reactor] else { continue }
        lane.take()
        taken.append(lane)
      }
      pendingLanes.removeAll(keepingCapacity: true)
      // Only the main actor changes the table (a copy then), and only registering a lane.
      let lanes = entries.isEmpty ? [:] : self.lanes
      let lines = pendingLines
      pendingLines = 0
      let closing = handshake.isClosing
      let waiters = handshake.takeFlushWaiters()
      condition.unlock()

      // The states queued from now on count at what the last one taken holds of its own.
      let measured = taken.filter { $0.measureStateCost() }
      if !measured.isEmpty {
        condition.lock()
        for lane in measured { lane.applyStateCost() }
        condition.unlock()
      }
      if entries.isEmpty {
        if !batch.isEmpty { write(batch) }
        dequeue(2 * batch.count, lines: lines)
      } else {
        write(batch, encoding: entries, of: lanes, taken: taken, lines: lines)
      }
      batch.removeAll(keepingCapacity: true)
      entries.removeAll(keepingCapacity: true)
      taken.removeAll(keepingCapacity: true)
      for waiter in waiters { waiter.resume() }
      if closing { break }
    }
    finish()
  }

  /// Writes a batch of lines with the lines of its values encoded in their places, in pieces
  /// of about ``WriterHandshake/chunkSize`` bytes, each leaving the queue once written.
  private func write(
    _ batch: [UInt8], encoding entries: [Entry], of lanes: [Int: any DeferredSessionLane],
    taken: [any DeferredSessionLane], lines: Int
  ) {
    line.bytes.removeAll(keepingCapacity: true)
    // The batch's bytes copied so far, and those (with the values' cost) not yet dequeued.
    var copied = 0
    var copiedAndWritten = 0
    var cost = 0
    var ended: [Int] = []
    for entry in entries {
      if entry.offset > copied {
        line.bytes.append(contentsOf: batch[copied..<entry.offset])
        copied = entry.offset
      }
      cost += entry.cost
      guard let event = entry.event else {
        ended.append(entry.reactor)
        continue
      }
      guard let lane = lanes[entry.reactor] else {
        preconditionFailure("a lane queues values only once registered, until it ends")
      }
      lane.writeLine(event, from: entry.from, to: &line)
      if line.bytes.count >= WriterHandshake.chunkSize {
        write(line.bytes)
        line.bytes.removeAll(keepingCapacity: true)
        for lane in taken { lane.discardWritten() }
        dequeue(2 * (copied - copiedAndWritten) + cost, lines: 0)
        copiedAndWritten = copied
        cost = 0
      }
    }
    if copied < batch.count { line.bytes.append(contentsOf: batch[copied...]) }
    write(line.bytes)
    line.bytes.removeAll(keepingCapacity: true)
    for lane in taken { lane.finishBatch() }
    dequeue(2 * (batch.count - copiedAndWritten) + cost, lines: lines, ending: ended)
  }

  /// Takes written bytes and lines out of the queue, forgets the lanes that ended, and wakes
  /// the main actor if it waits for room.
  private func dequeue(_ bytes: Int, lines: Int, ending ended: [Int] = []) {
    condition.lock()
    queuedBytes -= bytes
    queuedLines -= lines
    for reactor in ended { lanes[reactor] = nil }
    condition.broadcast()
    condition.unlock()
  }

  private func write(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    if let sink {
      sink.write(bytes)
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
