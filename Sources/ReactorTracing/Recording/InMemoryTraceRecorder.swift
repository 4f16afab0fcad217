public import ReactorCore

/// Records a reactor's trace in memory: for tests, and for tools that want the events
/// without a file.
///
/// ```swift
/// let reactor = CounterReactor()
/// let recorder = try InMemoryTraceRecorder(recording: reactor)
/// reactor.send(.increase)
/// print(recorder.trace.serialized)
/// ```
///
/// Events are captured as typed values on the reactor's actor and encoded only when
/// ``trace`` or ``events`` is read, so recording costs little more than an array append.
@MainActor
public final class InMemoryTraceRecorder<R: Reactor>: TraceRecorder {
  /// The trace's first line, as it was when recording began.
  public let header: TraceHeader
  private let encoder: TraceEventEncoder<R.Action, R.Mutation, R.State>
  private let monitor: RecordingMonitor<R.Action, R.Mutation, R.State>
  private weak var reactor: R?

  /// Starts recording `reactor`, replacing any monitor it had.
  /// - Parameters:
  ///   - reactor: The reactor to record.
  ///   - options: Metadata, redaction, limit, snapshot interval and clock; flush options do
  ///     not apply in memory.
  /// - Throws: ``TraceRecordingError`` for an invalid option or redaction pattern.
  public init(recording reactor: R, options: TraceOptions = TraceOptions())
    throws(TraceRecordingError)
  {
    (header, encoder) = try reactor.traceHeader(options: options)
    monitor = RecordingMonitor(options: options, initialState: reactor.currentState)
    self.reactor = reactor
    monitor.attach(to: reactor.runtime)
  }

  /// The trace so far: header and events, with the end line once stopped.
  public var trace: Trace {
    monitor.window!.trace(header: header, encoder: encoder)
  }

  /// The events so far.
  public var events: [TraceEvent] { trace.events }

  /// How many events the reactor produced while recording, kept or not.
  public var observedEventCount: Int { monitor.observedCount }

  /// How many events a ``TraceLimit/firstEvents(_:)`` limit left out.
  public var droppedEventCount: Int { monitor.droppedCount }

  /// Waits until no effect is running: every effect started while recording has ended.
  ///
  /// Call it before ``stop()`` to record a whole run; an effect still running at `stop()` is
  /// listed in the end line, and readers warn that the run was not finished. It returns at
  /// once when no effect is running, and when recording stops. An effect that never ends (one
  /// that observes a stream forever) keeps it waiting: cancel it first.
  ///
  /// ```swift
  /// reactor.send(.increase)
  /// await recorder.waitUntilIdle()   // the 500 ms effect ends
  /// try await recorder.stop()
  /// ```
  public func waitUntilIdle() async {
    await monitor.waitUntilIdle()
  }

  /// Detaches from the reactor and appends the end line.
  ///
  /// Later calls do nothing.
  public func stop() {
    if let reactor { monitor.detach(from: reactor.runtime) }
    _ = monitor.stop()
  }
}
