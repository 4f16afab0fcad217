import ReactorCore
import ReactorLiveRecording
import ReactorTracing

/// The recorder a runtime scenario runs with, if any, and the checks that it lost nothing.
@MainActor
final class Recording<R: Reactor> {
  private let memory: InMemoryTraceRecorder<R>?
  private let file: FileTraceRecorder<R>?
  private let live: LiveTraceRecorder<R>?
  /// The server a live recorder streams to.
  private let server: ServeProcess?
  /// The trace file, in `file` mode; in `live` mode, the one the server keeps.
  let path: String?
  /// Whether the file recorder drops rather than waits.
  private let isDropping: Bool
  /// The events the drop policy dropped, once verified.
  private(set) var dropped: Int?

  /// Attaches the recorder `mode` asks for.
  /// - Parameters:
  ///   - reactor: The reactor to record.
  ///   - mode: Untraced, in memory, to a file or live.
  ///   - path: The trace file, used in `file` mode; in `live` mode, the server keeps the
  ///     stream in a directory beside it.
  /// - Throws: ``BenchFailure/file(path:reason:)`` when the recorder cannot start, and what
  ///   ``ServeProcess/init(directory:)`` throws.
  init(_ reactor: R, mode: TracingMode, path: String) throws(BenchFailure) {
    isDropping = mode == .fileDropping || mode == .live
    let server = mode == .live ? try ServeProcess(directory: path + ".serve") : nil
    self.server = server
    do {
      switch mode {
      case .untraced:
        memory = nil
        file = nil
        live = nil
        self.path = nil
      case .memory:
        memory = try InMemoryTraceRecorder(recording: reactor)
        file = nil
        live = nil
        self.path = nil
      case .file, .fileDropping:
        memory = nil
        file = try FileTraceRecorder(
          recording: reactor, to: path,
          options: TraceOptions(overflow: mode == .fileDropping ? .drop : .wait))
        live = nil
        self.path = path
      case .live:
        guard let server else { throw TraceRecordingError.invalidOption("no server") }
        memory = nil
        file = nil
        // The file recorder's queue budget (32 MiB), so that the two compare like for like.
        live = try LiveTraceRecorder(
          recording: reactor,
          live: LiveOptions(
            port: server.port, token: server.token, streamID: "bench",
            queueBudget: TraceOptions().queueBudget))
        self.path = server.directory + "/bench.trace.jsonl"
      }
    } catch {
      throw .file(path: path, reason: "cannot start recording: \(error)")
    }
  }

  /// Detaches the recorder; a file recorder returns once every event is on disk, a live one
  /// once the server acknowledged every event it kept.
  func stop() async throws(BenchFailure) {
    memory?.stop()
    do {
      try await file?.stop()
    } catch {
      throw .file(path: path ?? "", reason: "recording failed: \(error)")
    }
    await live?.stop()
  }

  /// Runs `sends` and stops the recording: the timed part of every recorded run.
  /// - Parameter sends: Sends the run's actions.
  /// - Returns: The seconds from the first send until ``stop()`` returned.
  /// - Throws: ``BenchFailure`` when the recording fails.
  func timed(_ sends: () -> Void) async throws(BenchFailure) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    sends()
    try await stop()
    return start.duration(to: clock.now).seconds
  }

  /// Checks that the recorder saw `events` events and dropped none, and that a trace file
  /// holds every one of them.
  /// - Returns: The size of the trace file, or `nil` when nothing was written.
  func verify(events: Int, by verification: Verification) throws(BenchFailure) -> Int? {
    if let memory {
      try verification.expect("events observed", memory.observedEventCount, equals: events)
      try verification.expect("events dropped", memory.droppedEventCount, equals: 0)
    }
    if let file, let path {
      try verification.expect("events observed", file.observedEventCount, equals: events)
      if isDropping {
        dropped = file.droppedEventCount
        return try TraceFileCheck.verify(
          path: path, events: events, dropped: file.droppedEventCount, by: verification)
      }
      try verification.expect("events dropped", file.droppedEventCount, equals: 0)
      return try TraceFileCheck.verify(path: path, events: events, by: verification)
    }
    if let live, let path, let server {
      defer { server.remove() }
      try verification.expect("events observed", live.observedEventCount, equals: events)
      try verification.expect("events the stream lost", live.status.lostEvents, equals: 0)
      dropped = live.droppedEventCount
      return try TraceFileCheck.verify(
        path: path, events: events, dropped: live.droppedEventCount, by: verification)
    }
    return nil
  }
}
