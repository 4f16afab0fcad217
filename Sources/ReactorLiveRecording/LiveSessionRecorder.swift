public import ReactorCore
import ReactorScript
public import ReactorTracing

/// Streams a whole session (many reactors in one trace) to `reactor-trace serve` as it runs,
/// so that the live page shows every reactor's lane as it happens; the server keeps the
/// stream as a session trace file.
///
/// ```swift
/// let recorder = try LiveSessionRecorder.recordingEveryReactor(
///   live: LiveOptions(port: 7878, token: "token serve printed"))
/// // … the app runs …
/// await recorder.waitUntilIdle()
/// await recorder.stop()
/// ```
///
/// It records what a ``ReactorTracing/SessionRecorder`` writes to a file, line for line and
/// with the same work on the main actor (a reactor of plain data has its actions and
/// mutations queued as values and encoded by the writer thread; any other reactor's events are
/// encoded as they happen, their lines queued under a lock), and streams the lines as ``LiveTraceRecorder`` does: the same ring of what
/// the server has not acknowledged (``LiveOptions/ringEvents``, ``LiveOptions/ringBytes``),
/// the same reconnection and resumption from the last acknowledged event, nothing lost while
/// an outage fits the ring and the queue in front of it.
///
/// When it does not, the recording drops reactors' events rather than make the main actor
/// wait, and records a gap saying how many, as the file recorder's drop policy does: a
/// reactor's next mutation after a gap still carries its state rightly (its diff is from the
/// last state recorded), and introductions and releases are never dropped, so the lanes stay
/// whole. The session on the server stays a valid session that reads around the gap.
@MainActor
public final class LiveSessionRecorder {
  /// The stream's name on the server.
  public var streamID: String { stream.options.streamID }
  private let stream: LiveStream
  private let orders = LiveOrders()
  private let recorder: SessionRecorder
  private var isStopping = false

  /// Starts a session recording no reactor yet, streaming it to the server `live` names.
  ///
  /// It returns at once; the first connection is made in the background.
  /// - Parameters:
  ///   - live: The server, its token, and the ring's bounds.
  ///   - options: Metadata, redaction, snapshots and clock, as for a session recorder. Its
  ///     flush interval is ``LiveOptions/sendInterval`` and its queue budget
  ///     ``LiveOptions/queueBudget``; it drops when full and takes no limit.
  /// - Throws: ``ReactorTracing/TraceRecordingError/invalidOption(_:)`` for an invalid stream
  ///   name, bound or option.
  public init(live: LiveOptions, options: TraceOptions = TraceOptions())
    throws(TraceRecordingError)
  {
    try live.validate()
    var options = options
    options.overflow = .drop
    options.flushInterval = live.sendInterval
    options.queueBudget = live.queueBudget
    // An app that takes commands may be told to jump: format 2.2.
    if live.control == .accept { options.recordsJumps = true }
    stream = LiveStream(options: live, perform: orders.receiver)
    orders.stream = stream
    do {
      recorder = try SessionRecorder(
        sink: stream, name: "live session \(live.streamID)", options: options)
    } catch {
      stream.beginStopping()
      stream.finish()
      throw error
    }
    // What a command made (its action, the mutations `reduce` made of it) goes to the server
    // now, not at the next send interval: the page shows it sooner.
    orders.didPerform = { [weak self] in
      guard let self else { return }
      Task { await self.flush() }
    }
    orders.performer = { [weak self] order in
      guard let self else { return "the app's recording has stopped" }
      return self.perform(order)
    }
  }

  /// Sends an order's action to the reactor it addresses, recorded as coming from outside
  /// the app.
  /// - Returns: Why it failed, or `nil` once the reactor took it.
  private func perform(_ order: LiveOrder) -> String? {
    guard !isStopping else { return "the app's recording has stopped" }
    let reactor: Int
    if let id = order.reactor {
      reactor = id
    } else if let to = order.to {
      do {
        reactor = try ReactorAddress(parsing: to).reactor(in: recorder)
      } catch {
        return "no reactor at '\(to)': \(error)"
      }
    } else {
      return "a session's action goes to a reactor's address (--to, e.g. list/cells.0)"
    }
    do {
      switch order.kind {
      case .action(let action):
        try recorder.send(action, to: reactor, from: order.from)
      case .jump(let sequence, let state):
        try recorder.jump(reactor: reactor, to: state, event: sequence, from: order.from)
      }
    } catch {
      return error.description
    }
    return nil
  }

  /// Starts a live session that records every reactor whose pipeline starts from now on,
  /// until ``stop()``: the one line that streams a whole app.
  /// - Parameters:
  ///   - live: As for ``init(live:options:)``.
  ///   - options: As for ``init(live:options:)``.
  ///   - including: Which reactors to record (all by default).
  /// - Returns: The recorder; keep it, since it is installed weakly (released, it stops).
  /// - Throws: As ``init(live:options:)``.
  public static func recordingEveryReactor(
    live: LiveOptions, options: TraceOptions = TraceOptions(),
    including: @escaping @MainActor (AnyObject) -> Bool = { _ in true }
  ) throws(TraceRecordingError) -> LiveSessionRecorder {
    let recorder = try LiveSessionRecorder(live: live, options: options)
    recorder.recorder.recordEveryReactor(including: including)
    return recorder
  }

  isolated deinit {
    stream.beginStopping()
  }

  /// The session's first line, as the server keeps it.
  public var header: SessionHeader { recorder.session.header }

  /// Records `reactor` from now on, as ``ReactorTracing/SessionRecorder/record(_:name:parent:)``
  /// does.
  /// - Parameters:
  ///   - reactor: The reactor.
  ///   - name: The name scripts address it by.
  ///   - parent: The session id of the reactor that created it, if any.
  /// - Returns: Its id in the session, or `nil` once the recording stopped.
  @discardableResult
  public func record<R: Reactor>(_ reactor: R, name: String? = nil, parent: Int? = nil) -> Int? {
    recorder.record(reactor, name: name, parent: parent)
  }

  /// How many events the recorded reactors produced while recording, kept or not.
  public var observedEventCount: Int { recorder.observedEventCount }

  /// How many events a full ring and queue dropped (each run of them a gap in the session).
  public var droppedEventCount: Int { recorder.droppedEventCount }

  /// What the stream has done so far: acknowledged, held, lost, connections.
  public var status: LiveStatus { stream.status }

  /// Waits until no effect of a live recorded reactor is running.
  public func waitUntilIdle() async {
    await recorder.waitUntilIdle()
  }

  /// Hands every event recorded so far to the stream, without stopping.
  public func flush() async {
    await recorder.flush()
  }

  /// Stops recording (every reactor detached, the end line appended) and waits until the
  /// server has acknowledged everything, or ``LiveOptions/drainTimeout`` has passed without
  /// reaching it (what it still held is then counted in ``LiveStatus/lostEvents``).
  ///
  /// Later calls do nothing.
  public func stop() async {
    guard !isStopping else { return }
    isStopping = true
    // From here the sender gives up after the drain timeout, so nothing below waits longer.
    stream.beginStopping()
    // A stream, not a file: closing it cannot fail.
    try? await recorder.close()
    await stream.waitUntilDone()
  }
}
