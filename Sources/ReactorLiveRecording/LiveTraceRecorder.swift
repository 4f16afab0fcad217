public import ReactorCore
public import ReactorTracing

/// Streams a reactor's trace to `reactor-trace serve` as it runs, so that the live page shows
/// each event as it happens; the server keeps the stream as a trace file.
///
/// ```swift
/// let reactor = CounterReactor()
/// let recorder = try LiveTraceRecorder(
///   recording: reactor, options: LiveOptions(port: 7878, token: "token serve printed"))
/// reactor.send(.increase)
/// await recorder.waitUntilIdle()
/// await recorder.stop()
/// ```
///
/// It records what a ``FileTraceRecorder`` records, line for line, at the same cost on the
/// reactor's actor (a timestamp and an append under a lock): the same writer thread encodes
/// the events, and hands the lines to a ring instead of a file. A sender thread posts them to
/// the server, which acknowledges each batch once it is on its disk. Until then they stay in
/// the ring (``LiveOptions/ringEvents`` and ``LiveOptions/ringBytes``, by default 10,000
/// events or 8 MiB): when the connection fails, the sender connects again on its own, with
/// a growing delay, and resumes from the last acknowledged event, so an outage loses nothing
/// while what the app produces meanwhile fits the ring and the queue in front of it. When it
/// does not, the recording drops events rather than make the reactor wait, and records a
/// gap saying how many (``TraceOverflowPolicy/drop``); the trace on the server stays a valid
/// trace that replays around the gap.
///
/// The reactor never waits for the network, and the recorder never holds more than the ring
/// and ``LiveOptions/queueBudget``. It uses plain POSIX sockets: an app linking it links no
/// server or HTTP library.
@MainActor
public final class LiveTraceRecorder<R: Reactor>: TraceRecorder {
  /// The trace's first line.
  public let header: TraceHeader
  /// The stream's name on the server.
  public var streamID: String { stream.options.streamID }
  private let stream: LiveStream
  private let orders = LiveOrders()
  private let writer: TraceFileWriter<R.Action, R.Mutation, R.State>
  private let monitor: RecordingMonitor<R.Action, R.Mutation, R.State>
  private weak var reactor: R?
  private var isStopping = false

  /// Starts recording `reactor` and streaming it to the server `live` names.
  ///
  /// It replaces any monitor the reactor had. It returns at once; the first connection is
  /// made in the background.
  /// - Parameters:
  ///   - reactor: The reactor to record.
  ///   - live: The server, its token, and the ring's bounds.
  ///   - options: Metadata, redaction, snapshots and clock. Its flush interval is
  ///     ``LiveOptions/sendInterval``, its queue budget ``LiveOptions/queueBudget``, its
  ///     overflow policy always ``TraceOverflowPolicy/drop``, and it takes no limit.
  /// - Throws: ``TraceRecordingError/invalidOption(_:)`` for an invalid stream name, bound or
  ///   option.
  public init(
    recording reactor: R, live: LiveOptions, options: TraceOptions = TraceOptions()
  ) throws(TraceRecordingError) {
    try live.validate()
    var options = options
    options.overflow = .drop
    options.flushInterval = live.sendInterval
    options.queueBudget = live.queueBudget
    // An app that takes commands may be told to jump: format 1.4.
    if live.control == .accept { options.recordsJumps = true }
    let (header, encoder) = try reactor.traceHeader(options: options)
    self.header = header
    stream = LiveStream(options: live, perform: orders.receiver)
    orders.stream = stream
    writer = try TraceFileWriter(
      sink: stream, name: "live stream \(live.streamID)", header: header, encoder: encoder,
      options: options)
    monitor = RecordingMonitor(options: options, writer: writer)
    self.reactor = reactor
    monitor.attach(to: reactor.runtime)
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

  /// Sends an order's action to the reactor, or makes its state the reactor's, recorded as
  /// coming from outside the app.
  /// - Returns: Why it failed, or `nil` once the reactor took it.
  private func perform(_ order: LiveOrder) -> String? {
    guard !isStopping, let reactor else { return "the app's recording has stopped" }
    guard order.to == nil, order.reactor == nil else {
      return "this app records one reactor, which takes no address"
    }
    let value: JSONValue
    switch order.kind {
    case .action(let action):
      value = action
    case .jump(let sequence, let state):
      guard let type = R.State.self as? any Decodable.Type else {
        return "the reactor's State type is not Decodable"
      }
      do {
        guard let decoded = try JSONValueDecoder().decode(type, from: state) as? R.State else {
          return "the value is not a \(R.State.self)"
        }
        reactor.jump(to: decoded, event: sequence, from: order.from)
      } catch {
        return "the state does not decode: \(LiveOrder.message(error))"
      }
      return nil
    }
    guard let type = R.Action.self as? any Decodable.Type else {
      return "the reactor's Action type is not Decodable"
    }
    let action: R.Action
    do {
      guard let decoded = try JSONValueDecoder().decode(type, from: value) as? R.Action
      else { return "the value is not a \(R.Action.self)" }
      action = decoded
    } catch {
      return "the action does not decode: \(LiveOrder.message(error))"
    }
    reactor.send(action, from: order.from)
    return nil
  }

  isolated deinit {
    if let reactor { monitor.detach(from: reactor.runtime) }
    stream.beginStopping()
    if monitor.stop() { writer.closeInBackground() }
  }

  /// How many events the reactor produced while recording, kept or not.
  public var observedEventCount: Int { monitor.observedCount }

  /// How many events a full ring and queue dropped (each run of them a gap in the trace).
  public var droppedEventCount: Int { monitor.droppedCount }

  /// What the stream has done so far: acknowledged, held, lost, connections.
  public var status: LiveStatus { stream.status }

  /// Waits until no effect is running: every effect started while recording has ended.
  public func waitUntilIdle() async {
    await monitor.waitUntilIdle()
  }

  /// Encodes every event recorded so far into the ring, without stopping.
  public func flush() async {
    await writer.flush()
  }

  /// Detaches from the reactor, appends the end line, and waits until the server has
  /// acknowledged everything, or ``LiveOptions/drainTimeout`` has passed without reaching
  /// it (what it still held is then counted in ``LiveStatus/lostEvents``).
  ///
  /// Later calls do nothing.
  public func stop() async {
    guard !isStopping else { return }
    isStopping = true
    if let reactor { monitor.detach(from: reactor.runtime) }
    // From here the sender gives up after the drain timeout, so nothing below waits longer.
    stream.beginStopping()
    // Empty the queue first (awaiting, never blocking the actor): the end line below is
    // queued without waiting for room, as the monitor queues it with room guaranteed.
    await writer.flush()
    guard monitor.stop() else { return }
    _ = await writer.close()
    await stream.waitUntilDone()
  }
}
