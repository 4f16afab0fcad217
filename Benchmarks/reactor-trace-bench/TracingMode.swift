/// How a runtime scenario is recorded while it runs.
enum TracingMode: String, CaseIterable, Sendable {
  /// No recorder attached.
  case untraced
  /// An `InMemoryTraceRecorder` attached; timed until `stop()` returns.
  case memory
  /// A `FileTraceRecorder` attached; timed until `stop()` returns with every event on disk.
  case file
  /// A `FileTraceRecorder` with the drop policy: the reactor never waits for the writer,
  /// events that do not fit the queue's budget are dropped and counted.
  case fileDropping = "file-drop"
  /// A `LiveTraceRecorder` streaming to `reactor-trace-serve` (built beside the benchmark, in
  /// a process of its own); timed until `stop()` returns with every event the server kept
  /// acknowledged. A ring of 10,000 events (the default) holds what the server has not
  /// acknowledged; when it and the queue in front of it are full, events are dropped and
  /// counted, as with the drop policy.
  case live
}
