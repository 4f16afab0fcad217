import Foundation
import ReactorTracing

/// The ring of encoded lines the server has not acknowledged, and the thread that sends them.
///
/// The recording's writer thread hands it lines (``TraceLineSink``): the header's first,
/// then each event's, numbered 1, 2, 3… as the trace numbers them. They stay in the ring
/// until the server acknowledges them. The sender thread posts what the server lacks, one
/// batch at a time, and on any failure connects again after a growing delay, resuming from
/// the last acknowledged number: nothing is lost while the outage fits the ring.
///
/// With control accepted, an orders thread asks the server for the stream's orders on a
/// connection of its own, which the server answers as soon as a command is queued: a command
/// reaches the app without waiting for the sender's next batch or poll (the answers to those
/// still carry any order the orders thread has not collected).
///
/// When the ring is full (``LiveOptions/ringEvents`` or ``LiveOptions/ringBytes``), the
/// writer thread waits here for room; the queue in front of it then fills and the recording's
/// drop policy drops events on the reactor's actor and records a gap, as a file recording
/// does. The reactor never waits.
///
/// `@unchecked Sendable`: every property below the lock's comment is guarded by `condition`.
final class LiveStream: TraceLineSink, @unchecked Sendable {
  /// How one batch is bounded: at most this many bytes of lines (one line more when a single
  /// line is larger).
  private static var batchBytes: Int { 1 << 20 }

  let options: LiveOptions
  /// With control accepted, what performs the orders an answer carries (called on the sender
  /// thread; it reports their outcomes through ``report(_:)``).
  private let perform: (@Sendable ([JSONValue]) -> Void)?

  // Guarded by `condition`.
  private let condition = NSCondition()
  private var header: [UInt8] = []
  /// Held lines, oldest first, from `lines[head]`; `firstSequence` is that line's number.
  private var lines: [[UInt8]] = []
  private var head = 0
  private var firstSequence = 1
  private var heldBytes = 0
  private var acknowledged = 0
  private var isWriterFinished = false
  private var stopDeadline: ContinuousClock.Instant?
  private var isDone = false
  private var isAbandoned = false
  private var lostCount = 0
  private var connectionCount = 0
  private var failure: String?
  private var doneWaiters: [CheckedContinuation<Void, Never>] = []
  /// Outcomes of performed orders, not yet posted.
  private var outcomes: [JSONValue] = []
  /// Whether the server acknowledged a batch yet: the first goes as soon as the header is
  /// here, so that the stream is on the server (and commands find it) before any event.
  private var hasOpened = false

  init(options: LiveOptions, perform: (@Sendable ([JSONValue]) -> Void)? = nil) {
    self.options = options
    self.perform = options.control == .accept ? perform : nil
    RecorderThread.start(named: "trace sender") { [self] in run() }
    if let perform = self.perform {
      RecorderThread.start(named: "trace orders") { [self] in takeOrders(perform) }
    }
  }

  /// What the stream has done so far.
  var status: LiveStatus {
    condition.lock()
    defer { condition.unlock() }
    return LiveStatus(
      acknowledgedSequence: acknowledged, heldEvents: lines.count - head, heldBytes: heldBytes,
      lostEvents: lostCount, connections: connectionCount, lastFailure: failure)
  }

  // MARK: The writer's side

