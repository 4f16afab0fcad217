public import ReactorCore

/// Keeps the last moments of a reactor's run in memory, bounded, and writes them to a file
/// on demand without stopping: a flight recorder to leave on in production.
///
/// ```swift
/// let recorder = try FlightRecorder(
///   recording: reactor, keeping: FlightWindow(events: 5_000, duration: .seconds(30)),
///   options: TraceOptions(redactions: [TraceRedaction("state.user.token")]))
/// // In a "report a problem" action:
/// try recorder.write(to: reportDirectory + "/last-moments.trace.jsonl")
/// ```
///
/// On the reactor's actor, recording an event is a timestamp and an append to a ring, as in
/// ``InMemoryTraceRecorder``; the oldest events are evicted to keep within the
/// ``FlightWindow``. Nothing is encoded until ``write(to:)`` or ``trace`` asks: then the
/// window becomes a complete trace that starts from a snapshot of the state before its first
/// event (the header's `initialState`, with ``TraceHeader/window`` saying how many events
/// came before it), redacted as the options say, and ends with an end line counting the
/// events observed so far. It replays structurally and renders like any trace; recording
/// goes on.
///
/// A crash handler cannot safely encode: for the moments before a crash, write the window
/// periodically or when the app moves to the background, or record with a
/// ``FileTraceRecorder`` and a ``TraceLimit/lastEvents(_:)`` limit, which keeps the window on
/// disk at every flush.
@MainActor
public final class FlightRecorder<R: Reactor>: TraceRecorder {
  /// The trace's first line, as it was when recording began.
  public let header: TraceHeader
  /// What the recorder keeps.
  public let window: FlightWindow
  private let encoder: TraceEventEncoder<R.Action, R.Mutation, R.State>
  private let monitor: RecordingMonitor<R.Action, R.Mutation, R.State>
  private weak var reactor: R?

  /// Starts recording `reactor`, replacing any monitor it had.
  /// - Parameters:
  ///   - reactor: The reactor to record.
  ///   - window: How many events, how many seconds and how many bytes to keep.
  ///   - options: Metadata, redaction, snapshot interval and clock; limits, flushing and the
  ///     queue do not apply.
  /// - Throws: ``TraceRecordingError/invalidOption(_:)`` for a window that keeps nothing, or
  ///   an invalid option or redaction pattern.
  public init(
    recording reactor: R, keeping window: FlightWindow = FlightWindow(),
    options: TraceOptions = TraceOptions()
  ) throws(TraceRecordingError) {
    guard window.events >= 1, window.bytes >= 1 else {
      throw .invalidOption("a flight window must keep at least 1 event and 1 byte")
    }
    if let duration = window.duration, duration <= .zero {
      throw .invalidOption("a flight window's duration must be positive")
    }
    var options = options
    options.limit = .unlimited
    (header, encoder) = try reactor.traceHeader(options: options)
    self.window = window
    monitor = RecordingMonitor(
      options: options,
      window: EventWindow(
        capacity: window.events, initialState: reactor.currentState,
        maximumAge: window.duration, maximumBytes: window.bytes,
        stateBytes: 4 * header.initialState.length))
    self.reactor = reactor
    monitor.attach(to: reactor.runtime)
  }

  /// The window now, as a complete trace: the kept events and an end line.
  public var trace: Trace {
    // Once stopped, the window holds the end line already.
    monitor.window!.trace(
      header: header, encoder: encoder,
      closedBy: monitor.isStopped ? nil : StampedEvent(monitor.snapshotEnd()))
  }

  /// Writes the window now to `path`, atomically, and goes on recording.
  /// - Parameter path: The trace file to write; replaced if it exists.
  /// - Throws: ``TraceRecordingError/writeFailed(path:reason:)`` when it cannot be written.
  public func write(to path: String) throws(TraceRecordingError) {
    do {
      try trace.write(to: path)
    } catch {
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  /// How many events the reactor produced while recording, kept or not.
  public var observedEventCount: Int { monitor.observedCount }

  /// How many events the window evicted so far.
  public var droppedEventCount: Int { monitor.window?.evictedCount ?? 0 }

  /// How many bytes the kept events are estimated to take.
  public var keptBytes: Int { monitor.window?.bytes ?? 0 }

  /// Waits until every effect started while recording has ended.
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
