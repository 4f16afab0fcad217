public import ReactorCore

/// Records a reactor's trace to a JSON Lines file, encoding and writing on a background
/// thread so the reactor never waits for the disk.
///
/// ```swift
/// let reactor = CounterReactor()
/// let recorder = try FileTraceRecorder(recording: reactor, to: "counter.trace.jsonl")
/// reactor.send(.increase)
/// await recorder.waitUntilIdle()   // let the effect finish, so the trace holds the whole run
/// try await recorder.stop()
/// ```
///
/// On the reactor's actor, recording an event is a timestamp and an append under a lock.
/// The writer writes what is buffered every ``TraceOptions/flushInterval`` or
/// ``TraceOptions/flushThreshold`` events, whichever comes first. With the wait policy the
/// reactor never gets more than `flushThreshold` events ahead of the disk, so a crash loses
/// at most the last 200 ms or 4,096 events by default; with the drop policy, up to what
/// ``TraceOptions/queueBudget`` holds. The file is a valid trace after every flush (a torn last line is
/// reported by readers as a warning). ``stop()`` writes everything and the end line. If the
/// recorder is released without `stop()`, the writer still finishes in the background.
///
/// What waits for the writer is bounded by ``TraceOptions/queueBudget`` (32 MiB by default):
/// when the reactor produces events faster than the writer encodes them for long enough to
/// fill it, the reactor waits for the writer (``TraceOverflowPolicy/wait``, the default) or
/// the events that do not fit are dropped and a ``TraceEvent/Gap`` records how many
/// (``TraceOverflowPolicy/drop``).
@MainActor
public final class FileTraceRecorder<R: Reactor>: TraceRecorder {
  /// The trace's first line.
  public let header: TraceHeader
  /// Where the trace is written.
  public var path: String { writer.path }
  let writer: TraceFileWriter<R.Action, R.Mutation, R.State>
  private let monitor: RecordingMonitor<R.Action, R.Mutation, R.State>
  private weak var reactor: R?

  /// Creates (or empties) the file at `path` and starts recording `reactor`, replacing any
  /// monitor it had.
  /// - Parameters:
  ///   - reactor: The reactor to record.
  ///   - path: The trace file to write.
  ///   - options: Metadata, redaction, limit, snapshots, flushing and clock.
  /// - Throws: ``TraceRecordingError`` when the file cannot be created or an option is
  ///   invalid; ``TraceRecordingError/holdsObjects(reactor:types:)`` when the reactor's
  ///   action, mutation or state types can hold objects (a state that holds child reactors),
  ///   which the writer thread cannot encode: record such a reactor with ``SessionRecorder``.
  public init(recording reactor: R, to path: String, options: TraceOptions = TraceOptions())
    throws(TraceRecordingError)
  {
    let (header, encoder) = try reactor.traceHeader(options: options)
    self.header = header
    writer = try TraceFileWriter(
      path: path, header: header, encoder: encoder, initialState: reactor.currentState,
      options: options)
    monitor = RecordingMonitor(options: options, writer: writer)
    self.reactor = reactor
    monitor.attach(to: reactor.runtime)
  }

  isolated deinit {
    if let reactor { monitor.detach(from: reactor.runtime) }
    if monitor.stop() { writer.closeInBackground() }
  }

  /// How many events the reactor produced while recording, kept or not.
  public var observedEventCount: Int { monitor.observedCount }

  /// How many events a ``TraceLimit/firstEvents(_:)`` limit or, with
  /// ``TraceOverflowPolicy/drop``, a full queue left out.
  public var droppedEventCount: Int { monitor.droppedCount }

  /// The most bytes that were queued for the writer at once, as estimated against
  /// ``TraceOptions/queueBudget``: at most the budget, unless a single event was larger.
  public var peakQueuedBytes: Int { writer.peakQueuedBytes }

  /// Writes every event recorded so far and waits until the writer has handed them to the
  /// operating system, without stopping: after it returns, a crash of the app loses none of
  /// them.
  public func flush() async {
    await writer.flush()
  }

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

  /// Detaches from the reactor, writes every buffered event and the end line, and closes
  /// the file.
  ///
  /// Later calls do nothing.
  /// - Throws: ``TraceRecordingError/writeFailed(path:reason:)`` if any write failed; the
  ///   file then holds the events written before the failure.
  public func stop() async throws(TraceRecordingError) {
    if let reactor { monitor.detach(from: reactor.runtime) }
    guard monitor.stop() else { return }
    if let failure = await writer.close() { throw failure }
  }
}