  func write(_ bytes: [UInt8]) {
    var start = bytes.startIndex
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      append(Array(bytes[start...newline]))
      start = newline + 1
    }
  }

  private func append(_ line: [UInt8]) {
    condition.lock()
    defer { condition.unlock() }
    if header.isEmpty {
      header = line
      condition.broadcast()
      return
    }
    while !isAbandoned && head < lines.count
      && (lines.count - head >= options.ringEvents || heldBytes + line.count > options.ringBytes)
    {
      condition.wait()
    }
    guard !isAbandoned else {
      lostCount += 1
      return
    }
    lines.append(line)
    heldBytes += line.count
    condition.broadcast()
  }

  func finish() {
    condition.lock()
    isWriterFinished = true
    condition.broadcast()
    condition.unlock()
  }

  // MARK: Control

  /// Queues the outcomes of performed orders, for the sender to post.
  func report(_ performed: [JSONValue]) {
    condition.lock()
    outcomes += performed
    condition.broadcast()
    condition.unlock()
  }

  // MARK: Stopping

  /// From now on, the sender gives up after ``LiveOptions/drainTimeout`` without delivering.
  func beginStopping() {
    condition.lock()
    if stopDeadline == nil { stopDeadline = ContinuousClock.now + options.drainTimeout }
    condition.broadcast()
    condition.unlock()
  }

  /// Returns once the server acknowledged every line after the writer finished, or the
  /// stream gave up.
  func waitUntilDone() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      doneWaiters.append(continuation)
      condition.unlock()
    }
  }

  // MARK: The sender thread

  private func run() {
    var connection: HTTPSocket?
    var delay = options.reconnectDelay
    while true {
      condition.lock()
      while !isDone && !hasWork() {
        if let stopDeadline {
          if ContinuousClock.now >= stopDeadline {
            abandon("stopped with events the server had not acknowledged")
            break
          }
          _ = condition.wait(until: Self.date(stopDeadline))
        } else if perform != nil {
          // Nothing to send: ask for commands with an empty batch once the interval passed.
          let due = ContinuousClock.now + options.commandPollInterval
          if !condition.wait(until: Self.date(due)), !header.isEmpty { break }
        } else {
          condition.wait()
        }
      }
      if isWriterFinished && head == lines.count && !header.isEmpty { markDone() }
      if isDone {
        condition.unlock()
        return
      }
      let batch = takeBatch()
      let performed = outcomes
      outcomes = []
      condition.unlock()

      do {
        if connection == nil {
          connection = try HTTPSocket(
            host: options.host, port: options.port,
            timeoutMilliseconds: Self.milliseconds(options.timeout))
          condition.lock()
          connectionCount += 1
          condition.unlock()
        }
        if !performed.isEmpty {
          // The server waits for these; a failure to post them fails those commands.
          _ = try connection!.exchange(
            head: resultsHead(), body: [JSONValue.array(performed).serialized[...]])
        }
        let response = try connection!.exchange(
          head: requestHead(from: batch.from), body: batch.body)
        try handle(response, sentThrough: batch.through)
        if let perform, response.status == 200,
          let orders = (try? JSONValue(parsing: response.body))?["orders"]?.arrayValue,
          !orders.isEmpty
        {
          perform(orders)
        }
        delay = options.reconnectDelay
      } catch {
        connection = nil
        condition.lock()
        failure = error.description
        let deadline = ContinuousClock.now + delay
        while !isDone, ContinuousClock.now < deadline {
          if let stopDeadline, ContinuousClock.now >= stopDeadline {
            abandon("stopped while the server was unreachable (\(error.description))")
            break
          }
          _ = condition.wait(until: Self.date(min(deadline, stopDeadline ?? deadline)))
        }
        condition.unlock()
        delay = min(delay * 2, options.maximumReconnectDelay)
      }
    }
  }

  // MARK: The orders thread

  /// How long the server may hold an orders request: a second, well within the socket's
  /// timeout.
  private var ordersWaitMilliseconds: Int {
    max(0, min(1000, Self.milliseconds(options.timeout) / 2))
  }

  /// Asks for the stream's orders, one held request after the other, until the stream is done.
  ///
  /// It performs each answer's orders. It starts once the stream is on the server (its
  /// first batch acknowledged), and on any failure connects again after a growing delay.
  private func takeOrders(_ perform: @Sendable ([JSONValue]) -> Void) {
    var connection: HTTPSocket?
    var delay = options.reconnectDelay
    while true {
      condition.lock()
      while !isDone && !hasOpened { condition.wait() }
      let done = isDone
      condition.unlock()
      if done { return }
      do {
        if connection == nil {
          connection = try HTTPSocket(
            host: options.host, port: options.port,
            timeoutMilliseconds: Self.milliseconds(options.timeout))
        }
        let response = try connection!.exchange(head: ordersHead(), body: [])
        // The stream ended on the server: no order will come.
        if response.status == 410 { return }
        guard response.status == 200 else {
          throw HTTPSocket.Failure(description: "the server answered \(response.status)")
        }
        if let orders = (try? JSONValue(parsing: response.body))?["orders"]?.arrayValue,
          !orders.isEmpty
        {
          perform(orders)
        }
        delay = options.reconnectDelay
      } catch {
        connection = nil
        condition.lock()
        let deadline = ContinuousClock.now + delay
        while !isDone, ContinuousClock.now < deadline {
          _ = condition.wait(until: Self.date(deadline))
        }
        condition.unlock()
        delay = min(delay * 2, options.maximumReconnectDelay)
      }
    }
  }

  private func ordersHead() -> String {
    "GET \(LiveProtocol.ordersPath(options.streamID))?wait=\(ordersWaitMilliseconds) HTTP/1.1\r\n"
      + "Host: \(options.host):\(options.port)\r\n"
      + "Authorization: Bearer \(options.token)\r\n"
  }

  /// With the lock held: whether there is something to send (or to finish).
  private func hasWork() -> Bool {
    !header.isEmpty
      && (!hasOpened || head < lines.count || isWriterFinished || !outcomes.isEmpty)
  }

  /// With the lock held: the held lines from the first unacknowledged one, up to a batch.
  private func takeBatch() -> (from: Int, through: Int, body: [ArraySlice<UInt8>]) {
    var body: [ArraySlice<UInt8>] = [header[...]]
    var bytes = header.count
    var index = head
    while index < lines.count, bytes < Self.batchBytes || index == head {
      body.append(lines[index][...])
      bytes += lines[index].count
      index += 1
    }
    return (firstSequence, firstSequence + (index - head) - 1, body)
  }

  private func requestHead(from sequence: Int) -> String {
    "POST \(LiveProtocol.streamPath(options.streamID))?from=\(sequence) HTTP/1.1\r\n"
      + "Host: \(options.host):\(options.port)\r\n"
      + "Authorization: Bearer \(options.token)\r\n"
      + "Content-Type: application/x-ndjson\r\n"
      + (perform == nil ? "" : "\(LiveProtocol.controlHeader): accept\r\n")
  }

  private func resultsHead() -> String {
    "POST \(LiveProtocol.resultsPath(options.streamID)) HTTP/1.1\r\n"
      + "Host: \(options.host):\(options.port)\r\n"
      + "Authorization: Bearer \(options.token)\r\n"
      + "Content-Type: application/json\r\n"
  }

  /// Drops what the server acknowledged; a hole the server reports is resent from its end.
  private func handle(_ response: HTTPSocket.Response, sentThrough last: Int) throws(HTTPSocket
    .Failure)
  {
    let acked = LiveProtocol.acknowledgedSequence(in: response.body)
    switch (response.status, acked) {
    case (200, let acked?) where acked <= last, (409, let acked?):
      condition.lock()
      defer { condition.unlock() }
      guard acked >= firstSequence - 1 else {
        abandon(
          "the server holds events up to \(acked) only, and this app no longer holds \(acked + 1)")
        return
      }
      guard acked <= firstSequence - 1 + (lines.count - head) else {
        abandon("the server holds events up to \(acked), more than this app sent")
        return
      }
      acknowledge(through: acked)
      hasOpened = true
      failure = nil
    case (401, _):
      throw HTTPSocket.Failure(description: "the server refused the token")
    default:
      let text = String(decoding: response.body.prefix(200), as: UTF8.self)
      throw HTTPSocket.Failure(description: "the server answered \(response.status): \(text)")
    }
  }

  /// With the lock held: drops the lines through `sequence`, making room for the writer.
  private func acknowledge(through sequence: Int) {
    while firstSequence <= sequence, head < lines.count {
      heldBytes -= lines[head].count
      lines[head] = []
      head += 1
      firstSequence += 1
    }
    acknowledged = max(acknowledged, sequence)
    if head > 1024 && head * 2 > lines.count {
      lines.removeFirst(head)
      head = 0
    }
    condition.broadcast()
  }

  /// With the lock held: gives up, counting what was held as lost.
  private func abandon(_ reason: String) {
    lostCount += lines.count - head
    lines.removeAll()
    head = 0
    heldBytes = 0
    isAbandoned = true
    failure = reason
    markDone()
  }

  /// With the lock held: the stream is over; wakes whoever waits.
  private func markDone() {
    guard !isDone else { return }
    isDone = true
    isAbandoned = true
    condition.broadcast()
    let waiters = doneWaiters
    doneWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(clamping: seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }

  private static func date(_ instant: ContinuousClock.Instant) -> Date {
    let (seconds, attoseconds) = ContinuousClock.now.duration(to: instant).components
    return Date(timeIntervalSinceNow: max(0, Double(seconds) + Double(attoseconds) / 1e18))
  }
}
